# module: bpe
from collections import Counter


def get_pair_counts(tokens):
    counts = Counter()
    for i in range(len(tokens) - 1):
        counts[(tokens[i], tokens[i + 1])] += 1
    return counts


def merge_pair(tokens, pair):
    out = []
    i = 0
    while i < len(tokens):
        if i < len(tokens) - 1 and tokens[i] == pair[0] and tokens[i + 1] == pair[1]:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(tokens[i])
            i += 1
    return out


def train_bpe(text, num_merges=20):
    tokens = list(text)
    merges = []
    for _ in range(num_merges):
        counts = get_pair_counts(tokens)
        if not counts:
            break
        best, n = counts.most_common(1)[0]
        if n < 2:
            break
        tokens = merge_pair(tokens, best)
        merges.append(best)
    return tokens, merges


def build_bpe_vocab(text, merges):
    tokens = set(text)
    for a, b in merges:
        tokens.add(a + b)
    ordered = sorted(tokens, key=lambda t: (len(t), t))
    return {t: i for i, t in enumerate(ordered)}


def encode(text, merges, vocab):
    tokens = list(text)
    for pair in merges:
        tokens = merge_pair(tokens, pair)
    return [vocab[t] for t in tokens]


def decode(ids, vocab):
    inv = {i: t for t, i in vocab.items()}
    return "".join(inv[i] for i in ids)
