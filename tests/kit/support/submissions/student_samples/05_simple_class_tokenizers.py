# module: simple_tokenizers
"""Two tokenizer classes sharing an abstract base, plus the required functions as thin wrappers."""
from __future__ import annotations

import abc
from typing import ClassVar

__all__ = [
    "UNKNOWN",
    "char_tokenize",
    "build_char_vocab",
    "word_tokenize",
    "build_word_vocab",
    "encode_words",
]

UNKNOWN = "[UNK]"


class Tokenizer(abc.ABC):
    extra_tokens: ClassVar[tuple[str, ...]] = ()

    @abc.abstractmethod
    def tokenize(self, text: str) -> list[str]:
        ...

    def build_vocab(self, texts: list[str]) -> dict[str, int]:
        tokens = sorted({tok for t in texts for tok in self.tokenize(t)})
        tokens.extend(self.extra_tokens)
        return {tok: i for i, tok in enumerate(tokens)}

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class CharTokenizer(Tokenizer):
    def tokenize(self, text: str) -> list[str]:
        return list(text)


class WordTokenizer(Tokenizer):
    extra_tokens = (UNKNOWN,)

    def tokenize(self, text: str) -> list[str]:
        return text.split()

    def encode(self, text: str, vocab: dict[str, int]) -> list[int]:
        fallback = vocab[UNKNOWN]
        return [vocab.get(w, fallback) for w in self.tokenize(text)]


_CHARS = CharTokenizer()
_WORDS = WordTokenizer()


def char_tokenize(text: str) -> list[str]:
    return _CHARS.tokenize(text)


def build_char_vocab(texts: list[str]) -> dict[str, int]:
    return _CHARS.build_vocab(texts)


def word_tokenize(text: str) -> list[str]:
    return _WORDS.tokenize(text)


def build_word_vocab(texts: list[str]) -> dict[str, int]:
    return _WORDS.build_vocab(texts)


def encode_words(text: str, vocab: dict[str, int]) -> list[int]:
    return _WORDS.encode(text, vocab)
