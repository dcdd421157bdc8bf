"""The slow way to train GPT-2's byte-level BPE: every pair counted again before each merge.

The public suite's yardstick for ``train_bytes`` (its answers on small texts, its time and its memory), shipped
with the release. It lives in a module of its own, importing only what it needs, so that its memory can be
measured as a hand-in's is: a process of its own imports it and makes the call (``memory_growth.growth_of``).
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import regex

from autograder.testing.tokenizer_files import GPT2_SPLIT

Pair = tuple[bytes, bytes]


def recount(text: str, vocab_size: int, specials: tuple[str, ...]) -> tuple[dict[int, bytes], list[Pair]]:
    """The contract, slowly: every pair counted again before each merge."""
    cut = "|".join(regex.escape(token) for token in sorted(specials, key=len, reverse=True))
    stretches = regex.split(cut, text) if specials else [text]
    pieces = Counter(piece for stretch in stretches for piece in regex.findall(GPT2_SPLIT, stretch))
    words = {tuple(bytes([byte]) for byte in piece.encode()): count for piece, count in pieces.items()}
    merges: list[Pair] = []
    while len(merges) < vocab_size - 256 - len(specials):
        seen: Counter[Pair] = Counter()
        for word, count in words.items():
            for pair in pairwise(word):
                seen[pair] += count
        best = max(seen, key=lambda pair: (seen[pair], pair), default=None)
        if best is None or seen[best] < 2:
            break
        merges += [best]
        words = {joined(word, best): count for word, count in words.items()}
    tokens = [bytes([byte]) for byte in range(256)] + [a + b for a, b in merges] + [s.encode() for s in specials]
    return dict(enumerate(tokens)), merges


def joined(word: tuple[bytes, ...], chosen: Pair) -> tuple[bytes, ...]:
    """``word`` with each occurrence of ``chosen`` made one token, left to right."""
    out: list[bytes] = []
    at = 0
    while at < len(word):
        width = 2 if word[at : at + 2] == chosen else 1
        out.append(b"".join(word[at : at + width]))
        at += width
    return tuple(out)
