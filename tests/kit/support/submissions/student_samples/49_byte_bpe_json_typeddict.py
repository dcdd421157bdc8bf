# module: byte_bpe
"""Part 4, plus saving merges to JSON so I can reload a trained tokenizer in the next notebook."""
from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import TypedDict

import regex

BYTE_VALUES = 256
GPT2_SPLIT_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""

Merges = dict[tuple[int, int], int]


class SavedModel(TypedDict):
    merges: list[list[int]]  # [left, right, new_id]
    special_tokens: dict[str, int]


def get_pair_counts(ids: list[int]) -> Counter[tuple[int, int]]:
    return Counter(zip(ids, ids[1:]))


def merge_pair(ids: list[int], pair: tuple[int, int], new_id: int) -> list[int]:
    out = []
    i = 0
    while i < len(ids):
        if (ids[i], ids[i + 1] if i + 1 < len(ids) else -1) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def _loop(pieces: list[list[int]], vocab_size: int) -> Merges:
    if vocab_size < BYTE_VALUES:
        raise ValueError(f"vocab_size {vocab_size} < {BYTE_VALUES}: no room for the single bytes")
    merges: Merges = {}
    for new_id in range(BYTE_VALUES, vocab_size):
        counts: Counter[tuple[int, int]] = Counter()
        for piece in pieces:
            counts.update(get_pair_counts(piece))
        if not counts:
            break
        pair = max(counts, key=counts.get)
        if counts[pair] < 2:
            break
        merges[pair] = new_id
        pieces = [merge_pair(p, pair, new_id) if len(p) > 1 else p for p in pieces]
    return merges


def train_bpe(text: str, vocab_size: int) -> Merges:
    return _loop([list(text.encode("utf-8"))], vocab_size)


def train_on_pieces(text: str, vocab_size: int) -> Merges:
    return _loop([list(p.encode("utf-8")) for p in regex.findall(GPT2_SPLIT_PATTERN, text)], vocab_size)


def encode(text: str, merges: Merges) -> list[int]:
    ids = list(text.encode("utf-8"))
    for pair, new_id in sorted(merges.items(), key=lambda kv: kv[1]):
        ids = merge_pair(ids, pair, new_id)
    return ids


def _id_bytes(merges: Merges) -> dict[int, bytes]:
    table = {i: bytes((i,)) for i in range(BYTE_VALUES)}
    for (a, b), new_id in sorted(merges.items(), key=lambda kv: kv[1]):
        table[new_id] = table[a] + table[b]
    return table


def decode(ids: list[int], merges: Merges) -> str:
    t = _id_bytes(merges)
    return b"".join(t[i] for i in ids).decode("utf-8", errors="replace")


def encode_with_specials(text: str, merges: Merges, special_tokens: dict[str, int]) -> list[int]:
    if not special_tokens:
        chunks = [text]
    else:
        alternation = "|".join(regex.escape(t) for t in sorted(special_tokens, key=len, reverse=True))
        chunks = regex.split(f"({alternation})", text)
    ids: list[int] = []
    for i, chunk in enumerate(chunks):
        if i % 2:
            ids.append(special_tokens[chunk])
        else:
            for piece in regex.findall(GPT2_SPLIT_PATTERN, chunk):
                ids.extend(encode(piece, merges))
    return ids


def decode_with_specials(ids: list[int], merges: Merges, special_tokens: dict[str, int]) -> str:
    t = _id_bytes(merges)
    t.update((i, s.encode("utf-8")) for s, i in special_tokens.items())
    return b"".join(t[i] for i in ids).decode("utf-8", errors="replace")


def save_model(path: str | os.PathLike, merges: Merges, special_tokens: dict[str, int] | None = None) -> None:
    data: SavedModel = {
        "merges": [[a, b, n] for (a, b), n in sorted(merges.items(), key=lambda kv: kv[1])],
        "special_tokens": dict(special_tokens or {}),
    }
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(data, indent=1), encoding="utf-8")


def load_model(path: str | os.PathLike) -> tuple[Merges, dict[str, int]]:
    data: SavedModel = json.loads(Path(path).read_text(encoding="utf-8"))
    return {(a, b): n for a, b, n in data["merges"]}, data["special_tokens"]


if __name__ == "__main__":
    import tempfile

    m = train_on_pieces("the cat and the hat and the bat", 280)
    with tempfile.TemporaryDirectory() as d:
        save_model(os.path.join(d, "model", "bpe.json"), m, {"<|endoftext|>": 280})
        m2, sp = load_model(os.path.join(d, "model", "bpe.json"))
    assert m2 == m
    print(encode_with_specials("the cat<|endoftext|>", m2, sp))
