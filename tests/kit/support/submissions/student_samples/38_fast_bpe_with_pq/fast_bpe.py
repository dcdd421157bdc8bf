# module: fast_bpe
"""Part 5. The priority queue is in maxheap.py (same folder)."""
from __future__ import annotations

from collections import defaultdict

from maxheap import LazyMaxHeap

END_OF_WORD = "</w>"


def _pairs(symbols):
    return list(zip(symbols, symbols[1:]))


def train_bpe(word_freqs: dict[str, int], num_merges: int) -> list[tuple[str, str]]:
    words = [list(w) + [END_OF_WORD] for w in word_freqs]
    freq = list(word_freqs.values())
    counts: dict[tuple[str, str], int] = defaultdict(int)
    where: dict[tuple[str, str], set[int]] = defaultdict(set)
    for wi, syms in enumerate(words):
        for p in _pairs(syms):
            counts[p] += freq[wi]
            where[p].add(wi)

    pq: LazyMaxHeap[tuple[str, str]] = LazyMaxHeap()
    for p, c in counts.items():
        pq.set(p, (c, p))

    merges = []
    while pq and len(merges) < num_merges:
        pair, (count, _) = pq.pop()
        if count < 2:
            break
        merges.append(pair)
        a, b = pair
        touched = set()
        for wi in sorted(where.pop(pair, ())):
            syms = words[wi]
            f = freq[wi]
            for p in _pairs(syms):
                counts[p] -= f
                touched.add(p)
            merged = []
            k = 0
            while k < len(syms):
                if syms[k] == a and k + 1 < len(syms) and syms[k + 1] == b:
                    merged.append(a + b)
                    k += 2
                else:
                    merged.append(syms[k])
                    k += 1
            words[wi] = merged
            for p in _pairs(merged):
                counts[p] += f
                where[p].add(wi)
                touched.add(p)
        touched.discard(pair)
        counts.pop(pair, None)
        for p in touched:
            if counts[p] > 0:
                if pq._priority.get(p) != (counts[p], p):
                    pq.set(p, (counts[p], p))
            else:
                del counts[p]
                pq.discard(p)
    return merges
