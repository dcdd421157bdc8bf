# module: byte_bpe
"""Part 4, core exercises only (didn't get to the pre-split part)."""
from collections import Counter


def get_pair_counts(ids):
    return Counter(zip(ids, ids[1:]))


def merge_pair(ids, pair, new_id):
    out = []
    i = 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256, got {vocab_size}")
    ids = list(text.encode("utf-8"))
    merges = {}
    for i in range(vocab_size - 256):
        counts = get_pair_counts(ids)
        if not counts:
            break
        pair, n = counts.most_common(1)[0]
        if n < 2:
            break
        new_id = 256 + i
        ids = merge_pair(ids, pair, new_id)
        merges[pair] = new_id
    return merges


def encode(text, merges):
    ids = list(text.encode("utf-8"))
    for pair, new_id in sorted(merges.items(), key=lambda kv: kv[1]):
        ids = merge_pair(ids, pair, new_id)
    return ids


def decode(ids, merges):
    vocab = {i: bytes([i]) for i in range(256)}
    for (a, b), new_id in sorted(merges.items(), key=lambda kv: kv[1]):
        vocab[new_id] = vocab[a] + vocab[b]
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")
