# module: word_bpe
"""Part 3 as a WordBPE class; the module functions call into it."""
from __future__ import annotations

import copy
import re
from collections import Counter
from dataclasses import dataclass, field

END_OF_WORD = "</w>"
PRE_TOKEN = re.compile(r"\w+|[^\s\w]+")


def pre_tokenize(text: str) -> list[str]:
    return PRE_TOKEN.findall(text)


def word_frequencies(text: str) -> dict[tuple[str, ...], int]:
    table: dict[tuple[str, ...], int] = {}
    for w in pre_tokenize(text):
        key = tuple(w) + (END_OF_WORD,)
        table[key] = table.get(key, 0) + 1
    return table


def get_pair_counts(word_freqs: dict[tuple[str, ...], int]) -> Counter[tuple[str, str]]:
    counts: Counter[tuple[str, str]] = Counter()
    for word, freq in word_freqs.items():
        for a, b in zip(word, word[1:]):
            counts[a, b] += freq
    return counts


def _merge_seq(seq, pair):
    out, i = [], 0
    while i < len(seq):
        if i + 1 < len(seq) and (seq[i], seq[i + 1]) == pair:
            out.append(seq[i] + seq[i + 1])
            i += 2
        else:
            out.append(seq[i])
            i += 1
    return out


def merge_pair(word_freqs, pair):
    pair = tuple(pair)
    new: dict[tuple[str, ...], int] = {}
    for word, freq in word_freqs.items():
        w = tuple(_merge_seq(word, pair))
        new[w] = new.get(w, 0) + freq
    return new


@dataclass
class WordBPE:
    merges: list[tuple[str, str]] = field(default_factory=list)
    history: list[dict[tuple[str, ...], int]] = field(default_factory=list, repr=False)

    @classmethod
    def fit(cls, text: str, num_merges: int, keep_history: bool = False) -> "WordBPE":
        model = cls()
        freqs = word_frequencies(text)
        for _ in range(num_merges):
            counts = get_pair_counts(freqs)
            if not counts:
                break
            best, n = counts.most_common(1)[0]
            if n < 2:
                break
            if keep_history:
                model.history.append(copy.deepcopy(freqs))
            freqs = merge_pair(freqs, best)
            model.merges.append(best)
        return model

    @property
    def ranks(self) -> dict[tuple[str, str], int]:
        r: dict[tuple[str, str], int] = {}
        for i, p in enumerate(self.merges):
            r.setdefault(p, i)
        return r

    def encode(self, text: str) -> list[str]:
        out: list[str] = []
        for w in pre_tokenize(text):
            seq = [*w, END_OF_WORD]
            for pair in self.merges:
                seq = _merge_seq(seq, pair)
            out.extend(seq)
        return out

    def encode_by_rank(self, text: str) -> list[str]:
        ranks = self.ranks
        out: list[str] = []
        for w in pre_tokenize(text):
            seq = [*w, END_OF_WORD]
            while True:
                found = [(ranks[p], p) for p in zip(seq, seq[1:]) if p in ranks]
                if not found:
                    break
                seq = _merge_seq(seq, min(found)[1])
            out.extend(seq)
        return out

    def __len__(self) -> int:
        return len(self.merges)

    def __contains__(self, pair: object) -> bool:
        return pair in self.merges


def train_bpe(text: str, num_merges: int) -> list[tuple[str, str]]:
    return list(WordBPE.fit(text, num_merges).merges)


def encode(text: str, merges: list[tuple[str, str]]) -> list[str]:
    return WordBPE([tuple(m) for m in merges]).encode(text)


def encode_by_rank(text: str, merges: list[tuple[str, str]]) -> list[str]:
    return WordBPE([tuple(m) for m in merges]).encode_by_rank(text)


def decode(tokens: list[str]) -> str:
    text = "".join(tokens)
    parts = text.split(END_OF_WORD)
    if parts[-1] == "":
        parts.pop()
    return " ".join(parts)


if __name__ == "__main__":
    model = WordBPE.fit("low lower lowest low", 3, keep_history=True)
    print(model, len(model.history))
    print(model.encode("lowly"))
