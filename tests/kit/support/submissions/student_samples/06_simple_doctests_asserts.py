# module: simple_tokenizers
"""Part 1 with doctests. Run ``python 06_simple_doctests_asserts.py -v``."""

import doctest
import string
import sys

UNKNOWN = "[UNK]"


def char_tokenize(text: str) -> list[str]:
    """
    >>> char_tokenize("ab c")
    ['a', 'b', ' ', 'c']
    >>> char_tokenize("")
    []
    """
    assert isinstance(text, str), f"expected str, got {type(text)!r}"
    return list(text)


def build_char_vocab(texts: list[str]) -> dict[str, int]:
    """
    >>> build_char_vocab(["ba", "ca"])
    {'a': 0, 'b': 1, 'c': 2}
    >>> build_char_vocab([])
    {}
    """
    chars = sorted(set("".join(texts)))
    return {c: i for i, c in enumerate(chars)}


def word_tokenize(text: str) -> list[str]:
    """
    >>> word_tokenize("  a\\t b\\n\\nc  ")
    ['a', 'b', 'c']
    """
    return text.split()


def build_word_vocab(texts: list[str]) -> dict[str, int]:
    """
    >>> build_word_vocab([])
    {'[UNK]': 0}
    >>> build_word_vocab(["b a", "a"])
    {'a': 0, 'b': 1, '[UNK]': 2}
    """
    words = sorted({w for text in texts for w in text.split()})
    vocab = dict((w, i) for i, w in enumerate(words))
    vocab.setdefault(UNKNOWN, len(words))
    return vocab


def encode_words(text: str, vocab: dict[str, int]) -> list[int]:
    """
    >>> encode_words("the cow", {"dog": 0, "the": 1, "[UNK]": 2})
    [1, 2]
    """
    ids = []
    for word in text.split():
        try:
            ids.append(vocab[word])
        except KeyError:
            ids.append(vocab[UNKNOWN])
    return ids


if __name__ == "__main__":
    failures, _ = doctest.testmod()
    sample = string.ascii_lowercase + " " + string.punctuation
    v = build_char_vocab([sample])
    assert len(v) == len(set(sample))
    print(f"{failures} doctest failures", file=sys.stderr)
