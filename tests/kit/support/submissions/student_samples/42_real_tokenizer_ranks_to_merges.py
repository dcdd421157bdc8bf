# module: real_tokenizer
"""Part 6 including the GPT-4 step: recovering merges from tiktoken-style ranks.

The piece merger uses a doubly linked list and a heap (like tiktoken's Rust code
does, roughly) instead of rebuilding the list every round.
"""
from __future__ import annotations

import heapq
import json
import os
from functools import lru_cache

import regex

GPT2_SPLIT = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
GPT4_SPLIT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|"""
    r"""\s+(?!\S)|\s"""
)
VOCAB_FILE = "vocab.json"
MERGES_FILE = "merges.txt"
MERGES_HEADER = "#version: 0.2"


@lru_cache(maxsize=1)
def _table() -> tuple[tuple[int, str], ...]:
    direct = [*range(33, 127), *range(161, 173), *range(174, 256)]
    out = {}
    extra = 0
    for b in range(256):
        if b in direct:
            out[b] = chr(b)
        else:
            out[b] = chr(256 + extra)
            extra += 1
    return tuple(out.items())


def bytes_to_unicode() -> dict[int, str]:
    return dict(_table())


def load(folder):
    with open(os.path.join(folder, VOCAB_FILE), encoding="utf-8") as f:
        vocab = json.load(f)
    with open(os.path.join(folder, MERGES_FILE), encoding="utf-8") as f:
        text = f.read()
    lines = text.split("\n")
    if lines and lines[0].startswith("#version"):
        del lines[0]
    merges = [tuple(line.split(" ")) for line in lines if line]
    return vocab, merges


def save(folder, vocab, merges):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, VOCAB_FILE), "w", encoding="utf-8") as f:
        json.dump(vocab, f, ensure_ascii=False)
    with open(os.path.join(folder, MERGES_FILE), "w", encoding="utf-8") as f:
        f.write("\n".join([MERGES_HEADER, *(f"{a} {b}" for a, b in merges)]) + "\n")


def merge_by_rank(symbols: list[str], ranks: dict[tuple[str, str], int]) -> list[str]:
    """Lowest-rank pair first, all its occurrences left to right, until no pair is a merge."""
    n = len(symbols)
    if n < 2:
        return list(symbols)
    tok = list(symbols)
    nxt = list(range(1, n)) + [-1]
    prv = [-1] + list(range(n - 1))
    alive = [True] * n
    heap = []
    for i in range(n - 1):
        r = ranks.get((tok[i], tok[i + 1]))
        if r is not None:
            heap.append((r, i, tok[i], tok[i + 1]))
    heapq.heapify(heap)
    while heap:
        r, i, a, b = heapq.heappop(heap)
        j = nxt[i] if alive[i] else -1
        if j == -1 or tok[i] != a or tok[j] != b:
            continue  # stale
        # merge i and j
        tok[i] = a + b
        alive[j] = False
        nxt[i] = nxt[j]
        if nxt[j] != -1:
            prv[nxt[j]] = i
        p = prv[i]
        if p != -1:
            rr = ranks.get((tok[p], tok[i]))
            if rr is not None:
                heapq.heappush(heap, (rr, p, tok[p], tok[i]))
        q = nxt[i]
        if q != -1:
            rr = ranks.get((tok[i], tok[q]))
            if rr is not None:
                heapq.heappush(heap, (rr, i, tok[i], tok[q]))
    out = []
    i = 0
    while i != -1:
        out.append(tok[i])
        i = nxt[i]
    return out


def cut_special_tokens(text: str, special_tokens) -> list[str]:
    if not special_tokens:
        return [text] if text else []
    pat = "|".join(regex.escape(s) for s in sorted(special_tokens, key=len, reverse=True))
    return [s for s in regex.split(f"({pat})", text) if s]


def encode(text, vocab, merges, pattern=GPT2_SPLIT, special_tokens=()):
    ranks = {}
    for r, m in enumerate(merges):
        ranks.setdefault(tuple(m), r)
    enc = bytes_to_unicode()
    specials = frozenset(special_tokens)
    splitter = regex.compile(pattern)
    result = []
    for stretch in cut_special_tokens(text, special_tokens):
        if stretch in specials:
            result.append(vocab[stretch])
            continue
        for piece in splitter.findall(stretch):
            symbols = [enc[b] for b in piece.encode("utf-8")]
            result += [vocab[t] for t in merge_by_rank(symbols, ranks)]
    return result


def decode(ids, vocab):
    inv = {v: k for k, v in vocab.items()}
    dec = {c: b for b, c in bytes_to_unicode().items()}
    return bytes([dec[c] for i in ids for c in inv[i]]).decode("utf-8", errors="replace")


def _bpe_bytes(token: bytes, ranks: dict[bytes, int], max_rank: int) -> list[bytes]:
    parts = [bytes([b]) for b in token]
    while True:
        best = None
        best_rank = None
        for i in range(len(parts) - 1):
            r = ranks.get(parts[i] + parts[i + 1])
            if r is not None and r < max_rank and (best_rank is None or r < best_rank):
                best, best_rank = i, r
        if best is None:
            return parts
        parts = parts[:best] + [parts[best] + parts[best + 1]] + parts[best + 2 :]


def merges_from_ranks(mergeable_ranks: dict[bytes, int]) -> tuple[dict[str, int], list[tuple[str, str]]]:
    """GPT-2-style (vocab, merges) from tiktoken's {token bytes: rank}."""
    enc = bytes_to_unicode()

    def spell(b: bytes) -> str:
        return "".join(enc[x] for x in b)

    vocab: dict[str, int] = {}
    merges: list[tuple[str, str]] = []
    for token, rank in sorted(mergeable_ranks.items(), key=lambda kv: kv[1]):
        vocab[spell(token)] = rank
        if len(token) == 1:
            continue
        pieces = _bpe_bytes(token, mergeable_ranks, rank)
        if len(pieces) != 2:
            raise ValueError(f"token {token!r} (rank {rank}) is not the merge of two lower tokens: {pieces}")
        merges.append((spell(pieces[0]), spell(pieces[1])))
    return vocab, merges
