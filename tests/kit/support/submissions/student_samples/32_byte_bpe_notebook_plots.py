# module: byte_bpe
# Part 4 notebook, exported. Prints a small compression table at the end.
import math
import os
import time
from collections import Counter

import regex

BYTE_VALUES = 256
GPT2_SPLIT_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def get_pair_counts(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return Counter(counts)


def merge_pair(ids, pair, new_id):
    new_ids = []
    i = 0
    while i < len(ids):
        if ids[i] == pair[0] and i < len(ids) - 1 and ids[i + 1] == pair[1]:
            new_ids.append(new_id)
            i += 2
        else:
            new_ids.append(ids[i])
            i += 1
    return new_ids


def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("vocab_size must be >= 256")
    ids = list(text.encode("utf-8"))
    merges = {}
    num_merges = vocab_size - 256
    for i in range(num_merges):
        stats = get_pair_counts(ids)
        if not stats:
            break
        top = max(stats, key=stats.get)
        if stats[top] < 2:
            break
        idx = 256 + i
        ids = merge_pair(ids, top, idx)
        merges[top] = idx
    return merges


def encode(text, merges):
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        stats = get_pair_counts(ids)
        # Karpathy-style: apply the earliest learned merge that occurs
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        ids = merge_pair(ids, pair, merges[pair])
    return ids


def decode(ids, merges):
    vocab = {idx: bytes([idx]) for idx in range(256)}
    for (p0, p1), idx in sorted(merges.items(), key=lambda x: x[1]):
        vocab[idx] = vocab[p0] + vocab[p1]
    return b"".join(vocab[idx] for idx in ids).decode("utf-8", errors="replace")


text = "aaabdaaabac"
merges = train_bpe(text, vocab_size=259)
print(merges)
print(encode(text, merges))
print(decode([258, 100], merges))

data_file = os.path.join("data", "shakespeare.txt")
if os.path.exists(data_file):
    with open(data_file, encoding="utf-8") as fh:
        corpus = fh.read()[:20000]
else:
    corpus = "All the world's a stage, and all the men and women merely players. " * 40

for size in (256, 300, 400):
    t0 = time.perf_counter()
    m = train_bpe(corpus, size)
    n = len(encode(corpus, m))
    raw = len(corpus.encode("utf-8"))
    print(f"{size:>4} ids: {n:>6} tokens, ratio {raw / n:.2f}, bits/token {math.log2(size):.1f}, "
          f"{time.perf_counter() - t0:.2f}s")
