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
    ### TODO (supported): collect the bytes that stand for themselves (three ranges of ord()); walk 0..255 and
    ### give each other byte chr(256 + n), counting n up from 0.
    ### BEGIN SOLUTION
    printable = {*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)}
    unicode_of: dict[int, str] = {}
    shifted = 0
    for byte in range(256):
        if byte in printable:
            unicode_of[byte] = chr(byte)
        else:
            unicode_of[byte] = chr(256 + shifted)
            shifted += 1
    return unicode_of
    ### END SOLUTION


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
    ### TODO (supported): json.load the vocabulary; split the merges file's text on "\n", skip the #version line
    ### and empty lines, and split each line on its one space.
    ### BEGIN SOLUTION
    root = Path(folder)
    vocab = json.loads((root / VOCAB_FILE).read_text(encoding="utf-8"))
    merge_lines = (root / MERGES_FILE).read_text(encoding="utf-8").split("\n")
    if merge_lines and merge_lines[0].startswith("#version"):
        merge_lines = merge_lines[1:]
    ranked_merges: list[tuple[str, str]] = []
    for line in merge_lines:
        if line:
            first, second = line.split(" ")
            ranked_merges.append((first, second))
    return vocab, ranked_merges
    ### END SOLUTION


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
    ### TODO (supported): make the folder (os.makedirs with exist_ok=True), json.dump the vocabulary, and write
    ### the header line, then one "first second" line per merge.
    ### BEGIN SOLUTION
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    (root / VOCAB_FILE).write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    lines = [MERGES_HEADER, *(f"{first} {second}" for first, second in merges)]
    (root / MERGES_FILE).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    ### END SOLUTION


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
    ### TODO (supported): regex.split on the escaped special tokens, sorted longest first and joined with | in
    ### one capturing group (so the tokens are kept); then leave out the empty strings.
    ### BEGIN SOLUTION
    longest_first = sorted(special_tokens, key=len, reverse=True)
    if not longest_first:  # an empty alternation would match between every two characters
        return [text] if text else []
    stretches = regex.split("(" + "|".join(regex.escape(token) for token in longest_first) + ")", text)
    return [stretch for stretch in stretches if stretch]
    ### END SOLUTION


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
    ### TODO (supported): loop: find the adjacent pair of lowest rank (ranks.get with infinity for no rank); stop
    ### when none has one; else rebuild the list, joining that pair at every place, left to right.
    ### BEGIN SOLUTION
    tokens = list(piece)
    while len(tokens) > 1:
        lowest, at = NO_RANK, 0
        for index, pair in enumerate(zip(tokens, tokens[1:], strict=False)):
            rank = ranks.get(pair, NO_RANK)
            if rank < lowest:  # the first occurrence of the lowest rank
                lowest, at = rank, index
        if lowest == NO_RANK:
            break
        first, second = tokens[at], tokens[at + 1]
        while at + 1 < len(tokens):  # that occurrence, then each later one, left to right
            if tokens[at] == first and tokens[at + 1] == second:
                tokens[at : at + 2] = [first + second]
            at += 1
    return tokens
    ### END SOLUTION


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
    ### TODO (supported): ranks from merges (a pair's index; the first where one is listed twice); then for each
    ### stretch of split_specials, a special token's id, or each piece spelled and merged with merge_by_rank.
    ### BEGIN SOLUTION
    ranks: dict[tuple[str, str], int] = {}
    for rank, pair in enumerate(merges):
        ranks.setdefault(pair, rank)  # a pair listed twice keeps its first, lowest, rank
    spelled = bytes_to_unicode()
    specials = set(special_tokens)
    ids: list[int] = []
    known: dict[str, list[int]] = {}  # each piece's ids, once: a text repeats its words
    for stretch in split_specials(text, special_tokens):
        if stretch in specials:  # text between special tokens never equals one: it would have been cut out
            ids.append(vocab[stretch])
            continue
        for piece in regex.findall(pattern, stretch):
            if piece not in known:
                characters = "".join(spelled[byte] for byte in piece.encode("utf-8"))
                known[piece] = [vocab[token] for token in merge_by_rank(characters, ranks)]
            ids.extend(known[piece])
    return ids
    ### END SOLUTION


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
    ### TODO (supported): the special tokens not in allowed; the first stretch of split_specials(text, those) that
    ### is one of them is the token to name; else return encode with special_tokens=allowed.
    ### BEGIN SOLUTION
    refused = [token for token in special_tokens if token not in allowed]
    # split_specials cuts at the leftmost refused token, the longer where two start there: the one to name.
    for stretch in split_specials(text, refused):
        if stretch in refused:
            raise ValueError(f"the text holds the special token {stretch!r}, which this call does not allow")
    return encode(text, vocab, merges, pattern=pattern, special_tokens=allowed)
    ### END SOLUTION


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
    ### TODO (supported): copy vocab (dict(vocab)); the next id is max of its ids plus one (max(..., default=-1));
    ### give it to each name the copy lacks, in order, counting up.
    ### BEGIN SOLUTION
    grown = dict(vocab)
    next_id = max(vocab.values(), default=-1) + 1  # ids may have gaps: len(vocab) could be an id in use
    for token in names:
        if token not in grown:
            grown[token] = next_id
            next_id += 1
    return grown
    ### END SOLUTION


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
    ### TODO (independent): for each token of two or more bytes, in rank order, run BPE on its bytes with only
    ### the tokens ranked below it; the two parts left are its merge. Spell tokens with bytes_to_unicode.
    ### BEGIN SOLUTION
    spelled = bytes_to_unicode()

    def written(token: bytes) -> str:
        return "".join(spelled[byte] for byte in token)

    vocab = {written(token): rank for token, rank in mergeable_ranks.items()}
    merges: list[tuple[str, str]] = []
    for token, limit in sorted(mergeable_ranks.items(), key=lambda item: item[1]):
        if len(token) < 2:
            continue
        pieces = [token[at : at + 1] for at in range(len(token))]
        while len(pieces) > 2:
            lowest, at = limit, -1
            for index in range(len(pieces) - 1):
                rank = mergeable_ranks.get(pieces[index] + pieces[index + 1], limit)
                if rank < lowest:  # the first place of the lowest rank below the token's own
                    lowest, at = rank, index
            if at < 0:
                break
            pieces[at : at + 2] = [pieces[at] + pieces[at + 1]]
        if len(pieces) > 2:
            raise ValueError(f"no two tokens ranked below {token!r} make it: the table is not a byte-level BPE")
        merges.append((written(pieces[0]), written(pieces[1])))
    return vocab, merges
    ### END SOLUTION


def decode(ids: list[int], vocab: dict[str, int]) -> str:
    """The text of ``ids``: their tokens joined, each character mapped back to its byte, decoded as UTF-8.

    Find each id's token (invert ``vocab``), join them, turn every character
    back into the byte it stands for (invert ``bytes_to_unicode``), and
    decode the bytes with ``errors="replace"``: ids that end inside a
    character give ``"\\ufffd"`` instead of raising.

    >>> decode([3, 4], {"h": 0, "i": 1, "Ġ": 2, "hi": 3, "Ġhi": 4})
    'hi hi'
    """
    ### TODO (supported): invert vocab and bytes_to_unicode(); bytes(...) of every character's byte, then decode.
    ### BEGIN SOLUTION
    token_by_id = {token_id: token for token, token_id in vocab.items()}
    byte_of = {character: byte for byte, character in bytes_to_unicode().items()}
    text = "".join(token_by_id[token_id] for token_id in ids)
    return bytes(byte_of[character] for character in text).decode("utf-8", errors="replace")
    ### END SOLUTION


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
    ### TODO (independent): count each piece once with its frequency; after a merge, recount only the pieces
    ### that hold the merged pair (an index from pair to pieces), and find the best pair with a heap.
    ### BEGIN SOLUTION
    specials = list(dict.fromkeys(special_tokens))
    merge_budget = vocab_size - BYTE_VALUES - len(specials)
    if merge_budget < 0:
        raise ValueError(f"vocab_size {vocab_size} cannot hold the 256 bytes and the special tokens {specials}")
    merges = _merges_of(_piece_counts(text, specials), merge_budget)
    vocab = {token_id: bytes([token_id]) for token_id in range(BYTE_VALUES)}
    for first, second in merges:
        vocab[len(vocab)] = first + second
    for token in specials:
        vocab[len(vocab)] = token.encode("utf-8")
    return vocab, merges
    ### END SOLUTION


### BEGIN SOLUTION
def _merges_of(piece_counts: Counter[str], merge_budget: int) -> list[tuple[bytes, bytes]]:
    """At most ``merge_budget`` merges learned from each piece's count, largest ``(count, pair)`` first."""
    # Each distinct piece once, as a list of tokens, with how often it occurs.
    pieces = [[bytes([byte]) for byte in piece.encode("utf-8")] for piece in piece_counts]
    weights = list(piece_counts.values())
    pair_counts: Counter[tuple[bytes, bytes]] = Counter()
    holders: dict[tuple[bytes, bytes], set[int]] = {}  # the pieces a pair may be in (some no longer)
    for index, tokens in enumerate(pieces):
        for pair in zip(tokens, tokens[1:], strict=False):
            pair_counts[pair] += weights[index]
            holders.setdefault(pair, set()).add(index)
    heap = [_Largest(count, pair) for pair, count in pair_counts.items()]
    heapq.heapify(heap)
    merges: list[tuple[bytes, bytes]] = []
    while len(merges) < merge_budget and heap:
        top = heapq.heappop(heap)
        if pair_counts.get(top.pair, 0) != top.count:
            continue  # an entry from before the pair's count changed
        if top.count < 2:
            break
        merges.append(top.pair)
        changed: set[tuple[bytes, bytes]] = set()
        for index in holders.pop(top.pair, ()):
            tokens = pieces[index]
            merged = _merge_tokens(tokens, top.pair)
            if len(merged) == len(tokens):
                continue
            for pair in zip(tokens, tokens[1:], strict=False):
                pair_counts[pair] -= weights[index]
                changed.add(pair)
            for pair in zip(merged, merged[1:], strict=False):
                pair_counts[pair] += weights[index]
                holders.setdefault(pair, set()).add(index)
                changed.add(pair)
            pieces[index] = merged
        for pair in changed:  # a count of 0 is pushed too: it pops last, where training stops anyway
            heapq.heappush(heap, _Largest(pair_counts[pair], pair))
    return merges


class _Largest:
    """A heap entry that heapq, a min-heap, pops largest ``(count, pair)`` first."""

    __slots__ = ("count", "pair")

    def __init__(self, count: int, pair: tuple[bytes, bytes]) -> None:
        self.count = count
        self.pair = pair

    # Quoted: a notebook nests the helpers in a function's cell, where the class's name is not bound yet.
    def __lt__(self, other: "_Largest") -> bool:  # noqa: UP037
        return (self.count, self.pair) > (other.count, other.pair)


def _piece_counts(text: str, specials: list[str]) -> Counter[str]:
    """How often each piece of GPT-2's pre-split occurs in ``text``, the special tokens cut out first."""
    chunks = [text]
    if specials:
        longest_first = sorted(specials, key=len, reverse=True)
        chunks = regex.split("|".join(regex.escape(token) for token in longest_first), text)
    counts: Counter[str] = Counter()
    for chunk in chunks:
        counts.update(regex.findall(GPT2_SPLIT, chunk))
    return counts


def _merge_tokens(tokens: list[bytes], pair: tuple[bytes, bytes]) -> list[bytes]:
    """``tokens`` with each occurrence of ``pair`` made one token, left to right."""
    first, second = pair
    merged: list[bytes] = []
    at = 0
    while at < len(tokens):
        if at + 1 < len(tokens) and tokens[at] == first and tokens[at + 1] == second:
            merged.append(first + second)
            at += 2
        else:
            merged.append(tokens[at])
            at += 1
    return merged


### END SOLUTION


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
    ### TODO (independent): keep what is read but not yet yielded; after each piece, look for the first "\n" at
    ### index size - 1 or later with a non-space on both sides (both must have been read) and yield up to it.
    ### BEGIN SOLUTION
    held = ""  # read but not yet yielded
    looked = 0  # every "\n" before this index in ``held`` is no cut
    for piece in pieces:
        held += piece
        while True:
            at = held.find("\n", max(looked, size - 1, 1))  # a "\n" at 0 has nothing on its left
            while at != -1 and at + 1 < len(held) and (held[at - 1].isspace() or held[at + 1].isspace()):
                at = held.find("\n", at + 1)
            if at == -1 or at + 1 == len(held):  # no cut yet, or one that waits for the next character
                looked = len(held) if at == -1 else at
                break
            yield held[: at + 1]
            held, looked = held[at + 1 :], 0
    if held:
        yield held
    ### END SOLUTION


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
    ### TODO (supported): check each id against range(vocab_size); then struct.pack with "<" (little-endian),
    ### one "H" (2 bytes) or "I" (4 bytes) an id, written with open(path, "wb").
    ### BEGIN SOLUTION
    outside = [token_id for token_id in ids if not 0 <= token_id < vocab_size]
    if outside:
        raise ValueError(f"id {outside[0]} is not in range({vocab_size})")
    code = "H" if vocab_size <= UINT16_IDS else "I"  # struct's unsigned 2 and 4 bytes
    with open(path, "wb") as written:
        written.write(struct.pack(f"<{len(ids)}{code}", *ids))
    ### END SOLUTION


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
    ### TODO (supported): read the file's bytes ("rb"); check the length against the width; struct.unpack with
    ### the format write_ids packs with.
    ### BEGIN SOLUTION
    code = "H" if vocab_size <= UINT16_IDS else "I"  # as write_ids packs them
    data = Path(path).read_bytes()
    width = struct.calcsize(f"<{code}")
    if len(data) % width:
        raise ValueError(f"{len(data)} bytes are not a whole number of {width}-byte ids")
    return list(struct.unpack(f"<{len(data) // width}{code}", data))
    ### END SOLUTION
