# module: simple_tokenizers
"""Part 1. Same functions as required, plus a helper that shows characters by Unicode name
(my text had accents and emoji and I wanted to see what 'a character' is)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

__all__ = ["char_tokenize", "build_char_vocab", "word_tokenize", "build_word_vocab", "encode_words", "UNKNOWN"]

UNKNOWN = "[UNK]"


def _numbered(tokens: Iterable[str]) -> dict[str, int]:
    vocab: dict[str, int] = {}
    for token in sorted(set(tokens)):
        vocab[token] = len(vocab)
    return vocab


def char_tokenize(text: str) -> list[str]:
    if not isinstance(text, str):
        raise TypeError(f"char_tokenize expects a str, not {type(text).__name__}")
    return list(text)


def build_char_vocab(texts: list[str]) -> dict[str, int]:
    return _numbered(ch for text in texts for ch in char_tokenize(text))


def word_tokenize(text: str) -> list[str]:
    return text.split()


def build_word_vocab(texts: list[str]) -> dict[str, int]:
    vocab = _numbered(word for text in texts for word in word_tokenize(text))
    vocab[UNKNOWN] = len(vocab)
    return vocab


def encode_words(text: str, vocab: dict[str, int]) -> list[int]:
    return [vocab.get(word, vocab[UNKNOWN]) for word in word_tokenize(text)]


def describe(text: str) -> list[str]:
    return [f"{ch!r} U+{ord(ch):04X} {unicodedata.name(ch, '?')} ({unicodedata.category(ch)})" for ch in text]


if __name__ == "__main__":
    sample = "café e\u0301 🙂"
    print(char_tokenize(sample))
    print("\n".join(describe(sample)))
    print(build_char_vocab([sample, "cafe"]))
