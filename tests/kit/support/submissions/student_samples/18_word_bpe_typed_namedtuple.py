# module: word_bpe
"""Part 3 with a NamedTuple for merges and full type hints."""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from typing import NamedTuple

END_OF_WORD = "</w>"
PRE_TOKEN = re.compile(r"\w+|[^\s\w]+")

Word = tuple[str, ...]


class Merge(NamedTuple):
    left: str
    right: str

    @property
    def joined(self) -> str:
        return self.left + self.right


def pre_tokenize(text: str) -> list[str]:
    return re.findall(PRE_TOKEN, text)


def word_frequencies(text: str) -> dict[Word, int]:
    return dict(Counter(tuple(w) + (END_OF_WORD,) for w in pre_tokenize(text)))


def get_pair_counts(word_freqs: dict[Word, int]) -> Counter[tuple[str, str]]:
    counts: defaultdict[tuple[str, str], int] = defaultdict(int)
    for word, freq in word_freqs.items():
        for pair in zip(word, word[1:]):
            counts[pair] += freq
    return Counter(counts)


def merge_word(word: Word, pair: tuple[str, str]) -> Word:
    m = Merge(*pair)
    if m.left not in word:
        return word
    out: list[str] = []
    i = 0
    while i < len(word):
        if word[i] == m.left and i + 1 < len(word) and word[i + 1] == m.right:
            out.append(m.joined)
            i += 2
        else:
            out.append(word[i])
            i += 1
    return tuple(out)


def merge_pair(word_freqs: dict[Word, int], pair: tuple[str, str]) -> dict[Word, int]:
    result: defaultdict[Word, int] = defaultdict(int)
    for word, freq in word_freqs.items():
        result[merge_word(word, pair)] += freq
    return dict(result)


def train_bpe(text: str, num_merges: int) -> list[tuple[str, str]]:
    freqs = word_frequencies(text)
    merges: list[tuple[str, str]] = []
    for _ in range(num_merges):
        counts = get_pair_counts(freqs)
        if not counts:
            break
        best = max(counts, key=counts.__getitem__)
        if counts[best] < 2:
            break
        merges.append(best)
        freqs = merge_pair(freqs, best)
    return merges


def _spell(word: str) -> Word:
    return (*word, END_OF_WORD)


def encode(text: str, merges: list[tuple[str, str]]) -> list[str]:
    out: list[str] = []
    for w in pre_tokenize(text):
        symbols = _spell(w)
        for pair in merges:
            symbols = merge_word(symbols, pair)
        out += symbols
    return out


def encode_by_rank(text: str, merges: list[tuple[str, str]]) -> list[str]:
    rank = {tuple(p): i for i, p in enumerate(merges)}
    out: list[str] = []
    for w in pre_tokenize(text):
        symbols = _spell(w)
        while True:
            candidates = [p for p in zip(symbols, symbols[1:]) if p in rank]
            if not candidates:
                break
            symbols = merge_word(symbols, min(candidates, key=rank.__getitem__))
        out.extend(symbols)
    return out


def decode(tokens: list[str]) -> str:
    words: list[str] = []
    current: list[str] = []
    for tok in tokens:
        if tok.endswith(END_OF_WORD):
            current.append(tok[: -len(END_OF_WORD)])
            words.append("".join(current))
            current = []
        else:
            current.append(tok)
    if current:
        words.append("".join(current))
    return " ".join(words)
