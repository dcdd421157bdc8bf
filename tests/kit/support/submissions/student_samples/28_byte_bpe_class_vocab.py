# module: byte_bpe
"""Part 4. A ByteVocab class caches id -> bytes so decode doesn't rebuild it every time."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import regex

BYTE_VALUES = 256
GPT2_SPLIT_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


class ByteVocab(Mapping):
    """Read-only mapping from id to the bytes it stands for."""

    def __init__(self, merges: Mapping[tuple[int, int], int], specials: Mapping[str, int] | None = None):
        self._merges = dict(merges)
        self._specials = dict(specials or {})
        self._cache: dict[int, bytes] | None = None

    def _build(self) -> dict[int, bytes]:
        if self._cache is None:
            table = {b: bytes([b]) for b in range(BYTE_VALUES)}
            for (left, right), new_id in sorted(self._merges.items(), key=lambda kv: kv[1]):
                table[new_id] = table[left] + table[right]
            for tok, idx in self._specials.items():
                table[idx] = tok.encode("utf-8")
            self._cache = table
        return self._cache

    def __getitem__(self, idx: int) -> bytes:
        return self._build()[idx]

    def __iter__(self):
        return iter(self._build())

    def __len__(self) -> int:
        return len(self._build())

    def __repr__(self) -> str:
        return f"ByteVocab({len(self._merges)} merges, {len(self._specials)} specials)"

    def decode(self, ids: list[int]) -> str:
        return b"".join(self[i] for i in ids).decode("utf-8", errors="replace")


def get_pair_counts(ids: list[int]) -> Counter[tuple[int, int]]:
    counts: Counter[tuple[int, int]] = Counter()
    for pair in zip(ids, ids[1:]):
        counts[pair] += 1
    return counts


def merge_pair(ids: list[int], pair: tuple[int, int], new_id: int) -> list[int]:
    result = []
    skip = False
    for a, b in zip(ids, ids[1:] + [None]):
        if skip:
            skip = False
            continue
        if (a, b) == pair:
            result.append(new_id)
            skip = True
        else:
            result.append(a)
    return result


def _pieces_pair_counts(pieces: list[list[int]]) -> Counter[tuple[int, int]]:
    total: Counter[tuple[int, int]] = Counter()
    for p in pieces:
        total.update(get_pair_counts(p))
    return total


def _train(pieces: list[list[int]], vocab_size: int) -> dict[tuple[int, int], int]:
    if vocab_size < BYTE_VALUES:
        raise ValueError("vocab_size below 256 cannot hold the byte values themselves")
    merges: dict[tuple[int, int], int] = {}
    next_id = BYTE_VALUES
    while next_id < vocab_size:
        counts = _pieces_pair_counts(pieces)
        if not counts:
            break
        pair, count = counts.most_common(1)[0]
        if count < 2:
            break
        pieces = [merge_pair(p, pair, next_id) for p in pieces]
        merges[pair] = next_id
        next_id += 1
    return merges


def train_bpe(text: str, vocab_size: int) -> dict[tuple[int, int], int]:
    return _train([list(text.encode("utf-8"))], vocab_size)


def train_on_pieces(text: str, vocab_size: int) -> dict[tuple[int, int], int]:
    return _train([list(p.encode("utf-8")) for p in regex.findall(GPT2_SPLIT_PATTERN, text)], vocab_size)


def encode(text: str, merges: dict[tuple[int, int], int]) -> list[int]:
    ids = list(text.encode("utf-8"))
    for pair, new_id in sorted(merges.items(), key=lambda kv: kv[1]):
        ids = merge_pair(ids, pair, new_id)
    return ids


def decode(ids: list[int], merges: dict[tuple[int, int], int]) -> str:
    return ByteVocab(merges).decode(ids)


def encode_with_specials(text, merges, special_tokens):
    out: list[int] = []
    if special_tokens:
        alt = "|".join(map(regex.escape, sorted(special_tokens, key=len, reverse=True)))
        chunks = regex.split(f"({alt})", text)
    else:
        chunks = [text]
    for chunk in chunks:
        if not chunk:
            continue
        if chunk in special_tokens:
            out.append(special_tokens[chunk])
        else:
            for piece in regex.findall(GPT2_SPLIT_PATTERN, chunk):
                out += encode(piece, merges)
    return out


def decode_with_specials(ids, merges, special_tokens):
    return ByteVocab(merges, special_tokens).decode(ids)
