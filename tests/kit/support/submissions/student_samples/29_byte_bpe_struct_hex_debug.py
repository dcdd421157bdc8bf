# module: byte_bpe
"""Part 4. Has a little debug printer that shows tokens as hex and base64."""
import base64
import struct
import sys
from collections import Counter

import regex

BYTE_VALUES = 256
GPT2_SPLIT_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""

DEBUG = False


def get_pair_counts(ids):
    counts = Counter()
    for i in range(len(ids) - 1):
        counts[(ids[i], ids[i + 1])] += 1
    return counts


def merge_pair(ids, pair, new_id):
    merged = []
    i = 0
    while i < len(ids):
        if ids[i : i + 2] == [pair[0], pair[1]]:
            merged.append(new_id)
            i += 2
        else:
            merged.append(ids[i])
            i += 1
    return merged


def token_bytes(merges):
    table = {i: bytes([i]) for i in range(BYTE_VALUES)}
    for (a, b), idx in sorted(merges.items(), key=lambda item: item[1]):
        table[idx] = table[a] + table[b]
    return table


def debug_token(idx, table):
    raw = table[idx]
    print(
        f"id={idx:<5} hex={raw.hex(' ')} b64={base64.b64encode(raw).decode('ascii')} "
        f"packed={struct.pack('>H', idx).hex()}",
        file=sys.stderr,
    )


def train_bpe(text, vocab_size):
    if vocab_size < BYTE_VALUES:
        raise ValueError("vocab_size must be >= 256 (the single bytes)")
    ids = list(text.encode("utf-8"))
    merges = {}
    for k in range(vocab_size - BYTE_VALUES):
        counts = get_pair_counts(ids)
        if not counts:
            break
        pair = max(counts, key=counts.get)
        if counts[pair] < 2:
            break
        merges[pair] = BYTE_VALUES + k
        ids = merge_pair(ids, pair, BYTE_VALUES + k)
        if DEBUG:
            debug_token(BYTE_VALUES + k, token_bytes(merges))
    return merges


def encode(text, merges):
    ids = list(text.encode("utf-8"))
    for pair in sorted(merges, key=merges.get):
        ids = merge_pair(ids, pair, merges[pair])
    return ids


def decode(ids, merges):
    table = token_bytes(merges)
    data = bytearray()
    for i in ids:
        data.extend(table[i])
    return bytes(data).decode("utf-8", errors="replace")


def train_on_pieces(text, vocab_size):
    if vocab_size < BYTE_VALUES:
        raise ValueError("vocab_size must be >= 256 (the single bytes)")
    # count each distinct piece once, weighted
    piece_freq = Counter(regex.findall(GPT2_SPLIT_PATTERN, text))
    words = {tuple(p.encode("utf-8")): n for p, n in piece_freq.items()}
    merges = {}
    for k in range(vocab_size - BYTE_VALUES):
        counts = Counter()
        for w, n in words.items():
            for pair in zip(w, w[1:]):
                counts[pair] += n
        if not counts:
            break
        pair, c = counts.most_common(1)[0]
        if c < 2:
            break
        new_id = BYTE_VALUES + k
        merges[pair] = new_id
        new_words = Counter()
        for w, n in words.items():
            new_words[tuple(merge_pair(list(w), pair, new_id))] += n
        words = new_words
    return merges


def encode_with_specials(text, merges, special_tokens):
    result = []
    specials = sorted(special_tokens, key=len, reverse=True)
    parts = regex.split("(" + "|".join(map(regex.escape, specials)) + ")", text) if specials else [text]
    for part in parts:
        if part == "":
            continue
        if part in special_tokens:
            result.append(special_tokens[part])
        else:
            for piece in regex.findall(GPT2_SPLIT_PATTERN, part):
                result.extend(encode(piece, merges))
    return result


def decode_with_specials(ids, merges, special_tokens):
    table = token_bytes(merges)
    table.update({idx: tok.encode("utf-8") for tok, idx in special_tokens.items()})
    return b"".join(table[i] for i in ids).decode("utf-8", errors="replace")


if __name__ == "__main__":
    DEBUG = True
    m = train_bpe("naïve café naïve café 🙂🙂", 265)
    print(m)
    print(decode(encode("naïve 🙂", m), m))
    print(int.from_bytes("é".encode("utf-8"), "big"))
