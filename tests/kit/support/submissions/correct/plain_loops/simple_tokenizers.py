# A correct submission using the standard library's helpers where a student might reach for them.
import re
from itertools import chain


def char_tokenize(text):
    return [*text]


def build_char_vocab(texts):
    ordered = sorted(set(chain.from_iterable(texts)))
    return dict(zip(ordered, range(len(ordered))))


def word_tokenize(text):
    return re.findall(r"\S+", text)


def build_word_vocab(texts):
    vocab = {}
    for word in sorted(set(chain.from_iterable(map(word_tokenize, texts)))):
        vocab[word] = len(vocab)
    vocab["[UNK]"] = len(vocab)
    return vocab


def encode_words(text, vocab):
    unknown = vocab["[UNK]"]
    return [vocab.get(word, unknown) for word in word_tokenize(text)]
