"""A max-priority queue with lazy deletion, on top of heapq."""
from __future__ import annotations

import heapq
from typing import Generic, Hashable, TypeVar

K = TypeVar("K", bound=Hashable)


class _Rev:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __lt__(self, other):
        return self.value > other.value

    def __eq__(self, other):
        return self.value == other.value


class LazyMaxHeap(Generic[K]):
    """Keeps the current priority of each key; stale heap entries are skipped on pop."""

    def __init__(self) -> None:
        self._heap: list[tuple[_Rev, K]] = []
        self._priority: dict[K, object] = {}

    def set(self, key: K, priority) -> None:
        self._priority[key] = priority
        heapq.heappush(self._heap, (_Rev(priority), key))

    def discard(self, key: K) -> None:
        self._priority.pop(key, None)

    def pop(self):
        while self._heap:
            rev, key = heapq.heappop(self._heap)
            if self._priority.get(key) == rev.value:
                del self._priority[key]
                return key, rev.value
        raise IndexError("pop from empty heap")

    def __len__(self) -> int:
        return len(self._priority)

    def __bool__(self) -> bool:
        return bool(self._priority)
