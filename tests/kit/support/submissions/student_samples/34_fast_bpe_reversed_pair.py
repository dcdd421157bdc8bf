# module: fast_bpe
"""Part 5. Heap of (-count, _Desc(pair)): _Desc flips the order so the largest pair pops first on ties."""
from __future__ import annotations

import heapq
from collections import defaultdict

END_OF_WORD = "</w>"


class _Desc:
    """Wraps a pair so that heapq (a min-heap) pops the *largest* pair first."""

    __slots__ = ("pair",)

    def __init__(self, pair: tuple[str, str]) -> None:
        self.pair = pair

    def __lt__(self, other: "_Desc") -> bool:
        return self.pair > other.pair

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Desc) and self.pair == other.pair

    def __hash__(self) -> int:
        return hash(self.pair)

    def __repr__(self) -> str:
        return f"_Desc({self.pair!r})"


def _merge(symbols: list[str], pair: tuple[str, str]) -> list[str]:
    a, b = pair
    out: list[str] = []
    i = 0
    while i < len(symbols):
        if i + 1 < len(symbols) and symbols[i] == a and symbols[i + 1] == b:
            out.append(a + b)
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return out


def train_bpe(word_freqs: dict[str, int], num_merges: int) -> list[tuple[str, str]]:
    words = [[*w, END_OF_WORD] for w in word_freqs]
    freqs = list(word_freqs.values())

    counts: defaultdict[tuple[str, str], int] = defaultdict(int)
    where: defaultdict[tuple[str, str], set[int]] = defaultdict(set)
    for idx, symbols in enumerate(words):
        for pair in zip(symbols, symbols[1:]):
            counts[pair] += freqs[idx]
            where[pair].add(idx)

    heap = [(-c, _Desc(p)) for p, c in counts.items()]
    heapq.heapify(heap)

    merges: list[tuple[str, str]] = []
    while heap and len(merges) < num_merges:
        neg, wrapped = heapq.heappop(heap)
        pair, count = wrapped.pair, -neg
        if counts.get(pair, 0) != count:
            continue  # stale entry
        if count < 2:
            break
        merges.append(pair)
        touched: set[tuple[str, str]] = set()
        for idx in where.pop(pair, ()):
            old = words[idx]
            f = freqs[idx]
            for q in zip(old, old[1:]):
                counts[q] -= f
                touched.add(q)
            new = _merge(old, pair)
            words[idx] = new
            for q in zip(new, new[1:]):
                counts[q] += f
                where[q].add(idx)
                touched.add(q)
        counts.pop(pair, None)
        for q in touched:
            c = counts.get(q, 0)
            if c > 0:
                heapq.heappush(heap, (-c, _Desc(q)))
            else:
                counts.pop(q, None)
    return merges


if __name__ == "__main__":
    print(train_bpe({"low": 5, "lower": 2, "newest": 6, "widest": 3}, 4))
