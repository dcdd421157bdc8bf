# A correct submission written differently: comprehensions and sets everywhere.
def char_tokenize(text):
    return [c for c in text]


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
    vocab["[UNK]"] = len(vocab)
    return vocab


def encode_words(text, vocab):
    return [vocab[w] if w in vocab else vocab["[UNK]"] for w in word_tokenize(text)]
