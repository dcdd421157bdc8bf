"""Part 4 written with bytes objects and recursion instead of the reference's id lists and table."""

import functools

import regex


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


# GPT-2's pre-split, and special tokens found by scanning instead of by one regex.split.
SPLIT = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def train_on_pieces(text, vocab_size):
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256 (one id per byte), not {vocab_size}")
    pieces = [list(bytes(piece, "utf-8")) for piece in regex.findall(SPLIT, text)]
    merges = {}
    for next_id in range(256, vocab_size):
        counts = {}
        for piece in pieces:
            for pair, count in get_pair_counts(piece).items():
                counts[pair] = counts.get(pair, 0) + count
        best = max(counts, key=lambda pair: (counts[pair], pair), default=None)
        if best is None or counts[best] < 2:
            break
        pieces = [merge_pair(piece, best, next_id) for piece in pieces]
        merges[best] = next_id
    return merges


def encode_with_specials(text, merges, special_tokens):
    longest_first = sorted(special_tokens, key=len, reverse=True)
    ids, start, at = [], 0, 0
    while at < len(text):
        found = next((token for token in longest_first if token and text.startswith(token, at)), None)
        if found is None:
            at += 1
            continue
        for piece in regex.findall(SPLIT, text[start:at]):
            ids += encode(piece, merges)
        ids.append(special_tokens[found])
        at += len(found)
        start = at
    for piece in regex.findall(SPLIT, text[start:]):
        ids += encode(piece, merges)
    return ids


def decode_with_specials(ids, merges, special_tokens):
    pair_of = {new_id: pair for pair, new_id in merges.items()}
    text_of = {value: token for token, value in special_tokens.items()}

    def spell(value):
        if value in text_of:
            return bytes(text_of[value], "utf-8")
        if value < 256:
            return bytes([value])
        first, second = pair_of[value]
        return spell(first) + spell(second)

    return b"".join(spell(value) for value in ids).decode("utf-8", "replace")
