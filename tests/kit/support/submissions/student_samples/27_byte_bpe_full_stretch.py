# module: byte_bpe
"""Part 4 including the stretch (pre-split and special tokens)."""
from __future__ import annotations

from collections import Counter

import regex

BYTE_VALUES = 256
GPT2_SPLIT_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
_SPLIT = regex.compile(GPT2_SPLIT_PATTERN)


def get_pair_counts(ids: list[int]) -> Counter[tuple[int, int]]:
    return Counter(zip(ids, ids[1:]))


def merge_pair(ids: list[int], pair: tuple[int, int], new_id: int) -> list[int]:
    out: list[int] = []
    i = 0
    n = len(ids)
    while i < n:
        if i < n - 1 and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def _check_size(vocab_size: int) -> None:
    if vocab_size < BYTE_VALUES:
        raise ValueError(f"vocab_size={vocab_size} cannot hold the {BYTE_VALUES} byte values")


def train_bpe(text: str, vocab_size: int) -> dict[tuple[int, int], int]:
    _check_size(vocab_size)
    ids = list(text.encode("utf-8"))
    merges: dict[tuple[int, int], int] = {}
    for i in range(vocab_size - BYTE_VALUES):
        stats = get_pair_counts(ids)
        if not stats:
            break
        best = max(stats, key=stats.get)
        if stats[best] < 2:
            break
        idx = BYTE_VALUES + i
        ids = merge_pair(ids, best, idx)
        merges[best] = idx
    return merges


def _ordered(merges: dict[tuple[int, int], int]) -> list[tuple[tuple[int, int], int]]:
    return sorted(merges.items(), key=lambda item: item[1])


def encode(text: str, merges: dict[tuple[int, int], int]) -> list[int]:
    ids = list(text.encode("utf-8"))
    for pair, idx in _ordered(merges):
        if len(ids) < 2:
            break
        ids = merge_pair(ids, pair, idx)
    return ids


def _byte_table(merges: dict[tuple[int, int], int]) -> dict[int, bytes]:
    table = {i: bytes([i]) for i in range(BYTE_VALUES)}
    for (a, b), idx in _ordered(merges):
        table[idx] = table[a] + table[b]
    return table


def decode(ids: list[int], merges: dict[tuple[int, int], int]) -> str:
    table = _byte_table(merges)
    return b"".join(table[i] for i in ids).decode("utf-8", errors="replace")


def train_on_pieces(text: str, vocab_size: int) -> dict[tuple[int, int], int]:
    _check_size(vocab_size)
    pieces = [list(p.encode("utf-8")) for p in _SPLIT.findall(text)]
    merges: dict[tuple[int, int], int] = {}
    for i in range(vocab_size - BYTE_VALUES):
        stats: Counter[tuple[int, int]] = Counter()
        for piece in pieces:
            stats.update(zip(piece, piece[1:]))
        if not stats:
            break
        best, count = stats.most_common(1)[0]
        if count < 2:
            break
        idx = BYTE_VALUES + i
        pieces = [merge_pair(p, best, idx) for p in pieces]
        merges[best] = idx
    return merges


def _split_specials(text: str, special_tokens: dict[str, int]) -> list[str]:
    if not special_tokens:
        return [text] if text else []
    alternatives = sorted(special_tokens, key=len, reverse=True)
    pattern = "(" + "|".join(regex.escape(s) for s in alternatives) + ")"
    return [part for part in regex.split(pattern, text) if part]


def encode_with_specials(
    text: str, merges: dict[tuple[int, int], int], special_tokens: dict[str, int]
) -> list[int]:
    ids: list[int] = []
    for part in _split_specials(text, special_tokens):
        if part in special_tokens:
            ids.append(special_tokens[part])
            continue
        for piece in _SPLIT.findall(part):
            ids.extend(encode(piece, merges))
    return ids


def decode_with_specials(
    ids: list[int], merges: dict[tuple[int, int], int], special_tokens: dict[str, int]
) -> str:
    table = _byte_table(merges)
    for token, idx in special_tokens.items():
        table[idx] = token.encode("utf-8")
    return b"".join(table[i] for i in ids).decode("utf-8", errors="replace")


if __name__ == "__main__":
    m = train_on_pieces("hello hello hello world world", 270)
    s = "hello<|endoftext|>world"
    ids = encode_with_specials(s, m, {"<|endoftext|>": 50256})
    print(ids)
    print(decode_with_specials(ids, m, {"<|endoftext|>": 50256}))
