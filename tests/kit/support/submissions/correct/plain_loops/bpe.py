# A correct submission using collections helpers and a last-seen tie-break.
from collections import Counter, defaultdict


def get_pair_counts(tokens):
    counts = defaultdict(int)
    for i in range(1, len(tokens)):
        counts[tokens[i - 1], tokens[i]] += 1
    return Counter(counts)


def merge_pair(tokens, pair):
    first, second = pair
    merged, skip = [], False
    for i, token in enumerate(tokens):
        if skip:
            skip = False
            continue
        if token == first and i + 1 < len(tokens) and tokens[i + 1] == second:
            merged.append(first + second)
            skip = True
        else:
            merged.append(token)
    return merged


def train_bpe(text, num_merges=20):
    tokens, merges = list(text), []
    for _ in range(num_merges):
        counts = get_pair_counts(tokens)
        top = max(counts.values(), default=0)
        if top < 2:
            break
        best = [pair for pair, count in counts.items() if count == top][-1]
        tokens = merge_pair(tokens, best)
        merges.append(best)
    return tokens, merges


def build_bpe_vocab(text, merges):
    tokens = {*text, *("".join(pair) for pair in merges)}
    return {token: i for i, token in enumerate(sorted(tokens, key=lambda t: (len(t), t)))}


def encode(text, merges, vocab):
    tokens = list(text)
    for pair in merges:
        tokens = merge_pair(tokens, pair)
    return [vocab[t] for t in tokens]


def decode(ids, vocab):
    lookup = {v: k for k, v in vocab.items()}
    return "".join(map(lookup.get, ids))
