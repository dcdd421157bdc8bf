# module: bpe
import random
import sys
import time
from collections import Counter, defaultdict


def get_pair_counts(tokens):
    counts = defaultdict(int)
    for left, right in zip(tokens, tokens[1:]):
        counts[left, right] += 1
    return Counter(counts)


def merge_pair(tokens, pair):
    new_tokens = []
    skip = False
    for i, tok in enumerate(tokens):
        if skip:
            skip = False
            continue
        if i + 1 < len(tokens) and (tok, tokens[i + 1]) == pair:
            new_tokens.append(tok + tokens[i + 1])
            skip = True
        else:
            new_tokens.append(tok)
    return new_tokens


def train_bpe(text, num_merges=20):
    tokens = list(text)
    merges = []
    while len(merges) < num_merges:
        counts = get_pair_counts(tokens)
        if len(counts) == 0:
            break
        # the first pair seen wins a tie because Counter keeps insertion order
        best = max(counts, key=counts.get)
        if counts[best] < 2:
            break
        merges.append(best)
        tokens = merge_pair(tokens, best)
    return tokens, merges


def build_bpe_vocab(text, merges):
    vocab_tokens = sorted(set(text).union(a + b for a, b in merges), key=lambda s: (len(s), s))
    return dict(zip(vocab_tokens, range(len(vocab_tokens))))


def encode(text, merges, vocab):
    tokens = list(text)
    for m in merges:
        tokens = merge_pair(tokens, m)
    return [vocab[t] for t in tokens]


def decode(ids, vocab):
    lookup = dict((i, t) for t, i in vocab.items())
    return "".join([lookup[i] for i in ids])


if __name__ == "__main__":
    random.seed(1234)
    alphabet = "abcde "
    corpus = "".join(random.choice(alphabet) for _ in range(5000))
    start = time.perf_counter()
    final, merges = train_bpe(corpus, num_merges=50)
    elapsed = time.perf_counter() - start
    print(f"trained {len(merges)} merges in {elapsed:.3f}s", file=sys.stderr)
    vocab = build_bpe_vocab(corpus, merges)
    for trial in range(20):
        sample = "".join(random.choice(alphabet) for _ in range(random.randint(0, 40)))
        assert decode(encode(sample, merges, vocab), vocab) == sample, sample
    print("compression:", len(corpus) / len(final))
