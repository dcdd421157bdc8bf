# module: simple_tokenizers
"""Part 1 - my solutions."""

UNKNOWN = "[UNK]"


def char_tokenize(text):
    return list(text)


def build_char_vocab(texts):
    chars = set()
    for t in texts:
        chars.update(t)
    return {c: i for i, c in enumerate(sorted(chars))}


def word_tokenize(text):
    return text.split()


def build_word_vocab(texts):
    words = set()
    for t in texts:
        words |= set(word_tokenize(t))
    vocab = {w: i for i, w in enumerate(sorted(words))}
    vocab[UNKNOWN] = len(vocab)
    return vocab


def encode_words(text, vocab):
    return [vocab.get(w, vocab[UNKNOWN]) for w in word_tokenize(text)]
