"""A tokenizer's two files, as Part 6's tests read them: GPT-2's own, and the ones a student's ``save`` wrote.

``vocab.json`` maps each token (its bytes spelled with GPT-2's byte-to-unicode table) to its id;
``merges.txt`` holds the merges in rank order, one a line, after a ``#version`` line. The kit ships
GPT-2's two files as exercise data (``exercises/data/gpt2``; ``notebooks/data/gpt2`` in a student
release), with OpenAI's licence beside them. This reader is the grader's own, written for files that may
be wrong: it names what is wrong instead of raising a parser's error, and it runs in the trusted process,
so it never needs the reference solution (which a release lacks).
"""

from __future__ import annotations

import functools
import itertools
import json
from pathlib import Path

from autograder.kit_root import KIT_ROOT

# The two pre-split patterns a test passes to ``encode``, as Part 6's module defines them (a kit test holds
# the two equal): GPT-2's (OpenAI's encoder.py) and GPT-4's (tiktoken's cl100k_base).
GPT2_SPLIT = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
GPT4_SPLIT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|"""
    r"""\s+(?!\S)|\s"""
)
VOCAB_FILE = "vocab.json"
MERGES_FILE = "merges.txt"
END_OF_TEXT = "<|endoftext|>"
BYTE_TOKENS = 256
# Where the exercise data is: in the instructor's kit, and in a student release.
DATA_FOLDERS = (KIT_ROOT / "exercises" / "data", KIT_ROOT / "notebooks" / "data")


class TokenizerFileError(ValueError):
    """A file that is not what its format says: the message names the file and what is wrong."""


def gpt2_folder() -> Path:
    """The folder holding GPT-2's ``vocab.json`` and ``merges.txt``."""
    for data in DATA_FOLDERS:
        if (data / "gpt2" / VOCAB_FILE).is_file():
            return data / "gpt2"
    raise FileNotFoundError(f"GPT-2's files are in none of {', '.join(map(str, DATA_FOLDERS))}")


def read_vocab(content: bytes) -> dict[str, int]:
    """``vocab.json``'s token-to-id table."""
    try:
        ids = json.loads(content.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise TokenizerFileError(f"{VOCAB_FILE} is not JSON in UTF-8 ({error})") from None
    if not isinstance(ids, dict) or not all(type(value) is int for value in ids.values()):
        raise TokenizerFileError(f"{VOCAB_FILE} must hold one object from token to id (an int)")
    return ids


def read_merges(content: bytes) -> list[tuple[str, str]]:
    """``merges.txt``'s merges, in rank order: the ``#version`` line and an empty last line skipped."""
    try:
        lines = content.decode("utf-8").split("\n")
    except UnicodeDecodeError:
        raise TokenizerFileError(f"{MERGES_FILE} is not UTF-8") from None
    if lines and lines[0].startswith("#version"):
        lines = lines[1:]
    if lines and lines[-1] == "":
        lines = lines[:-1]
    pairs: list[tuple[str, str]] = []
    for number, line in enumerate(lines, start=2):
        parts = line.split(" ")
        if len(parts) != 2 or not all(parts):
            raise TokenizerFileError(f"{MERGES_FILE}, line {number}: {line[:60]!r} is not two tokens and one space")
        pairs.append((parts[0], parts[1]))
    return pairs


@functools.cache
def _gpt2() -> tuple[dict[str, int], tuple[tuple[str, str], ...]]:
    folder = gpt2_folder()
    vocab = read_vocab((folder / VOCAB_FILE).read_bytes())
    return vocab, tuple(read_merges((folder / MERGES_FILE).read_bytes()))


def gpt2_files(merges: int) -> dict[str, bytes]:
    """GPT-2's own two files, cut to their first ``merges`` merges: the lines of merges.txt up to there, and the
    vocabulary's tokens that those merges and the bytes make, with ``<|endoftext|>``, written as OpenAI wrote
    encoder.json (one JSON object, non-ASCII characters escaped)."""
    folder = gpt2_folder()
    lines = (folder / MERGES_FILE).read_bytes().split(b"\n")
    vocab, _ = gpt2(merges)
    return {VOCAB_FILE: json.dumps(vocab).encode("ascii"), MERGES_FILE: b"\n".join(lines[: merges + 1]) + b"\n"}


def gpt2(merges: int | None = None) -> tuple[dict[str, int], list[tuple[str, str]]]:
    """GPT-2's vocabulary and merges (fresh copies), or only its first ``merges`` merges and the tokens they
    and the bytes make, with ``<|endoftext|>``: a smaller tokenizer, still a valid BPE, with GPT-2's ids."""
    vocab, ranked = _gpt2()
    if merges is None:
        return dict(vocab), list(ranked)
    kept = BYTE_TOKENS + merges
    return {token: id_ for token, id_ in vocab.items() if id_ < kept or token == END_OF_TEXT}, list(ranked[:merges])


def recovered_merge(ranks: dict[bytes, int], token: bytes) -> tuple[bytes, bytes]:
    """The two tokens ``token`` was merged from: BPE on its bytes, with only the tokens ranked below it.

    The grader's own copy of what Part 6's ``merges_from_ranks`` does for one token: the domain of its
    tables is drawn with it, and the notebook helper writes cl100k_base as two files with it."""
    limit = ranks[token]
    parts = [bytes([byte]) for byte in token]
    while len(parts) > 2:
        ranked = [(ranks.get(left + right, limit), at) for at, (left, right) in enumerate(itertools.pairwise(parts))]
        rank, at = min(ranked)
        if rank >= limit:
            break
        parts[at : at + 2] = [parts[at] + parts[at + 1]]
    if len(parts) != 2:
        raise ValueError(f"{token!r}: no two tokens ranked below it make it; the ranks are not a byte-level BPE")
    return parts[0], parts[1]
