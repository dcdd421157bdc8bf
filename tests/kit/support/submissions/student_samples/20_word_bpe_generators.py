# module: word_bpe
"""Part 3 written mostly with generators (yield / yield from)."""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator

END_OF_WORD = "</w>"
PRE_TOKEN = re.compile(r"\w+|[^\s\w]+")


def iter_pre_tokens(text: str) -> Iterator[str]:
    for m in PRE_TOKEN.finditer(text):
        yield m.group(0)


def pre_tokenize(text: str) -> list[str]:
    return list(iter_pre_tokens(text))


def spelled(word: str) -> tuple[str, ...]:
    return (*word, END_OF_WORD)


def word_frequencies(text: str) -> dict[tuple[str, ...], int]:
    return dict(Counter(map(spelled, iter_pre_tokens(text))))


def iter_pairs(symbols: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    it = iter(symbols)
    prev = next(it, None)
    for cur in it:
        yield prev, cur
        prev = cur


def get_pair_counts(word_freqs: dict[tuple[str, ...], int]) -> Counter[tuple[str, str]]:
    counts: Counter[tuple[str, str]] = Counter()
    for word, freq in word_freqs.items():
        for pair in iter_pairs(word):
            counts[pair] += freq
    return counts


def iter_merged(symbols: Iterable[str], pair: tuple[str, str]) -> Iterator[str]:
    it = iter(symbols)
    held: str | None = None
    for sym in it:
        if held is None:
            held = sym
            continue
        if (held, sym) == pair:
            yield held + sym
            held = None
        else:
            yield held
            held = sym
    if held is not None:
        yield held


def merge_pair(word_freqs, pair):
    merged: dict[tuple[str, ...], int] = {}
    for word, freq in word_freqs.items():
        new_word = tuple(iter_merged(word, pair))
        merged[new_word] = merged.get(new_word, 0) + freq
    return merged


def train_bpe(text: str, num_merges: int) -> list[tuple[str, str]]:
    freqs = word_frequencies(text)
    merges = []
    for _ in range(num_merges):
        counts = get_pair_counts(freqs)
        if not counts:
            break
        best = max(counts, key=counts.get)
        if counts[best] < 2:
            break
        merges.append(best)
        freqs = merge_pair(freqs, best)
    return merges


def _encode_word(word: str, merges) -> Iterator[str]:
    symbols: tuple[str, ...] = spelled(word)
    for pair in merges:
        symbols = tuple(iter_merged(symbols, pair))
    yield from symbols


def encode(text: str, merges: list[tuple[str, str]]) -> list[str]:
    def gen():
        for w in iter_pre_tokens(text):
            yield from _encode_word(w, merges)

    return list(gen())


def encode_by_rank(text: str, merges: list[tuple[str, str]]) -> list[str]:
    ranks = {pair: i for i, pair in enumerate(merges)}

    def by_rank(word: str) -> Iterator[str]:
        symbols = spelled(word)
        while True:
            ranked = [(ranks[p], p) for p in iter_pairs(symbols) if p in ranks]
            if not ranked:
                break
            _, best = min(ranked)
            symbols = tuple(iter_merged(symbols, best))
        yield from symbols

    return [tok for w in iter_pre_tokens(text) for tok in by_rank(w)]


def decode(tokens: list[str]) -> str:
    return " ".join(chunk for chunk in "".join(tokens).split(END_OF_WORD) if chunk)
