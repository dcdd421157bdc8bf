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
    Part(
        3,
        "word_bpe",
        "Word-level BPE",
        (
            "pre_tokenize",
            "word_frequencies",
            "get_pair_counts",
            "merge_pair",
            "train_bpe",
            "encode",
            "encode_by_rank",
            "decode",
        ),
    ),
    Part(
        4,
        "byte_bpe",
        "Byte-level BPE",
        (
            "get_pair_counts",
            "merge_pair",
            "train_bpe",
            "encode",
            "decode",
            # GPT-2's pre-split and special tokens, which Part 6's encode builds on
            "train_on_pieces",
            "encode_with_specials",
            "decode_with_specials",
        ),
    ),
    Part(5, "fast_bpe", "Fast BPE training (bonus)", ("train_bpe",)),
    Part(
        6,
        "real_tokenizer",
        "A real tokenizer",
        (
            "bytes_to_unicode",
            "load",
            "save",
            # the two graded steps encode is built from
            "split_specials",
            "merge_by_rank",
            "encode",
            # special tokens as production uses them: refused unless allowed, and added to a trained vocabulary
            "encode_checked",
            "add_tokens",
            "decode",
            # GPT-4's merges, recovered from tiktoken's ranks
            "merges_from_ranks",
            # the tokenizer at scale: a corpus streamed through encode, its ids on disk
            "chunk_text",
            "write_ids",
            "read_ids",
            # the bonus: GPT-2-style training where its time and memory show
            "train_bytes",
        ),
    ),
    Part(7, "relatives", "BPE's relatives: WordPiece and Unigram", ("wordpiece_encode", "unigram_segment")),
)

MODULES: tuple[str, ...] = tuple(part.module for part in PARTS)


def part_of(module: str) -> Part:
    for part in PARTS:
        if part.module == module:
            return part
    raise KeyError(f"no part has the module {module!r}")


def _script_modules() -> tuple[str, ...]:
    """The parts one notebook or script can hold together: those whose function names do not clash.

    Parts 2 to 4 each have a merge_pair (and more): one namespace cannot hold
    two of them, so Parts 3 and 4 are handed in as their own modules (or
    notebooks named after them).
    """
    chosen: list[Part] = []
    for part in PARTS:
        if not any(set(part.functions) & set(other.functions) for other in chosen):
            chosen.append(part)
    return tuple(part.module for part in chosen)


SCRIPT_MODULES: tuple[str, ...] = _script_modules()
