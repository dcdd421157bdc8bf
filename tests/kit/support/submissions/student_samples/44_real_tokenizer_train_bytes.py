# module: real_tokenizer
"""Part 6 with the bonus train_bytes (incremental counts over distinct pieces + lazy heap)."""
from __future__ import annotations

import heapq
import json
import os
import time
from collections import Counter, defaultdict
from pathlib import Path

import regex

GPT2_SPLIT = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
GPT4_SPLIT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|"""
    r"""\s+(?!\S)|\s"""
)
VOCAB_FILE = "vocab.json"
MERGES_FILE = "merges.txt"
MERGES_HEADER = "#version: 0.2"
NO_RANK = float("inf")
BYTE_VALUES = 256


def bytes_to_unicode() -> dict[int, str]:
    bs = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    cs = list(bs)
    n = 0
    for b in range(BYTE_VALUES):
        if b not in bs:
            bs.append(b)
            cs.append(BYTE_VALUES + n)
            n += 1
    return {b: chr(c) for b, c in sorted(zip(bs, cs))}


def load(folder):
    folder = Path(folder)
    with open(folder / VOCAB_FILE, encoding="utf-8") as f:
        vocab = json.load(f)
    lines = (folder / MERGES_FILE).read_text(encoding="utf-8").split("\n")
    start = 1 if lines and lines[0].startswith("#version") else 0
    return vocab, [tuple(line.split(" ")) for line in lines[start:] if line]


def save(folder, vocab, merges):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, VOCAB_FILE), "w", encoding="utf-8") as f:
        json.dump(vocab, f, ensure_ascii=False)
    with open(os.path.join(folder, MERGES_FILE), "w", encoding="utf-8") as f:
        f.write(MERGES_HEADER + "\n")
        f.writelines(f"{a} {b}\n" for a, b in merges)


def _special_split(text, special_tokens):
    if not special_tokens:
        return [(False, text)] if text else []
    pattern = "(" + "|".join(regex.escape(t) for t in sorted(special_tokens, key=len, reverse=True)) + ")"
    return [(i % 2 == 1, part) for i, part in enumerate(regex.split(pattern, text)) if part]


def _merge_by_rank(word, ranks):
    while len(word) > 1:
        rank, pair = min((ranks.get(p, NO_RANK), p) for p in zip(word, word[1:]))
        if rank == NO_RANK:
            break
        out, i = [], 0
        while i < len(word):
            if i + 1 < len(word) and word[i] == pair[0] and word[i + 1] == pair[1]:
                out.append(word[i] + word[i + 1])
                i += 2
            else:
                out.append(word[i])
                i += 1
        word = out
    return word


def encode(text, vocab, merges, pattern=GPT2_SPLIT, special_tokens=()):
    ranks = {}
    for r, m in enumerate(merges):
        ranks.setdefault(tuple(m), r)
    table = bytes_to_unicode()
    cache: dict[str, list[int]] = {}
    ids: list[int] = []
    for special, part in _special_split(text, special_tokens):
        if special:
            ids.append(vocab[part])
            continue
        for piece in regex.findall(pattern, part):
            if piece not in cache:
                word = [table[b] for b in piece.encode("utf-8")]
                cache[piece] = [vocab[t] for t in _merge_by_rank(word, ranks)]
            ids.extend(cache[piece])
    return ids


def decode(ids, vocab):
    inv = {i: t for t, i in vocab.items()}
    back = {c: b for b, c in bytes_to_unicode().items()}
    return bytes(back[c] for i in ids for c in inv[i]).decode("utf-8", errors="replace")


class _Largest:
    """Heap key wrapper: the larger (count, pair) is 'smaller', so heapq pops it first."""

    __slots__ = ("key",)

    def __init__(self, key):
        self.key = key

    def __lt__(self, other):
        return self.key > other.key


def train_bytes(text, vocab_size, special_tokens=()):
    specials = list(dict.fromkeys(special_tokens))
    if vocab_size < BYTE_VALUES + len(specials):
        raise ValueError(f"vocab_size {vocab_size} cannot hold 256 bytes and {len(specials)} special tokens")
    budget = vocab_size - BYTE_VALUES - len(specials)

    piece_counts: Counter[str] = Counter()
    split = regex.compile(GPT2_SPLIT)
    for special, part in _special_split(text, specials):
        if not special:
            piece_counts.update(split.findall(part))

    words = [[bytes([b]) for b in piece.encode("utf-8")] for piece in piece_counts]
    freqs = list(piece_counts.values())
    del piece_counts

    counts: defaultdict[tuple[bytes, bytes], int] = defaultdict(int)
    holders: defaultdict[tuple[bytes, bytes], set[int]] = defaultdict(set)
    for w, syms in enumerate(words):
        f = freqs[w]
        for p in zip(syms, syms[1:]):
            counts[p] += f
            holders[p].add(w)
    heap = [_Largest((c, p)) for p, c in counts.items()]
    heapq.heapify(heap)

    merges: list[tuple[bytes, bytes]] = []
    while heap and len(merges) < budget:
        count, pair = heapq.heappop(heap).key
        if counts.get(pair) != count:
            continue
        if count < 2:
            break
        merges.append(pair)
        a, b = pair
        joined = a + b
        changed = set()
        for w in holders.pop(pair):
            syms, f = words[w], freqs[w]
            for p in zip(syms, syms[1:]):
                counts[p] -= f
                changed.add(p)
            new, i = [], 0
            while i < len(syms):
                if i + 1 < len(syms) and syms[i] == a and syms[i + 1] == b:
                    new.append(joined)
                    i += 2
                else:
                    new.append(syms[i])
                    i += 1
            words[w] = new
            for p in zip(new, new[1:]):
                counts[p] += f
                holders[p].add(w)
                changed.add(p)
        for p in changed:
            c = counts[p]
            if c > 0:
                heapq.heappush(heap, _Largest((c, p)))
            else:
                del counts[p]

    vocab = {i: bytes([i]) for i in range(BYTE_VALUES)}
    for a, b in merges:
        vocab[len(vocab)] = a + b
    for s in specials:
        vocab[len(vocab)] = s.encode("utf-8")
    return vocab, merges


if __name__ == "__main__":
    start = time.perf_counter()
    v, m = train_bytes("hug hug hug<|endoftext|>pug pug", 300, ["<|endoftext|>"])
    print(m, f"{time.perf_counter() - start:.4f}s")
