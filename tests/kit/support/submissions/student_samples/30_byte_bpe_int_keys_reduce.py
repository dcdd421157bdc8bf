# module: byte_bpe
from collections import Counter
from functools import reduce
from itertools import islice, pairwise

import regex

BYTE_VALUES = 256
GPT2_SPLIT_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def get_pair_counts(ids):
    return Counter(pairwise(ids))


def merge_pair(ids, pair, new_id):
    out, i = [], 0
    while i < len(ids):
        if tuple(islice(ids, i, i + 2)) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def train_bpe(text, vocab_size):
    if vocab_size < BYTE_VALUES:
        raise ValueError("need vocab_size >= 256")
    ids = list(text.encode("utf-8"))
    merges = {}
    while len(merges) < vocab_size - BYTE_VALUES:
        counts = get_pair_counts(ids)
        if not counts or max(counts.values()) < 2:
            break
        pair = counts.most_common(1)[0][0]
        new_id = BYTE_VALUES + len(merges)
        merges[pair] = new_id
        ids = merge_pair(ids, pair, new_id)
    return merges


def encode(text, merges):
    ordered = sorted(merges.items(), key=lambda kv: kv[1])
    return reduce(lambda ids, m: merge_pair(ids, m[0], m[1]), ordered, list(text.encode("utf-8")))


def _expand(merges):
    vocab = {i: bytes([i]) for i in range(BYTE_VALUES)}
    for (a, b), new_id in sorted(merges.items(), key=lambda kv: kv[1]):
        vocab[new_id] = vocab[a] + vocab[b]
    return vocab


def decode(ids, merges):
    vocab = _expand(merges)
    return b"".join(map(vocab.__getitem__, ids)).decode("utf-8", errors="replace")


def train_on_pieces(text, vocab_size):
    if vocab_size < BYTE_VALUES:
        raise ValueError("need vocab_size >= 256")
    pieces = [list(p.encode("utf-8")) for p in regex.findall(GPT2_SPLIT_PATTERN, text)]
    merges = {}
    while len(merges) < vocab_size - BYTE_VALUES:
        counts = reduce(lambda acc, p: acc + Counter(pairwise(p)), pieces, Counter())
        if not counts:
            break
        pair, c = counts.most_common(1)[0]
        if c < 2:
            break
        new_id = BYTE_VALUES + len(merges)
        merges[pair] = new_id
        pieces = [merge_pair(p, pair, new_id) for p in pieces]
    return merges


def encode_with_specials(text, merges, special_tokens):
    if not special_tokens:
        return [i for piece in regex.findall(GPT2_SPLIT_PATTERN, text) for i in encode(piece, merges)]
    by_length = sorted(special_tokens, key=lambda s: (-len(s), s))
    splitter = regex.compile("(" + "|".join(regex.escape(s) for s in by_length) + ")")
    ids = []
    for chunk in splitter.split(text):
        if chunk in special_tokens:
            ids.append(special_tokens[chunk])
        elif chunk:
            ids += [i for piece in regex.findall(GPT2_SPLIT_PATTERN, chunk) for i in encode(piece, merges)]
    return ids


def decode_with_specials(ids, merges, special_tokens):
    vocab = _expand(merges)
    for tok, i in special_tokens.items():
        vocab[i] = tok.encode("utf-8")
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")
