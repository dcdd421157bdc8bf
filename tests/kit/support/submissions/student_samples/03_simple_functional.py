# module: simple_tokenizers
from functools import reduce
from itertools import chain
import operator

UNKNOWN = "[UNK]"

char_tokenize = lambda text: list(text)  # noqa: E731
word_tokenize = lambda text: text.split()  # noqa: E731


def _number(tokens):
    return dict(zip(sorted(tokens), range(len(tokens))))


def build_char_vocab(texts):
    alphabet = reduce(operator.or_, map(set, texts), set())
    return _number(alphabet)


def build_word_vocab(texts):
    words = set(chain.from_iterable(map(word_tokenize, texts)))
    vocab = _number(words)
    vocab[UNKNOWN] = len(words)
    return vocab


def encode_words(text, vocab):
    return list(map(lambda w: vocab.get(w, vocab[UNKNOWN]), word_tokenize(text)))
