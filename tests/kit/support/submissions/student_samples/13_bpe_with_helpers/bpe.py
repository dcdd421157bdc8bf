# module: bpe
"""Part 2 using my own helper module pairs.py (same folder)."""
from pairs import by_length_then_text, count_adjacent, replace_pair


def get_pair_counts(tokens):
    return count_adjacent(tokens)


def merge_pair(tokens, pair):
    return replace_pair(tokens, pair, pair[0] + pair[1])


def train_bpe(text, num_merges=20):
    tokens = list(text)
    merges = []
    for _ in range(num_merges):
        counts = get_pair_counts(tokens)
        if not counts:
            break
        pair, freq = counts.most_common(1)[0]
        if freq < 2:
            break
        tokens = merge_pair(tokens, pair)
        merges.append(pair)
    return tokens, merges


def build_bpe_vocab(text, merges):
    tokens = sorted(set(text) | {a + b for a, b in merges}, key=by_length_then_text)
    return {tok: i for i, tok in enumerate(tokens)}


def encode(text, merges, vocab):
    tokens = list(text)
    for pair in merges:
        tokens = merge_pair(tokens, pair)
    return [vocab[tok] for tok in tokens]


def decode(ids, vocab):
    back = {i: tok for tok, i in vocab.items()}
    return "".join(back[i] for i in ids)
