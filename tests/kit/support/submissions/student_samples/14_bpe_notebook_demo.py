# module: bpe
# Part 2 notebook export. Top-level cells run the demos as in class.
from collections import Counter
from pathlib import Path


def get_pair_counts(tokens):
    return Counter(zip(tokens, tokens[1:]))


def merge_pair(tokens, pair):
    merged, i = [], 0
    while i < len(tokens):
        if tokens[i : i + 2] == list(pair):
            merged.append("".join(pair))
            i += 2
        else:
            merged.append(tokens[i])
            i += 1
    return merged


def train_bpe(text, num_merges=20):
    tokens, merges = list(text), []
    for step in range(num_merges):
        counts = get_pair_counts(tokens)
        if not counts:
            break
        pair, count = counts.most_common(1)[0]
        if count < 2:
            break
        tokens = merge_pair(tokens, pair)
        merges.append(pair)
    return tokens, merges


def build_bpe_vocab(text, merges):
    toks = sorted(set(list(text) + ["".join(m) for m in merges]), key=lambda t: (len(t), t))
    return {t: i for i, t in enumerate(toks)}


def encode(text, merges, vocab):
    tokens = list(text)
    for m in merges:
        tokens = merge_pair(tokens, m)
    return [vocab[t] for t in tokens]


def decode(ids, vocab):
    inv = {v: k for k, v in vocab.items()}
    return "".join(inv[i] for i in ids)


# ---- demo cells ----
tokens, merges = train_bpe("aaabdaaabac", num_merges=3)
print(merges)
print(tokens)

corpus_path = Path(__file__).with_name("shakespeare.txt")
if corpus_path.exists():
    corpus = corpus_path.read_text(encoding="utf-8")[:5000]
else:
    corpus = "to be or not to be that is the question " * 20
final, learned = train_bpe(corpus, 30)
vocab = build_bpe_vocab(corpus, learned)
print("first merges:", learned[:10])
print("tokens before/after:", len(corpus), len(final))
ids = encode(corpus[:60], learned, vocab)
print(ids)
print(repr(decode(ids, vocab)))
