# module: byte_bpe
# Part 4 - I think this works? decode_with_specials not finished properly.
from collections import Counter
import regex

BYTE_VALUES = 256
GPT2_SPLIT_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def get_pair_counts(ids):
    c = Counter()
    for a, b in zip(ids, ids[1:]):
        c[a, b] += 1
    return c


def merge_pair(ids, pair, new_id):
    ids = list(ids)  # copy so I don't change the caller's list
    i = 0
    while i < len(ids) - 1:
        if ids[i] == pair[0] and ids[i + 1] == pair[1]:
            ids[i : i + 2] = [new_id]
        i += 1
    return ids


def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("too small")
    ids = list(text.encode("utf-8"))
    merges = {}
    for i in range(vocab_size - 256):
        counts = get_pair_counts(ids)
        if not counts:
            break
        pair, n = counts.most_common(1)[0]
        if n < 2:
            break
        ids = merge_pair(ids, pair, 256 + i)
        merges[pair] = 256 + i
    return merges


def encode(text, merges):
    ids = list(text.encode("utf-8"))
    for pair, new_id in sorted(merges.items(), key=lambda x: x[1]):
        ids = merge_pair(ids, pair, new_id)
    return ids


def decode(ids, merges):
    vocab = {i: bytes([i]) for i in range(256)}
    for (a, b), new_id in sorted(merges.items(), key=lambda x: x[1]):
        vocab[new_id] = vocab[a] + vocab[b]
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def train_on_pieces(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("too small")
    pieces = [list(p.encode("utf-8")) for p in regex.findall(GPT2_SPLIT_PATTERN, text)]
    merges = {}
    for i in range(vocab_size - 256):
        counts = Counter()
        for p in pieces:
            counts += get_pair_counts(p)
        if not counts:
            break
        pair, n = counts.most_common(1)[0]
        if n < 2:
            break
        pieces = [merge_pair(p, pair, 256 + i) for p in pieces]
        merges[pair] = 256 + i
    return merges


def encode_with_specials(text, merges, special_tokens):
    out = []
    # NOTE: doesn't do longest-first, I sort alphabetically
    if special_tokens:
        pat = "(" + "|".join(regex.escape(s) for s in sorted(special_tokens)) + ")"
        parts = regex.split(pat, text)
    else:
        parts = [text]
    for part in parts:
        if part in special_tokens:
            out.append(special_tokens[part])
        elif part:
            for piece in regex.findall(GPT2_SPLIT_PATTERN, part):
                out.extend(encode(piece, merges))
    return out


def decode_with_specials(ids, merges, special_tokens):
    inv = {v: k for k, v in special_tokens.items()}
    text = ""
    buf = []
    for i in ids:
        if i in inv:
            text += decode(buf, merges) + inv[i]
            buf = []
        else:
            buf.append(i)
    return text + decode(buf, merges)
