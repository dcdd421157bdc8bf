"""Shared bits: pair counting and merging on lists of ints."""
from __future__ import annotations

from collections import Counter
from typing import TypeVar

T = TypeVar("T")


def pair_counts(seq: list[T]) -> Counter[tuple[T, T]]:
    return Counter(zip(seq, seq[1:]))


def merge(seq: list[T], pair: tuple[T, T], new: T) -> list[T]:
    out: list[T] = []
    i = 0
    while i < len(seq):
        if i + 1 < len(seq) and seq[i] == pair[0] and seq[i + 1] == pair[1]:
            out.append(new)
            i += 2
        else:
            out.append(seq[i])
            i += 1
    return out


def best_pair(counts: Counter) -> tuple | None:
    """Most frequent pair, or None when nothing occurs twice."""
    if not counts:
        return None
    pair, n = counts.most_common(1)[0]
    return pair if n >= 2 else None
