# module: simple_tokenizers
import statistics
import sys
from collections import Counter, OrderedDict

UNKNOWN = "[UNK]"


def char_tokenize(text):
    return list(text)


def build_char_vocab(texts):
    counts = Counter()
    for t in texts:
        counts.update(t)
    ordered = OrderedDict()
    for ch in sorted(counts):
        ordered[ch] = len(ordered)
    return dict(ordered)


def word_tokenize(text):
    return text.split()


def build_word_vocab(texts):
    counts = Counter(w for t in texts for w in word_tokenize(t))
    vocab = {}
    for w in sorted(counts.keys()):
        vocab[w] = len(vocab)
    vocab[UNKNOWN] = len(vocab)
    return vocab


def encode_words(text, vocab):
    unk_id = vocab[UNKNOWN]
    return [vocab.get(word, unk_id) for word in word_tokenize(text)]


def unk_rate(text, vocab):
    ids = encode_words(text, vocab)
    if not ids:
        return 0.0
    return sum(i == vocab[UNKNOWN] for i in ids) / len(ids)


if __name__ == "__main__":
    train = ["the cat sat on the mat", "a dog and a cat"]
    test = ["the bird sat on a log", "cat"]
    vocab = build_word_vocab(train)
    rates = [unk_rate(t, vocab) for t in test]
    print("mean unk rate:", statistics.mean(rates), file=sys.stderr)
    lengths = [len(word_tokenize(t)) for t in train]
    print("median words per text:", statistics.median(lengths))
