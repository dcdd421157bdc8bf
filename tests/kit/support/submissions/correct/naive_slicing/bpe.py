# A correct beginner's submission: copies the list and slices it, O(n^2) and fine.
def get_pair_counts(tokens):
    counts = {}
    for i in range(len(tokens) - 1):
        pair = (tokens[i], tokens[i + 1])
        if pair in counts:
            counts[pair] += 1
        else:
            counts[pair] = 1
    return counts


def merge_pair(tokens, pair):
    tokens = tokens[:]  # work on a copy
    i = 0
    while i < len(tokens) - 1:
        if tokens[i] == pair[0] and tokens[i + 1] == pair[1]:
            tokens = tokens[:i] + [pair[0] + pair[1]] + tokens[i + 2 :]
        i = i + 1
    return tokens


def train_bpe(text, num_merges=20):
    tokens = list(text)
    merges = []
    for step in range(num_merges):
        counts = get_pair_counts(tokens)
        best = None
        for pair in counts:
            if best is None or counts[pair] > counts[best]:
                best = pair
        if best is None or counts[best] < 2:
            break
        tokens = merge_pair(tokens, best)
        merges.append(best)
    return (tokens, merges)


def build_bpe_vocab(text, merges):
    tokens = []
    for ch in text:
        if ch not in tokens:
            tokens.append(ch)
    for a, b in merges:
        if a + b not in tokens:
            tokens.append(a + b)
    tokens.sort(key=lambda t: (len(t), t))
    vocab = {}
    for i in range(len(tokens)):
        vocab[tokens[i]] = i
    return vocab


def encode(text, merges, vocab):
    tokens = list(text)
    for pair in merges:
        tokens = merge_pair(tokens, pair)
    ids = []
    for t in tokens:
        ids.append(vocab[t])
    return ids


def decode(ids, vocab):
    text = ""
    for i in ids:
        for token in vocab:
            if vocab[token] == i:
                text = text + token
    return text
