# Part 6: fill in each TODO, then run `grade` in this folder to check your work.
"""Part 6: a real tokenizer. Read GPT-2's own files and give GPT-2's own ids.

Part 4's byte-level BPE is the algorithm GPT-2 uses; what it lacks is the
way a production tokenizer stores it. GPT-2 ships two files: ``vocab.json``
maps each token to its id, and ``merges.txt`` lists the merges, one a line,
in rank order. Both write a token as text, not bytes: every byte is first
mapped to one printable character (``bytes_to_unicode``), so that a space
becomes ``Ġ`` and the token `` the`` is written ``Ġthe``.

Encoding is Part 3's ``encode_by_rank`` on those characters: split the text
into pieces with a pattern, spell each piece's UTF-8 bytes as characters,
merge the adjacent pair of lowest rank until no pair is a merge, and look
each token up in the vocabulary. Special tokens such as ``<|endoftext|>``
are cut out first and looked up whole. No function here changes the
arguments it is given.

A worked example, with a vocabulary of five tokens and two merges:

>>> vocab = {"h": 0, "i": 1, "Ġ": 2, "hi": 3, "Ġhi": 4}
>>> merges = [("h", "i"), ("Ġ", "hi")]
>>> encode("hi hi", vocab, merges)
[3, 4]
>>> decode([3, 4], vocab)
'hi hi'
"""

from __future__ import annotations

import heapq
import json
import os
import struct
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

import regex

# GPT-2's pre-split, as OpenAI's encoder.py has it: contractions (lowercase only), runs of letters,
# of numbers (\p{N}: digits, ², ½), of other symbols (each with at most one space in front), and runs
# of spaces.
GPT2_SPLIT = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
# GPT-4's (tiktoken's cl100k_base): contractions in any case, numbers in groups of at most three, a
# letter run that may take one symbol in front, and line breaks kept apart from other spaces.
GPT4_SPLIT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|"""
    r"""\s+(?!\S)|\s"""
)
VOCAB_FILE = "vocab.json"
MERGES_FILE = "merges.txt"
MERGES_HEADER = "#version: 0.2"
NO_RANK = float("inf")  # what a pair that is no merge ranks as: after every merge
BYTE_VALUES = 256
UINT16_IDS = 65536  # how many ids 2 bytes hold: 0 to 65535


def bytes_to_unicode() -> dict[int, str]:
    """GPT-2's table from each byte value (0 to 255) to the one character that stands for it in its files.

    The bytes of ``!`` to ``~``, ``¡`` to ``¬`` and ``®`` to ``ÿ`` stand for
    themselves (``chr(byte)``). Every other byte, in increasing order, gets
    the next character from ``chr(256)`` on: byte 0 is ``chr(256)``, byte 1
    is ``chr(257)``, ..., and the space (32) is ``chr(288)``, ``Ġ``.

    >>> table = bytes_to_unicode()
    >>> table[ord("a")], table[ord(" ")], table[0], len(set(table.values()))
    ('a', 'Ġ', 'Ā', 256)
    """
    # TODO (supported): collect the bytes that stand for themselves (three ranges of ord()); walk 0..255 and
    # give each other byte chr(256 + n), counting n up from 0.
    raise NotImplementedError


def load(folder: str | os.PathLike[str]) -> tuple[dict[str, int], list[tuple[str, str]]]:
    """Read ``vocab.json`` and ``merges.txt`` from ``folder``: ``(vocab, merges)``.

    ``vocab.json`` is one JSON object from token to id. ``merges.txt`` holds
    one merge a line, its two tokens separated by one space; its first line
    is skipped when it starts with ``#version``, and so is an empty last line.
    A merge's rank is its place in the list. Read both as UTF-8.

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> save(folder, {"a": 0, "b": 1, "ab": 2}, [("a", "b")])
    >>> load(folder)
    ({'a': 0, 'b': 1, 'ab': 2}, [('a', 'b')])
    """
    # TODO (supported): json.load the vocabulary; split the merges file's text on "\n", skip the #version line
    # and empty lines, and split each line on its one space.
    raise NotImplementedError


def save(folder: str | os.PathLike[str], vocab: dict[str, int], merges: list[tuple[str, str]]) -> None:
    """Write ``vocab`` and ``merges`` into ``folder`` as ``vocab.json`` and ``merges.txt``.

    Make ``folder`` first where it is missing, and the folders above it.

    ``vocab.json``: the dict as one JSON object. ``merges.txt``: the line
    ``#version: 0.2``, then each merge as its two tokens and one space
    between them, one a line, in order, each line ending in ``"\\n"``. Both in
    UTF-8, so that ``load`` gives back what was saved and Hugging Face's
    ``tokenizers`` reads the files as GPT-2's own.

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> save(folder, {"a": 0, "b": 1, "ab": 2}, [("a", "b")])
    >>> print(open(f"{folder}/merges.txt", encoding="utf-8").read(), end="")
    #version: 0.2
    a b
    """
    # TODO (supported): make the folder (os.makedirs with exist_ok=True), json.dump the vocabulary, and write
    # the header line, then one "first second" line per merge.
    raise NotImplementedError


def split_specials(text: str, special_tokens: tuple[str, ...] | list[str]) -> list[str]:
    """The stretches of ``text``, in order: each special token whole, and the text between them as it is.

    A special token is cut out wherever it occurs, and where two start at
    the same place the longer one is cut. Nothing is dropped or changed, so
    the stretches joined are ``text`` again, and no stretch is empty: two
    special tokens side by side are two stretches, and a text with no special
    token (or no special tokens given) is one stretch, or none when empty.

    >>> split_specials("hi<|endoftext|>ho", ["<|endoftext|>"])
    ['hi', '<|endoftext|>', 'ho']
    """
    # TODO (supported): regex.split on the escaped special tokens, sorted longest first and joined with | in
    # one capturing group (so the tokens are kept); then leave out the empty strings.
    raise NotImplementedError


def merge_by_rank(piece: str, ranks: dict[tuple[str, str], int]) -> list[str]:
    """The tokens of one ``piece``, spelled with ``bytes_to_unicode``, merged by rank: lowest rank first.

    Start from the piece's characters, one token each. Find the adjacent
    pair of tokens whose rank (``ranks[pair]``) is lowest, and merge it
    wherever it occurs, left to right: at its first place, then at each later
    one (in ``a a a`` the first two merge). Repeat until no adjacent pair is
    in ``ranks``. A piece of one character is that one token.

    >>> merge_by_rank("Ġhi", {("h", "i"): 0, ("Ġ", "hi"): 1})
    ['Ġhi']
    """
    # TODO (supported): loop: find the adjacent pair of lowest rank (ranks.get with infinity for no rank); stop
    # when none has one; else rebuild the list, joining that pair at every place, left to right.
    raise NotImplementedError


def encode(
    text: str,
    vocab: dict[str, int],
    merges: list[tuple[str, str]],
    pattern: str = GPT2_SPLIT,
    special_tokens: tuple[str, ...] | list[str] = (),
) -> list[int]:
    """GPT-2's ids for ``text``: special tokens whole, then each piece of the rest merged by rank.

    1. Cut the special tokens (strings that ``vocab`` holds) out of the
       text with ``split_specials``; where two start at the same place, the
       longer one wins. Each is its id, ``vocab[token]``, and is never split
       or merged.
    2. Split the text between them into pieces: ``regex.findall(pattern, ...)``.
    3. Spell each piece's UTF-8 bytes with ``bytes_to_unicode``, one
       character a byte, then merge with ``merge_by_rank``: take the
       adjacent pair of lowest rank (its index in ``merges``), merge it
       wherever it occurs in the piece, left to right, and repeat until no
       adjacent pair is a merge.
    4. Each token's id is ``vocab[token]``.

    >>> encode("hi hi", {"h": 0, "i": 1, "Ġ": 2, "hi": 3, "Ġhi": 4}, [("h", "i"), ("Ġ", "hi")])
    [3, 4]
    """
    # TODO (supported): ranks from merges (a pair's index; the first where one is listed twice); then for each
    # stretch of split_specials, a special token's id, or each piece spelled and merged with merge_by_rank.
    raise NotImplementedError


def encode_checked(
    text: str,
    vocab: dict[str, int],
    merges: list[tuple[str, str]],
    special_tokens: tuple[str, ...] | list[str],
    allowed: tuple[str, ...] | list[str] = (),
    pattern: str = GPT2_SPLIT,
) -> list[int]:
    """``encode`` for text from outside: a special token that this call does not allow raises ``ValueError``.

    tiktoken's ``encode(text, allowed_special=..., disallowed_special="all")``,
    GPT-2 style. ``special_tokens`` are every special token the model knows
    (each is in ``vocab``); ``allowed`` are the ones this call may encode as
    special tokens (some of ``special_tokens``, or none).

    If any special token of ``special_tokens`` that is not in ``allowed``
    occurs anywhere in ``text`` (as a substring), raise ``ValueError``; its
    message names that token: the one that occurs first in the text, and
    where two start at the same place, the longer. Nothing is encoded.
    Otherwise the ids are ``encode(text, vocab, merges, pattern=pattern,
    special_tokens=allowed)``. (User text that should never produce a special
    token is encoded with no allowed tokens; a caller who wants
    ``<|endoftext|>`` in user text spelled as ordinary text calls
    ``encode(text, vocab, merges)``.)

    >>> vocab = {"h": 0, "i": 1, "<|endoftext|>": 2}
    >>> encode_checked("hi<|endoftext|>", vocab, [], ["<|endoftext|>"], allowed=["<|endoftext|>"])
    [0, 1, 2]
    >>> encode_checked("hi<|endoftext|>", vocab, [], ["<|endoftext|>"])
    Traceback (most recent call last):
    ...
    ValueError: the text holds the special token '<|endoftext|>', which this call does not allow
    """
    # TODO (supported): the special tokens not in allowed; the first stretch of split_specials(text, those) that
    # is one of them is the token to name; else return encode with special_tokens=allowed.
    raise NotImplementedError


def add_tokens(vocab: dict[str, int], names: tuple[str, ...] | list[str]) -> dict[str, int]:
    """A new vocabulary: ``vocab``'s entries, and each of ``names`` it lacks with the next unused id.

    Adding tokens to a trained model's vocabulary, as ``tokenizer.add_tokens``
    does before the model's embedding is resized. The dict returned is a new
    one (``vocab`` is not changed): every entry of ``vocab``, then each name of
    ``names`` not already in it, in the order given, with the next unused id:
    one more than the largest id so far (0 for an empty vocab). A name already
    in ``vocab``, or repeated in ``names``, keeps its first id.

    >>> add_tokens({"a": 0, "b": 5}, ["<|im_start|>", "a", "<|im_end|>", "<|im_start|>"])
    {'a': 0, 'b': 5, '<|im_start|>': 6, '<|im_end|>': 7}
    """
    # TODO (supported): copy vocab (dict(vocab)); the next id is max of its ids plus one (max(..., default=-1));
    # give it to each name the copy lacks, in order, counting up.
    raise NotImplementedError


def merges_from_ranks(mergeable_ranks: dict[bytes, int]) -> tuple[dict[str, int], list[tuple[str, str]]]:
    """GPT-2-style ``(vocab, merges)`` from a table of token bytes to rank, as tiktoken stores GPT-4's.

    tiktoken's ``mergeable_ranks`` (``cl100k_base``'s) lists every token's
    bytes with its rank: the single bytes first, in the table's own order,
    which need not be byte order, then each merged token. It stores no
    merges: each is recovered from the ranks below it.

    ``vocab``: every token of the table, spelled with ``bytes_to_unicode``,
    with its rank as its id (a single byte too). ``merges``: one for each
    token of two or more bytes, in the order of their ranks: the two tokens
    that the token's own BPE over the lower ranks ends with. That BPE starts
    from the token's single bytes and merges, one at a time, the adjacent pair
    (the first on a tie) whose joined bytes have the lowest rank below the
    token's own, until no adjacent pair joins into such a token: the two
    tokens left are its merge. With them, ``encode(text, vocab, merges,
    pattern=GPT4_SPLIT)`` gives tiktoken's ids.

    >>> merges_from_ranks({b"b": 0, b"a": 1, b"ab": 2, b"aab": 3})
    ({'b': 0, 'a': 1, 'ab': 2, 'aab': 3}, [('a', 'b'), ('a', 'ab')])
    """
    # TODO (independent): for each token of two or more bytes, in rank order, run BPE on its bytes with only
    # the tokens ranked below it; the two parts left are its merge. Spell tokens with bytes_to_unicode.
    raise NotImplementedError


def decode(ids: list[int], vocab: dict[str, int]) -> str:
    """The text of ``ids``: their tokens joined, each character mapped back to its byte, decoded as UTF-8.

    Find each id's token (invert ``vocab``), join them, turn every character
    back into the byte it stands for (invert ``bytes_to_unicode``), and
    decode the bytes with ``errors="replace"``: ids that end inside a
    character give ``"\\ufffd"`` instead of raising.

    >>> decode([3, 4], {"h": 0, "i": 1, "Ġ": 2, "hi": 3, "Ġhi": 4})
    'hi hi'
    """
    # TODO (supported): invert vocab and bytes_to_unicode(); bytes(...) of every character's byte, then decode.
    raise NotImplementedError


def train_bytes(
    text: str, vocab_size: int, special_tokens: tuple[str, ...] | list[str] = ()
) -> tuple[dict[int, bytes], list[tuple[bytes, bytes]]]:
    """Train a byte-level BPE in GPT-2's style: ``(vocab, merges)``, tokens as bytes.

    1. Cut the special tokens out of ``text`` (the longer first where two
       start at the same place): they are never split, and no pair is
       counted across one.
    2. Split each stretch between them with ``regex.findall(GPT2_SPLIT, ...)``;
       each piece starts as its UTF-8 bytes, one ``bytes`` object a byte.
       A pair is counted inside a piece only, weighed by how often the piece
       occurs.
    3. Merge, one at a time, the pair of largest ``(count, pair)``: on equal
       counts the larger pair of bytes wins, as
       ``max(counts, key=lambda pair: (counts[pair], pair))``. Stop when the
       vocabulary is full or no pair occurs twice.

    ``vocab`` gives ids 0 to 255 to the bytes ``bytes([0])`` to ``bytes([255])``,
    the next ids to the merges' tokens in order, and the ids after them to
    the special tokens (their UTF-8 bytes), so ``len(vocab) <= vocab_size``.
    ``ValueError`` when ``vocab_size`` cannot hold the bytes and the special
    tokens.

    Graded as a bonus: the merges must be the reference's, and on about
    200 KB to a vocabulary of 1,024 your time must stay within 5 times the
    reference's, measured in the same run, and the memory your call adds to
    its process within 4 times the reference's, as the kernel counts it.

    >>> vocab, merges = train_bytes("hug hug hug", 258)
    >>> merges
    [(b'u', b'g'), (b'h', b'ug')]
    >>> vocab[256], vocab[257]
    (b'ug', b'hug')
    """
    # TODO (independent): count each piece once with its frequency; after a merge, recount only the pieces
    # that hold the merged pair (an index from pair to pieces), and find the best pair with a heap.
    raise NotImplementedError




def chunk_text(pieces: Iterable[str], size: int) -> Iterator[str]:
    """The text of ``pieces`` in chunks of at least ``size`` characters, cut where ``encode`` cannot tell.

    Streaming a corpus through ``encode`` without reading it whole: ``pieces``
    is any iterable of strings (lines of a file, blocks of ``f.read(4096)``,
    an endless generator) and ``size`` is at least 1. The chunks joined are
    exactly ``"".join(pieces)``.

    Each chunk but the last ends right after a ``"\\n"`` whose neighbours on
    both sides are not whitespace (``not ch.isspace()``), and is the shortest
    such chunk of at least ``size`` characters; the last chunk is what
    remains (not yielded if empty). Such a cut never changes the ids:
    ``encode`` of the chunks, concatenated, equals ``encode`` of the whole
    text, with GPT-2's pattern and GPT-4's. It is lazy: it reads only as
    many pieces as it needs before yielding a chunk.

    >>> list(chunk_text(["one\\ntwo\\n", "three \\nfour"], 5))
    ['one\\ntwo\\n', 'three \\nfour']
    """
    # TODO (independent): keep what is read but not yet yielded; after each piece, look for the first "\n" at
    # index size - 1 or later with a non-space on both sides (both must have been read) and yield up to it.
    raise NotImplementedError


def write_ids(path: str | os.PathLike[str], ids: list[int], vocab_size: int) -> None:
    """Write ``ids`` to the file ``path`` as a training pipeline stores a token array (nanoGPT's ``train.bin``).

    Each id as an unsigned integer, little-endian, 2 bytes (``uint16``)
    when ``vocab_size <= 65536``, else 4 bytes (``uint32``); no header, so
    the file is ``len(ids)`` times the width long. ``ValueError`` if an id
    is not in ``range(vocab_size)``.

    >>> import tempfile
    >>> path = f"{tempfile.mkdtemp()}/train.bin"
    >>> write_ids(path, [1, 258], 50257)
    >>> open(path, "rb").read()
    b'\\x01\\x00\\x02\\x01'
    """
    # TODO (supported): check each id against range(vocab_size); then struct.pack with "<" (little-endian),
    # one "H" (2 bytes) or "I" (4 bytes) an id, written with open(path, "wb").
    raise NotImplementedError


def read_ids(path: str | os.PathLike[str], vocab_size: int) -> list[int]:
    """The ids ``write_ids`` wrote to ``path`` for a vocabulary of ``vocab_size`` tokens.

    The file is read as unsigned integers, little-endian, 2 bytes each when
    ``vocab_size <= 65536``, else 4, with no header. ``ValueError`` when the
    file's length is not a multiple of that width.

    >>> import tempfile
    >>> path = f"{tempfile.mkdtemp()}/train.bin"
    >>> write_ids(path, [1, 258], 50257)
    >>> read_ids(path, 50257)
    [1, 258]
    """
    # TODO (supported): read the file's bytes ("rb"); check the length against the width; struct.unpack with
    # the format write_ids packs with.
    raise NotImplementedError
