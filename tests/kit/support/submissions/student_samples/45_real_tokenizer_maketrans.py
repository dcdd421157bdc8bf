# module: real_tokenizer
"""Part 6. Decoding uses str.translate: each GPT-2 character maps to the latin-1 character of its byte,
so .encode("latin-1") gives the raw bytes back in one go."""
import json
import os.path
from os import makedirs

import regex

GPT2_SPLIT = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
GPT4_SPLIT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|"""
    r"""\s+(?!\S)|\s"""
)
VOCAB_FILE = "vocab.json"
MERGES_FILE = "merges.txt"


def bytes_to_unicode():
    mapping = {}
    shift = 0
    for byte in range(256):
        if 33 <= byte <= 126 or 161 <= byte <= 172 or 174 <= byte <= 255:
            mapping[byte] = chr(byte)
        else:
            mapping[byte] = chr(256 + shift)
            shift += 1
    return mapping


_TO_LATIN1 = str.maketrans({ch: chr(b) for b, ch in bytes_to_unicode().items()})
_FROM_LATIN1 = str.maketrans({chr(b): ch for b, ch in bytes_to_unicode().items()})


def load(folder):
    with open(os.path.join(folder, VOCAB_FILE), encoding="utf-8") as handle:
        vocab = json.load(handle)
    with open(os.path.join(folder, MERGES_FILE), encoding="utf-8") as handle:
        rows = handle.read().split("\n")
    merges = []
    for number, row in enumerate(rows):
        if number == 0 and row.startswith("#version"):
            continue
        if row:
            left, _, right = row.partition(" ")
            merges.append((left, right))
    return vocab, merges


def save(folder, vocab, merges):
    makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, VOCAB_FILE), "w", encoding="utf-8") as handle:
        handle.write(json.dumps(vocab, ensure_ascii=False))
    with open(os.path.join(folder, MERGES_FILE), "w", encoding="utf-8") as handle:
        handle.write("#version: 0.2\n")
        for left, right in merges:
            handle.write(f"{left} {right}\n")


def _spell(piece):
    # bytes -> latin-1 string has one char per byte; translate to GPT-2's printable chars
    return piece.encode("utf-8").decode("latin-1").translate(_FROM_LATIN1)


def _bpe(word, ranks):
    parts = list(word)
    while len(parts) > 1:
        candidates = {p: ranks[p] for p in zip(parts, parts[1:]) if p in ranks}
        if not candidates:
            break
        first, second = min(candidates, key=candidates.__getitem__)
        merged = []
        i = 0
        while i < len(parts):
            if parts[i] == first and i + 1 < len(parts) and parts[i + 1] == second:
                merged.append(first + second)
                i += 2
            else:
                merged.append(parts[i])
                i += 1
        parts = merged
    return parts


def _stretches(text, special_tokens):
    if not special_tokens:
        return [(text, False)] if text else []
    ordered = sorted(special_tokens, key=len, reverse=True)
    out = []
    for i, s in enumerate(regex.split("(" + "|".join(regex.escape(t) for t in ordered) + ")", text)):
        if s:
            out.append((s, bool(i % 2)))
    return out


def encode(text, vocab, merges, pattern=GPT2_SPLIT, special_tokens=()):
    ranks = {}
    for rank, pair in enumerate(merges):
        if tuple(pair) not in ranks:
            ranks[tuple(pair)] = rank
    out = []
    for stretch, special in _stretches(text, special_tokens):
        if special:
            out.append(vocab[stretch])
        else:
            for piece in regex.finditer(pattern, stretch):
                out.extend(vocab[tok] for tok in _bpe(_spell(piece.group()), ranks))
    return out


def decode(ids, vocab):
    inverse = {idx: tok for tok, idx in vocab.items()}
    joined = "".join(inverse[i] for i in ids)
    return joined.translate(_TO_LATIN1).encode("latin-1").decode("utf-8", errors="replace")
