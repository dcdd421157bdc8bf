# module: simple_tokenizers
"""Part 1, written around a small Vocab dataclass so I can reuse it later."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator

UNKNOWN = "[UNK]"


@dataclass
class Vocab:
    """A token <-> id table. Ids are assigned in the order tokens are added."""

    token_to_id: dict[str, int] = field(default_factory=dict)

    def add(self, token: str) -> int:
        if token not in self.token_to_id:
            self.token_to_id[token] = len(self.token_to_id)
        return self.token_to_id[token]

    @classmethod
    def from_sorted(cls, tokens: Iterable[str]) -> "Vocab":
        v = cls()
        for tok in sorted(set(tokens)):
            v.add(tok)
        return v

    def __len__(self) -> int:
        return len(self.token_to_id)

    def __contains__(self, token: object) -> bool:
        return token in self.token_to_id

    def __getitem__(self, token: str) -> int:
        return self.token_to_id[token]

    def __iter__(self) -> Iterator[str]:
        return iter(self.token_to_id)

    def as_dict(self) -> dict[str, int]:
        return dict(self.token_to_id)


def char_tokenize(text: str) -> list[str]:
    return [ch for ch in text]


def build_char_vocab(texts: list[str]) -> dict[str, int]:
    return Vocab.from_sorted(ch for text in texts for ch in text).as_dict()


def word_tokenize(text: str) -> list[str]:
    return text.split()


def build_word_vocab(texts: list[str]) -> dict[str, int]:
    vocab = Vocab.from_sorted(w for text in texts for w in word_tokenize(text))
    vocab.add(UNKNOWN)
    return vocab.as_dict()


def encode_words(text: str, vocab: dict[str, int]) -> list[int]:
    unk = vocab[UNKNOWN]
    return [vocab[w] if w in vocab else unk for w in word_tokenize(text)]


if __name__ == "__main__":
    v = build_word_vocab(["the cat", "the hat"])
    print(v)
    print(encode_words("the cow", v))
