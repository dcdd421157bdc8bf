# Part 2: fill in each TODO, then run `grade` in this folder to check your work.
"""Part 2: Byte Pair Encoding over the characters of a text.

BPE starts from characters and learns, one merge at a time, which adjacent
pair to glue into a new token: always the pair that occurs most often. After
enough merges, frequent words and word pieces are single tokens while rare
text still falls back to characters. Only a character the training text never
held has no token: ``encode`` raises ``KeyError`` for it (Part 4 starts from
bytes, which removes that gap).

Here the whole text is one sequence of characters: spaces and newlines are
tokens like any other, and there is no end-of-word marker (that is Part 3).
No function here changes the arguments it is given.

A worked example, the first merges on a tiny corpus:

>>> tokens, merges = train_bpe("aaabdaaabac", num_merges=3)
>>> merges
[('a', 'a'), ('aa', 'a'), ('aaa', 'b')]
>>> tokens
['aaab', 'd', 'aaab', 'a', 'c']
"""

from __future__ import annotations

from collections import Counter


def get_pair_counts(tokens: list[str]) -> Counter[tuple[str, str]]:
    """Count how often each adjacent pair of tokens occurs.

    Overlapping pairs all count: ``["a", "a", "a"]`` holds ``("a", "a")``
    twice. Fewer than two tokens hold no pair, so the result is empty. Any
    dict with the same items is accepted; a ``Counter`` is handy.

    >>> get_pair_counts(["l", "o", "l", "o"])
    Counter({('l', 'o'): 2, ('o', 'l'): 1})
    """
    # TODO (guided): walk over neighbours with zip(tokens, tokens[1:]) and count each pair.
    raise NotImplementedError


def merge_pair(tokens: list[str], pair: tuple[str, str]) -> list[str]:
    """A new list in which each occurrence of ``pair`` becomes the one token ``pair[0] + pair[1]``.

    Scan left to right; once two tokens are merged, continue after both, so
    occurrences never overlap: ``["a", "a", "a"]`` with ``("a", "a")`` gives
    ``["aa", "a"]``. Tokens are compared whole: ``["ab", "c"]`` does not hold
    the pair ``("a", "bc")``. The list you are given stays as it was.

    >>> merge_pair(["h", "e", "l", "l", "o"], ("l", "l"))
    ['h', 'e', 'll', 'o']
    """
    # TODO (supported): build a new list with an index that jumps by 2 after a merge, by 1 otherwise.
    raise NotImplementedError


def train_bpe(text: str, num_merges: int = 20) -> tuple[list[str], list[tuple[str, str]]]:
    """Learn up to ``num_merges`` merges from ``text``; return ``(final_tokens, merges)``.

    Start from the characters of ``text``. Each step: count the pairs, take
    the most frequent one, and stop early if there is no pair or the best
    count is below 2; otherwise merge it everywhere and record it. When
    several pairs tie for most frequent, any of them is correct (this
    reference takes the one that occurs first, as ``Counter.most_common``
    does). Joining the final tokens gives back ``text``.

    >>> train_bpe("abab", num_merges=5)
    (['ab', 'ab'], [('a', 'b')])
    """
    # TODO (independent): loop get_pair_counts -> pick the best pair -> merge_pair, with two ways to stop.
    raise NotImplementedError


def build_bpe_vocab(text: str, merges: list[tuple[str, str]]) -> dict[str, int]:
    """Number the distinct characters of ``text`` and the token ``a + b`` of every merge.

    Ids run 0 to n-1 in order of ``(len(token), token)``: shorter tokens
    first, ties in sorted order. A token made twice is numbered once. This
    numbering is this part's own; real tokenizers (and Parts 4 and 6) give a
    merged token the id after the merges before it.

    >>> build_bpe_vocab("abab", [("a", "b")])
    {'a': 0, 'b': 1, 'ab': 2}
    """
    # TODO (supported): gather the tokens in a set, then sort with key=lambda token: (len(token), token).
    raise NotImplementedError


def encode(text: str, merges: list[tuple[str, str]], vocab: dict[str, int]) -> list[int]:
    """Token ids for ``text``: its characters, every merge applied in learned order, then looked up.

    Order matters: apply ``merges[0]`` everywhere first, then ``merges[1]``,
    and so on, each with ``merge_pair``. Only text made of characters the
    vocabulary knows is graded.

    >>> encode("abc", [("a", "b")], {"a": 0, "b": 1, "c": 2, "ab": 3})
    [3, 2]
    """
    # TODO (independent): start from list(text), apply merge_pair once per merge, map tokens to ids.
    raise NotImplementedError


def decode(ids: list[int], vocab: dict[str, int]) -> str:
    """The text for ``ids``: turn the vocabulary around (id to token) and join the tokens.

    ``decode(encode(text, merges, vocab), vocab) == text`` for any text over
    the training alphabet.

    >>> decode([3, 2], {"a": 0, "b": 1, "c": 2, "ab": 3})
    'abc'
    """
    # TODO (guided): build {id: token} from vocab, then "".join the tokens of ids.
    raise NotImplementedError
