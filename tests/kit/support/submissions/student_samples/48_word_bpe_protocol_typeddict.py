# module: word_bpe
"""Part 3. I played with typing: a Protocol for 'something that encodes', a TypedDict for a training report."""
from __future__ import annotations

import re
from collections import Counter
from typing import Protocol, TypedDict

END_OF_WORD = "</w>"
PRE_TOKEN = re.compile(r"\w+|[^\s\w]+")

Word = tuple[str, ...]
Pair = tuple[str, str]


class Encoder(Protocol):
    def __call__(self, text: str, merges: list[Pair]) -> list[str]: ...


class TrainReport(TypedDict):
    merges: list[Pair]
    counts: list[int]
    stopped_early: bool


def pre_tokenize(text: str) -> list[str]:
    return PRE_TOKEN.findall(text)


def word_frequencies(text: str) -> dict[Word, int]:
    freqs: dict[Word, int] = {}
    for w in pre_tokenize(text):
        freqs.setdefault((*w, END_OF_WORD), 0)
        freqs[(*w, END_OF_WORD)] += 1
    return freqs


def get_pair_counts(word_freqs: dict[Word, int]) -> Counter[Pair]:
    result: Counter[Pair] = Counter()
    for word, freq in word_freqs.items():
        for left, right in zip(word[:-1], word[1:], strict=True):
            result[left, right] += freq
    return result


def _merge(word: Word, pair: Pair) -> Word:
    out: list[str] = []
    i = 0
    while i < len(word):
        if word[i : i + 2] == pair:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(word[i])
            i += 1
    return tuple(out)


def merge_pair(word_freqs: dict[Word, int], pair: Pair) -> dict[Word, int]:
    pair = tuple(pair)
    new: Counter[Word] = Counter()
    for word, freq in word_freqs.items():
        new[_merge(word, pair)] += freq
    return dict(new)


def train_with_report(text: str, num_merges: int) -> TrainReport:
    report: TrainReport = {"merges": [], "counts": [], "stopped_early": False}
    freqs = word_frequencies(text)
    for _ in range(num_merges):
        counts = get_pair_counts(freqs)
        if not counts:
            report["stopped_early"] = True
            break
        pair, n = counts.most_common(1)[0]
        if n < 2:
            report["stopped_early"] = True
            break
        report["merges"].append(pair)
        report["counts"].append(n)
        freqs = merge_pair(freqs, pair)
    return report


def train_bpe(text: str, num_merges: int) -> list[Pair]:
    return train_with_report(text, num_merges)["merges"]


def encode(text: str, merges: list[Pair]) -> list[str]:
    tokens: list[str] = []
    for w in pre_tokenize(text):
        word: Word = (*w, END_OF_WORD)
        for pair in merges:
            word = _merge(word, tuple(pair))
        tokens.extend(word)
    return tokens


def encode_by_rank(text: str, merges: list[Pair]) -> list[str]:
    ranks: dict[Pair, int] = {}
    for r, p in reversed(list(enumerate(merges))):
        ranks[tuple(p)] = r
    tokens: list[str] = []
    for w in pre_tokenize(text):
        word: Word = (*w, END_OF_WORD)
        while len(word) > 1:
            best = min(zip(word, word[1:]), key=lambda p: ranks.get(p, len(merges)))
            if best not in ranks:
                break
            word = _merge(word, best)
        tokens.extend(word)
    return tokens


def decode(tokens: list[str]) -> str:
    return "".join(tokens).replace(END_OF_WORD, " ").removesuffix(" ")


def check(encoder: Encoder, text: str, merges: list[Pair]) -> bool:
    return decode(encoder(text, merges)) == " ".join(pre_tokenize(text))


if __name__ == "__main__":
    rep = train_with_report("low lower lowest low newer newest", 10)
    print(rep)
    print(check(encode, "lowest newer!", rep["merges"]), check(encode_by_rank, "lowest newer!", rep["merges"]))
