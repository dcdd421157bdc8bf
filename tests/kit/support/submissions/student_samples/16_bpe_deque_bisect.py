# module: bpe
"""Part 2. merge_pair with a deque; the vocab built with bisect.insort to keep it sorted as I go."""
import bisect
from collections import Counter, deque


def get_pair_counts(tokens):
    counts = Counter()
    window = deque(maxlen=2)
    for tok in tokens:
        window.append(tok)
        if len(window) == 2:
            counts[tuple(window)] += 1
    return counts


def merge_pair(tokens, pair):
    pending = deque(tokens)
    out = []
    while pending:
        tok = pending.popleft()
        if tok == pair[0] and pending and pending[0] == pair[1]:
            pending.popleft()
            out.append(tok + pair[1])
        else:
            out.append(tok)
    return out


def train_bpe(text, num_merges=20):
    tokens = list(text)
    merges = []
    for _ in range(num_merges):
        counts = get_pair_counts(tokens)
        best = max(counts.items(), key=lambda kv: kv[1], default=None)
        if best is None or best[1] < 2:
            break
        tokens = merge_pair(tokens, best[0])
        merges.append(best[0])
    return tokens, merges


def build_bpe_vocab(text, merges):
    keys = []  # sorted list of (len, token)
    seen = set()
    for tok in list(text) + [a + b for a, b in merges]:
        if tok in seen:
            continue
        seen.add(tok)
        bisect.insort(keys, (len(tok), tok))
    return {tok: i for i, (_, tok) in enumerate(keys)}


def encode(text, merges, vocab):
    tokens = list(text)
    for pair in merges:
        tokens = merge_pair(tokens, pair)
    return [vocab[t] for t in tokens]


def decode(ids, vocab):
    by_id = [None] * len(vocab)
    for tok, i in vocab.items():
        by_id[i] = tok
    return "".join(by_id[i] for i in ids)
