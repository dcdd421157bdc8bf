# module: bpe
"""Part 2, recursive style (I like recursion). Long texts need a bigger recursion limit,
so merge_pair falls back to a loop past a few thousand tokens."""
import sys
from collections import Counter

sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))
_RECURSION_CUTOFF = 2000


def get_pair_counts(tokens):
    if len(tokens) < 2:
        return Counter()
    return Counter(zip(tokens, tokens[1:]))


def _merge_rec(tokens, pair, start):
    if start >= len(tokens):
        return []
    if start + 1 < len(tokens) and (tokens[start], tokens[start + 1]) == pair:
        return [pair[0] + pair[1]] + _merge_rec(tokens, pair, start + 2)
    return [tokens[start]] + _merge_rec(tokens, pair, start + 1)


def _merge_loop(tokens, pair):
    out, i = [], 0
    while i < len(tokens):
        if i + 1 < len(tokens) and (tokens[i], tokens[i + 1]) == pair:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(tokens[i])
            i += 1
    return out


def merge_pair(tokens, pair):
    pair = tuple(pair)
    if len(tokens) <= _RECURSION_CUTOFF:
        return _merge_rec(tokens, pair, 0)
    return _merge_loop(tokens, pair)


def _train(tokens, merges, remaining):
    if remaining <= 0:
        return tokens, merges
    counts = get_pair_counts(tokens)
    if not counts:
        return tokens, merges
    pair, n = counts.most_common(1)[0]
    if n < 2:
        return tokens, merges
    return _train(merge_pair(tokens, pair), merges + [pair], remaining - 1)


def train_bpe(text, num_merges=20):
    # recursion depth = number of merges, fine for the sizes in the course
    return _train(list(text), [], num_merges)


def build_bpe_vocab(text, merges):
    return {t: i for i, t in enumerate(sorted(set(text) | {a + b for a, b in merges}, key=lambda t: (len(t), t)))}


def encode(text, merges, vocab):
    tokens = list(text)
    for pair in merges:
        tokens = merge_pair(tokens, pair)
    return [vocab[t] for t in tokens]


def decode(ids, vocab):
    inv = {i: t for t, i in vocab.items()}
    return "".join(inv[i] for i in ids)


if __name__ == "__main__":
    text = "hello hello help hell"
    toks, merges = train_bpe(text, 6)
    print(toks, merges)
