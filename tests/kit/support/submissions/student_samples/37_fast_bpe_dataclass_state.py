# module: fast_bpe
"""Part 5 with the trainer's state in a dataclass. Heap entries carry a version number to detect staleness."""
from __future__ import annotations

import heapq
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import total_ordering

END_OF_WORD = "</w>"
Pair = tuple[str, str]


@total_ordering
@dataclass(frozen=True)
class Entry:
    """Heap entry; 'smaller' means 'should be merged first'."""

    count: int
    pair: Pair
    version: int = field(compare=False)

    def __lt__(self, other: "Entry") -> bool:
        return (self.count, self.pair) > (other.count, other.pair)


@dataclass
class TrainerState:
    symbols: list[list[str]]
    freqs: list[int]
    counts: Counter = field(default_factory=Counter)
    holders: defaultdict = field(default_factory=lambda: defaultdict(set))
    versions: defaultdict = field(default_factory=lambda: defaultdict(int))
    heap: list[Entry] = field(default_factory=list)

    @classmethod
    def from_words(cls, word_freqs: dict[str, int]) -> "TrainerState":
        state = cls([[*w, END_OF_WORD] for w in word_freqs], list(word_freqs.values()))
        for i, syms in enumerate(state.symbols):
            for p in zip(syms, syms[1:]):
                state.counts[p] += state.freqs[i]
                state.holders[p].add(i)
        state.heap = [Entry(c, p, 0) for p, c in state.counts.items()]
        heapq.heapify(state.heap)
        return state

    def push(self, pair: Pair) -> None:
        self.versions[pair] += 1
        c = self.counts[pair]
        if c > 0:
            heapq.heappush(self.heap, Entry(c, pair, self.versions[pair]))

    def pop_best(self) -> Entry | None:
        while self.heap:
            e = heapq.heappop(self.heap)
            if e.version == self.versions[e.pair]:
                return e
        return None

    def apply(self, pair: Pair) -> None:
        joined = pair[0] + pair[1]
        changed: set[Pair] = set()
        for i in self.holders.pop(pair, set()):
            old, f = self.symbols[i], self.freqs[i]
            new: list[str] = []
            j = 0
            while j < len(old):
                if j + 1 < len(old) and old[j] == pair[0] and old[j + 1] == pair[1]:
                    new.append(joined)
                    j += 2
                else:
                    new.append(old[j])
                    j += 1
            before = Counter(zip(old, old[1:]))
            after = Counter(zip(new, new[1:]))
            for p, n in (after - before).items():
                self.counts[p] += n * f
                self.holders[p].add(i)
                changed.add(p)
            for p, n in (before - after).items():
                self.counts[p] -= n * f
                changed.add(p)
            self.symbols[i] = new
        for p in changed:
            self.push(p)


def train_bpe(word_freqs: dict[str, int], num_merges: int) -> list[tuple[str, str]]:
    state = TrainerState.from_words(word_freqs)
    merges: list[Pair] = []
    while len(merges) < num_merges:
        best = state.pop_best()
        if best is None or best.count < 2:
            break
        merges.append(best.pair)
        state.apply(best.pair)
    return merges


def _naive(word_freqs, num_merges):
    words = {tuple(w) + (END_OF_WORD,): f for w, f in word_freqs.items()}
    merges = []
    for _ in range(num_merges):
        counts = Counter()
        for w, f in words.items():
            for p in zip(w, w[1:]):
                counts[p] += f
        if not counts:
            break
        best = max(counts, key=lambda p: (counts[p], p))
        if counts[best] < 2:
            break
        merges.append(best)
        new = {}
        for w, f in words.items():
            out, i = [], 0
            while i < len(w):
                if w[i : i + 2] == best:
                    out.append(best[0] + best[1])
                    i += 2
                else:
                    out.append(w[i])
                    i += 1
            new[tuple(out)] = new.get(tuple(out), 0) + f
        words = new
    return merges


if __name__ == "__main__":
    import random

    random.seed(7)
    letters = "etaoinshrdlu"
    table = Counter("".join(random.choices(letters, k=random.randint(1, 9))) for _ in range(3000))
    t = time.perf_counter()
    fast = train_bpe(dict(table), 300)
    t_fast = time.perf_counter() - t
    t = time.perf_counter()
    slow = _naive(dict(table), 300)
    t_slow = time.perf_counter() - t
    print(f"same={fast == slow} speedup={t_slow / t_fast:.1f}x", file=sys.stderr)
