"""The exercise set: which module holds which functions. One place for these names."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Part:
    number: int
    module: str
    title: str
    functions: tuple[str, ...]


PARTS: tuple[Part, ...] = (
    Part(
        1,
        "simple_tokenizers",
        "Character and word tokenizers",
        ("char_tokenize", "build_char_vocab", "word_tokenize", "build_word_vocab", "encode_words"),
    ),
    Part(
        2,
        "bpe",
        "Character-level BPE",
        ("get_pair_counts", "merge_pair", "train_bpe", "build_bpe_vocab", "encode", "decode"),
    ),
)

MODULES: tuple[str, ...] = tuple(part.module for part in PARTS)


def part_of(module: str) -> Part:
    for part in PARTS:
        if part.module == module:
            return part
    raise KeyError(f"no part has the module {module!r}")
