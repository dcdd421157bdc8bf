# module: byte_bpe
"""Part 4; generic helpers live in common.py."""
from __future__ import annotations

from collections import Counter

import regex

from common import best_pair, merge, pair_counts

BYTE_VALUES = 256
GPT2_SPLIT_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


class VocabTooSmall(ValueError):
    pass


def get_pair_counts(ids: list[int]) -> Counter[tuple[int, int]]:
    return pair_counts(ids)


def merge_pair(ids: list[int], pair: tuple[int, int], new_id: int) -> list[int]:
    return merge(ids, pair, new_id)


def _need(vocab_size: int) -> int:
    if vocab_size < BYTE_VALUES:
        raise VocabTooSmall(f"a vocabulary of {vocab_size} cannot hold the 256 bytes")
    return vocab_size - BYTE_VALUES


def train_bpe(text: str, vocab_size: int) -> dict[tuple[int, int], int]:
    budget = _need(vocab_size)
    ids = list(text.encode("utf-8"))
    merges: dict[tuple[int, int], int] = {}
    for i in range(budget):
        pair = best_pair(get_pair_counts(ids))
        if pair is None:
            break
        merges[pair] = BYTE_VALUES + i
        ids = merge_pair(ids, pair, BYTE_VALUES + i)
    return merges


def encode(text: str, merges: dict[tuple[int, int], int]) -> list[int]:
    ids = list(text.encode("utf-8"))
    for pair, new_id in sorted(merges.items(), key=lambda kv: kv[1]):
        ids = merge_pair(ids, pair, new_id)
    return ids


def _table(merges, special_tokens=None):
    table = [bytes([b]) for b in range(BYTE_VALUES)]
    lookup = dict(enumerate(table))
    for (a, b), new_id in sorted(merges.items(), key=lambda kv: kv[1]):
        lookup[new_id] = lookup[a] + lookup[b]
    for text, idx in (special_tokens or {}).items():
        lookup[idx] = text.encode("utf-8")
    return lookup


def decode(ids: list[int], merges: dict[tuple[int, int], int]) -> str:
    t = _table(merges)
    return b"".join(t[i] for i in ids).decode("utf-8", errors="replace")


def train_on_pieces(text: str, vocab_size: int) -> dict[tuple[int, int], int]:
    budget = _need(vocab_size)
    pieces = [list(s.encode("utf-8")) for s in regex.findall(GPT2_SPLIT_PATTERN, text)]
    merges: dict[tuple[int, int], int] = {}
    for i in range(budget):
        total: Counter[tuple[int, int]] = Counter()
        for p in pieces:
            total.update(pair_counts(p))
        pair = best_pair(total)
        if pair is None:
            break
        merges[pair] = BYTE_VALUES + i
        pieces = [merge(p, pair, BYTE_VALUES + i) for p in pieces]
    return merges


def encode_with_specials(text, merges, special_tokens):
    pieces_out: list[int] = []
    if special_tokens:
        pattern = "(" + "|".join(regex.escape(t) for t in sorted(special_tokens, key=len, reverse=True)) + ")"
        parts = regex.split(pattern, text)
    else:
        parts = [text]
    for part in filter(None, parts):
        if part in special_tokens:
            pieces_out.append(special_tokens[part])
        else:
            for piece in regex.findall(GPT2_SPLIT_PATTERN, part):
                pieces_out.extend(encode(piece, merges))
    return pieces_out


def decode_with_specials(ids, merges, special_tokens):
    t = _table(merges, special_tokens)
    return b"".join(t[i] for i in ids).decode("utf-8", errors="replace")
