"""Part 4 written with bytes objects and recursion instead of the reference's id lists and table."""

import functools


def get_pair_counts(ids):
    counts = {}
    for first, second in zip(ids, ids[1:]):
        counts[first, second] = counts.get((first, second), 0) + 1
    return counts


def merge_pair(ids, pair, new_id):
    out = []
    skip = False
    for i, value in enumerate(ids):
        if skip:
            skip = False
            continue
        if i + 1 < len(ids) and value == pair[0] and ids[i + 1] == pair[1]:
            out.append(new_id)
            skip = True
        else:
            out.append(value)
    return out


def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256 (one id per byte), not {vocab_size}")
    ids = list(bytes(text, "utf-8"))
    merges = {}
    next_id = 256
    while next_id < vocab_size:
        counts = get_pair_counts(ids)
        best = max(counts, key=lambda pair: (counts[pair], pair), default=None)
        if best is None or counts[best] < 2:
            break
        ids = merge_pair(ids, best, next_id)
        merges[best] = next_id
        next_id += 1
    return merges


def encode(text, merges):
    ids = list(bytes(text, "utf-8"))
    for new_id in sorted(merges.values()):
        pair = next(pair for pair, value in merges.items() if value == new_id)
        ids = merge_pair(ids, pair, new_id)
    return ids


def decode(ids, merges):
    pair_of = {new_id: pair for pair, new_id in merges.items()}

    @functools.cache
    def expand(value):
        if value < 256:
            return bytes([value])
        first, second = pair_of[value]
        return expand(first) + expand(second)

    return b"".join(expand(value) for value in ids).decode("utf-8", "replace")
