# A correct submission that breaks ties by the largest pair, with a plain dict of counts.
def get_pair_counts(tokens):
    counts = {}
    for a, b in zip(tokens, tokens[1:]):
        counts[(a, b)] = counts.get((a, b), 0) + 1
    return counts


def merge_pair(tokens, pair):
    out = []
    i = 0
    while i < len(tokens):
        if tokens[i : i + 2] == list(pair):
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(tokens[i])
            i += 1
    return out


def train_bpe(text, num_merges=20):
    tokens = list(text)
    merges = []
    while len(merges) < num_merges:
        counts = get_pair_counts(tokens)
        if not counts:
            break
        best = max(counts, key=lambda p: (counts[p], p))
        if counts[best] < 2:
            break
        merges.append(best)
        tokens = merge_pair(tokens, best)
    return tokens, merges


def build_bpe_vocab(text, merges):
    tokens = sorted(set(text).union(a + b for a, b in merges), key=lambda t: (len(t), t))
    return dict(zip(tokens, range(len(tokens))))


def encode(text, merges, vocab):
    tokens = list(text)
    for pair in merges:
        tokens = merge_pair(tokens, pair)
    return list(map(vocab.__getitem__, tokens))


def decode(ids, vocab):
    inverse = dict((i, t) for t, i in vocab.items())
    return "".join([inverse[i] for i in ids])
