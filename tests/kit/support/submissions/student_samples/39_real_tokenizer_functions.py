# module: real_tokenizer
"""Part 6 - GPT-2's files, read and used."""
from __future__ import annotations

import json
import os

import regex

GPT2_SPLIT = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
GPT4_SPLIT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|"""
    r"""\s+(?!\S)|\s"""
)
VOCAB_FILE = "vocab.json"
MERGES_FILE = "merges.txt"
MERGES_HEADER = "#version: 0.2"


def bytes_to_unicode() -> dict[int, str]:
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    table = {}
    n = 0
    for b in range(256):
        if b in keep:
            table[b] = chr(b)
        else:
            table[b] = chr(256 + n)
            n += 1
    return table


def load(folder):
    with open(os.path.join(folder, VOCAB_FILE), encoding="utf-8") as f:
        vocab = json.load(f)
    with open(os.path.join(folder, MERGES_FILE), encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[0].startswith("#version"):
        lines = lines[1:]
    merges = []
    for line in lines:
        if not line:
            continue
        a, b = line.split(" ")
        merges.append((a, b))
    return vocab, merges


def save(folder, vocab, merges):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, VOCAB_FILE), "w", encoding="utf-8") as f:
        json.dump(vocab, f, ensure_ascii=False)
    with open(os.path.join(folder, MERGES_FILE), "w", encoding="utf-8") as f:
        f.write(MERGES_HEADER + "\n")
        for a, b in merges:
            f.write(f"{a} {b}\n")


def split_specials(text, special_tokens):
    """Stretches of text and special tokens, in order, no empty ones."""
    if not special_tokens:
        return [text] if text else []
    alternatives = sorted(special_tokens, key=len, reverse=True)
    pattern = "(" + "|".join(regex.escape(t) for t in alternatives) + ")"
    return [part for part in regex.split(pattern, text) if part]


def bpe_by_rank(symbols, ranks):
    symbols = list(symbols)
    while len(symbols) > 1:
        best = min(zip(symbols, symbols[1:]), key=lambda p: ranks.get(p, float("inf")))
        if best not in ranks:
            break
        merged = []
        i = 0
        while i < len(symbols):
            if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == best:
                merged.append(symbols[i] + symbols[i + 1])
                i += 2
            else:
                merged.append(symbols[i])
                i += 1
        symbols = merged
    return symbols


def encode(text, vocab, merges, pattern=GPT2_SPLIT, special_tokens=()):
    table = bytes_to_unicode()
    ranks = {tuple(m): i for i, m in reversed(list(enumerate(merges)))}
    specials = set(special_tokens)
    ids = []
    for part in split_specials(text, special_tokens):
        if part in specials:
            ids.append(vocab[part])
            continue
        for piece in regex.findall(pattern, part):
            symbols = [table[b] for b in piece.encode("utf-8")]
            ids.extend(vocab[tok] for tok in bpe_by_rank(symbols, ranks))
    return ids


def decode(ids, vocab):
    inverse = {i: t for t, i in vocab.items()}
    byte_of = {c: b for b, c in bytes_to_unicode().items()}
    text = "".join(inverse[i] for i in ids)
    return bytes(byte_of[c] for c in text).decode("utf-8", errors="replace")
