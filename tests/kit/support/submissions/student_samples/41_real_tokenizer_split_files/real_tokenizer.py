# module: real_tokenizer
"""Part 6. Byte tables in gpt2_bytes.py next to this file."""
import json
import os

import regex

from gpt2_bytes import byte_encoder, spell, unspell

GPT2_SPLIT = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
GPT4_SPLIT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|"""
    r"""\s+(?!\S)|\s"""
)
VOCAB_FILE = "vocab.json"
MERGES_FILE = "merges.txt"
MERGES_HEADER = "#version: 0.2"


def bytes_to_unicode():
    return byte_encoder()


def load(folder):
    with open(os.path.join(folder, VOCAB_FILE), "r", encoding="utf-8") as fh:
        vocab = json.load(fh)
    merges = []
    with open(os.path.join(folder, MERGES_FILE), "r", encoding="utf-8", newline="") as fh:
        for lineno, raw in enumerate(fh):
            line = raw.rstrip("\n")
            if lineno == 0 and line.startswith("#version"):
                continue
            if line == "":
                continue
            first, second = line.split(" ")
            merges.append((first, second))
    return vocab, merges


def save(folder, vocab, merges):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, VOCAB_FILE), "w", encoding="utf-8") as fh:
        json.dump(vocab, fh, ensure_ascii=False, indent=0)
    with open(os.path.join(folder, MERGES_FILE), "w", encoding="utf-8", newline="\n") as fh:
        print(MERGES_HEADER, file=fh)
        for first, second in merges:
            print(first, second, file=fh)


def cut_specials(text, special_tokens):
    """Yield (is_special, stretch) for each non-empty stretch."""
    if not special_tokens:
        if text:
            yield False, text
        return
    longest_first = sorted(set(special_tokens), key=lambda s: -len(s))
    parts = regex.split("(" + "|".join(regex.escape(s) for s in longest_first) + ")", text)
    for i, part in enumerate(parts):
        if part:
            yield i % 2 == 1, part


def merge_piece(symbols, ranks):
    word = list(symbols)
    while True:
        ranked = [(ranks[p], p) for p in zip(word, word[1:]) if p in ranks]
        if not ranked:
            return word
        _, (a, b) = min(ranked)
        out = []
        i = 0
        while i < len(word):
            if word[i] == a and i + 1 < len(word) and word[i + 1] == b:
                out.append(a + b)
                i += 2
            else:
                out.append(word[i])
                i += 1
        word = out


def encode(text, vocab, merges, pattern=GPT2_SPLIT, special_tokens=()):
    ranks = {}
    for r, (a, b) in enumerate(merges):
        ranks.setdefault((a, b), r)
    compiled = regex.compile(pattern)
    ids = []
    for is_special, stretch in cut_specials(text, special_tokens):
        if is_special:
            ids.append(vocab[stretch])
        else:
            for piece in compiled.findall(stretch):
                for token in merge_piece(spell(piece.encode("utf-8")), ranks):
                    ids.append(vocab[token])
    return ids


def decode(ids, vocab):
    id_to_token = {i: t for t, i in vocab.items()}
    return unspell("".join(id_to_token[i] for i in ids)).decode("utf-8", errors="replace")
