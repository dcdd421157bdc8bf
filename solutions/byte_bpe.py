"""Part 4: byte-level BPE, as GPT-2 and its descendants tokenize.

Parts 2 and 3 started from characters, so a character never seen in
training had no id. Here training starts from the UTF-8 bytes of the text:
every string is a sequence of bytes 0 to 255, so the 256 byte values are the
whole starting vocabulary and any text at all can be encoded. Each merge
gives a new id, 256 for the first, 257 for the next, and so on. No function
here changes the arguments it is given.

A worked example, the first merges on a tiny corpus:

>>> merges = train_bpe("aaabdaaabac", vocab_size=259)
>>> merges
{(97, 97): 256, (256, 97): 257, (257, 98): 258}
>>> encode("aaabdaaabac", merges)
[258, 100, 258, 97, 99]
>>> decode([258, 100], merges)
'aaabd'
"""

from __future__ import annotations

from collections import Counter

import regex

BYTE_VALUES = 256

# GPT-2's pre-split (Radford et al. 2019, as its encoder.py has it): contractions,
# runs of letters, of numbers (\p{N}: digits, ², ½), of other symbols (each
# with at most one space in front), and runs of spaces. \p{L} and \p{N} need the `regex` module.
GPT2_SPLIT_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def get_pair_counts(ids: list[int]) -> Counter[tuple[int, int]]:
    """Count how often each adjacent pair of ids occurs; overlapping pairs all count.

    >>> get_pair_counts([1, 2, 1, 2])
    Counter({(1, 2): 2, (2, 1): 1})
    """
    ### TODO (guided): Part 2's get_pair_counts works unchanged on ids.
    ### BEGIN SOLUTION
    pair_counts: Counter[tuple[int, int]] = Counter()
    for pair in zip(ids, ids[1:], strict=False):
        pair_counts[pair] += 1
    return pair_counts
    ### END SOLUTION


def merge_pair(ids: list[int], pair: tuple[int, int], new_id: int) -> list[int]:
    """A new list in which each occurrence of ``pair``, scanning left to right, becomes ``new_id``.

    Once two ids are merged, continue after both. The list you are given
    stays as it was.

    >>> merge_pair([5, 6, 6, 6], (6, 6), 256)
    [5, 256, 6]
    """
    ### TODO (supported): Part 2's merge_pair, appending new_id where it appended the joined string.
    ### BEGIN SOLUTION
    merged: list[int] = []
    index = 0
    while index < len(ids):
        if index + 1 < len(ids) and ids[index] == pair[0] and ids[index + 1] == pair[1]:
            merged.append(new_id)
            index += 2
        else:
            merged.append(ids[index])
            index += 1
    return merged
    ### END SOLUTION


def train_bpe(text: str, vocab_size: int) -> dict[tuple[int, int], int]:
    """Learn merges from ``text`` until the vocabulary has ``vocab_size`` ids; return ``{pair: new_id}``.

    Start from ``list(text.encode("utf-8"))``. Merge ``i`` (counting from 0)
    gets the id ``256 + i``, so at most ``vocab_size - 256`` merges are made;
    stop early when no pair occurs at least twice. Ties: any most frequent
    pair is correct. A ``vocab_size`` below 256 cannot hold the bytes
    themselves: raise ``ValueError`` saying so.

    >>> train_bpe("abab", vocab_size=300)
    {(97, 98): 256}
    """
    ### TODO (independent): check vocab_size, then Part 2's loop on bytes, recording merges[pair] = 256 + i.
    ### BEGIN SOLUTION
    if vocab_size < BYTE_VALUES:
        raise ValueError(f"vocab_size {vocab_size} is below 256: the vocabulary must hold every byte value")
    ids = list(text.encode("utf-8"))
    merges: dict[tuple[int, int], int] = {}
    for new_id in range(BYTE_VALUES, vocab_size):
        pair_counts = get_pair_counts(ids)
        if not pair_counts:
            break
        best_pair, best_count = pair_counts.most_common(1)[0]
        if best_count < 2:
            break
        ids = merge_pair(ids, best_pair, new_id)
        merges[best_pair] = new_id
    return merges
    ### END SOLUTION


def encode(text: str, merges: dict[tuple[int, int], int]) -> list[int]:
    """The ids of ``text``: its UTF-8 bytes, then every merge applied in order of its new id.

    Order matters: merges are applied by increasing new id (the order they
    were learned), whatever order the dict happens to list them in.

    >>> encode("abc", {(97, 98): 256})
    [256, 99]
    """
    ### TODO (supported): sort merges.items() by the new id, then merge_pair once per merge.
    ### BEGIN SOLUTION
    ids = list(text.encode("utf-8"))
    for pair, new_id in sorted(merges.items(), key=lambda item: item[1]):
        ids = merge_pair(ids, pair, new_id)
    return ids
    ### END SOLUTION


def decode(ids: list[int], merges: dict[tuple[int, int], int]) -> str:
    """The text of ``ids``: each id's bytes, joined, decoded as UTF-8 with ``errors="replace"``.

    Ids 0 to 255 are single bytes; a merged id is the bytes of its pair.
    Bytes that are not valid UTF-8 (half a character, say) become U+FFFD
    instead of raising.

    >>> decode([256, 99], {(97, 98): 256})
    'abc'
    >>> decode([226, 130], {})
    '\ufffd'
    """
    ### TODO (supported): build {id: bytes} for 0..255, then add each merge in id order; join and decode.
    ### BEGIN SOLUTION
    token_bytes = _token_bytes(merges)
    return b"".join(token_bytes[value] for value in ids).decode("utf-8", errors="replace")
    ### END SOLUTION


### BEGIN SOLUTION
def _token_bytes(merges: dict[tuple[int, int], int]) -> dict[int, bytes]:
    token_bytes = {value: bytes([value]) for value in range(BYTE_VALUES)}
    for (first, second), new_id in sorted(merges.items(), key=lambda item: item[1]):
        token_bytes[new_id] = token_bytes[first] + token_bytes[second]
    return token_bytes


### END SOLUTION


# What GPT-2 adds to the functions above; Part 6's encode is built on these.
#
# GPT-2 never lets a merge cross from a word into the space or punctuation
# around it: the text is first split into pieces with GPT2_SPLIT_PATTERN
# ("Hello world!" -> "Hello", " world", "!"), and pairs are counted and merged
# inside each piece only. And some tokens are not text at all: a special
# token such as "<|endoftext|>" marks where one document ends. It gets one id
# of its own and is never split, merged or encoded as the bytes it is spelled with.


def train_on_pieces(text: str, vocab_size: int) -> dict[tuple[int, int], int]:
    """``train_bpe``, but pairs are counted and merged inside the pieces of GPT-2's pre-split only.

    Split ``text`` with ``regex.findall(GPT2_SPLIT_PATTERN, text)``; each piece
    starts as its UTF-8 bytes. A pair's count is its count summed over all
    pieces, and no pair ever spans two pieces. Otherwise as ``train_bpe``:
    ids from 256, at most ``vocab_size - 256`` merges, stop when no pair
    occurs twice, ``ValueError`` below 256, any most frequent pair on ties.

    >>> train_on_pieces("a a a a", vocab_size=300)
    {(32, 97): 256}
    """
    ### TODO (independent): train_bpe's loop over a list of pieces: count pairs in every piece, merge in every piece.
    ### BEGIN SOLUTION
    if vocab_size < BYTE_VALUES:
        raise ValueError(f"vocab_size {vocab_size} is below 256: the vocabulary must hold every byte value")
    pieces = [list(piece.encode("utf-8")) for piece in regex.findall(GPT2_SPLIT_PATTERN, text)]
    merges: dict[tuple[int, int], int] = {}
    for new_id in range(BYTE_VALUES, vocab_size):
        pair_counts: Counter[tuple[int, int]] = Counter()
        for piece in pieces:
            pair_counts.update(get_pair_counts(piece))
        if not pair_counts:
            break
        best_pair, best_count = pair_counts.most_common(1)[0]
        if best_count < 2:
            break
        pieces = [merge_pair(piece, best_pair, new_id) for piece in pieces]
        merges[best_pair] = new_id
    return merges
    ### END SOLUTION


def encode_with_specials(text: str, merges: dict[tuple[int, int], int], special_tokens: dict[str, int]) -> list[int]:
    """The ids of ``text`` in which each special token is its own id, and everything else GPT-2's pieces, encoded.

    ``special_tokens`` maps a token's text to its id, e.g.
    ``{"<|endoftext|>": 50256}``. Where two special tokens could start at the
    same place, the longer one wins. The text between special tokens is split
    with ``GPT2_SPLIT_PATTERN`` and each piece encoded on its own with
    ``encode``, so no merge crosses a piece or touches a special token.

    >>> encode_with_specials("hi<|endoftext|>hi", {(104, 105): 256}, {"<|endoftext|>": 50256})
    [256, 50256, 256]
    """
    ### TODO (independent): regex.split on the escaped special tokens (longest first, in a capturing group),
    ### then map special tokens to their ids and encode every piece of the rest.
    ### BEGIN SOLUTION
    chunks = [text]
    if special_tokens:
        by_length = sorted(special_tokens, key=len, reverse=True)
        chunks = regex.split("(" + "|".join(regex.escape(token) for token in by_length) + ")", text)
    ids: list[int] = []
    for index, chunk in enumerate(chunks):
        if index % 2:  # split() puts the captured special tokens at the odd places
            ids.append(special_tokens[chunk])
            continue
        for piece in regex.findall(GPT2_SPLIT_PATTERN, chunk):
            ids.extend(encode(piece, merges))
    return ids
    ### END SOLUTION


def decode_with_specials(ids: list[int], merges: dict[tuple[int, int], int], special_tokens: dict[str, int]) -> str:
    """The text of ``ids``, where the id of a special token stands for that token's text.

    Every other id is decoded as ``decode`` does: all bytes joined first, then
    decoded as UTF-8 with ``errors="replace"``.

    >>> decode_with_specials([256, 50256, 256], {(104, 105): 256}, {"<|endoftext|>": 50256})
    'hi<|endoftext|>hi'
    """
    ### TODO (supported): decode's {id: bytes} table, plus each special id mapped to its token's UTF-8 bytes.
    ### BEGIN SOLUTION
    token_bytes = _token_bytes(merges)
    token_bytes.update({new_id: token.encode("utf-8") for token, new_id in special_tokens.items()})
    return b"".join(token_bytes[value] for value in ids).decode("utf-8", errors="replace")
    ### END SOLUTION
