# Part 3: fill in each TODO, then run `grade` in this folder to check your work.
"""Part 3: classic word-level BPE, as Sennrich, Haddow and Birch (2016) trained it.

Part 2 ran BPE over the whole text, so a merge could glue the end of one
word to the start of the next. Here the text is first cut into words (and
runs of punctuation), each word is spelled out as its characters followed by
the end-of-word marker ``"</w>"``, and training works on how often each
distinct word occurs. Merges therefore never cross a word boundary, and the
marker lets word endings (``"ing</w>"``, ``"ed</w>"``) become units of their
own. No function here changes the arguments it is given.

A worked example, the first merges on a tiny corpus:

>>> train_bpe("low lower lowest low", num_merges=3)
[('l', 'o'), ('lo', 'w'), ('low', '</w>')]
>>> encode("lowly", [("l", "o"), ("lo", "w"), ("low", "</w>")])
['low', 'l', 'y', '</w>']
"""

from __future__ import annotations

import re
from collections import Counter

END_OF_WORD = "</w>"
# Words (letters, digits, underscore) or runs of punctuation; whitespace only separates.
PRE_TOKEN = re.compile(r"\w+|[^\s\w]+")

Word = tuple[str, ...]


def pre_tokenize(text: str) -> list[str]:
    """Cut ``text`` into words and runs of punctuation, in order, case kept.

    Uses the pattern ``r"\\w+|[^\\s\\w]+"``: whitespace only separates, and
    punctuation never sticks to a word.

    >>> pre_tokenize("Don't stop, now!")
    ['Don', "'", 't', 'stop', ',', 'now', '!']
    """
    # TODO (guided): one call of re.findall with the pattern above (it is PRE_TOKEN, compiled).
    raise NotImplementedError


def word_frequencies(text: str) -> dict[Word, int]:
    """How often each pre-token occurs, each spelled as its characters plus ``"</w>"``.

    >>> word_frequencies("to be or not to be")
    {('t', 'o', '</w>'): 2, ('b', 'e', '</w>'): 2, ('o', 'r', '</w>'): 1, ('n', 'o', 't', '</w>'): 1}
    """
    # TODO (guided): count tuple(word) + (END_OF_WORD,) for each word of pre_tokenize(text).
    raise NotImplementedError


def get_pair_counts(word_freqs: dict[Word, int]) -> Counter[tuple[str, str]]:
    """Count the adjacent pairs of symbols inside each word, each weighted by the word's frequency.

    A word that occurs 5 times adds 5 for each of its pairs. Pairs never
    span two words. Any dict with the same items is accepted.

    >>> get_pair_counts({("a", "b", "</w>"): 3, ("b", "</w>"): 1})
    Counter({('b', '</w>'): 4, ('a', 'b'): 3})
    """
    # TODO (supported): Part 2's counting, once per word, adding the word's frequency instead of 1.
    raise NotImplementedError


def merge_pair(word_freqs: dict[Word, int], pair: tuple[str, str]) -> dict[Word, int]:
    """A new table in which ``pair`` is merged in every word, left to right, whole symbols only.

    Within a word this is Part 2's ``merge_pair``: once two symbols are
    merged, continue after both. Should two words become the same after the
    merge, their frequencies add up. The table you are given stays as it was.

    >>> merge_pair({("l", "o", "w", "</w>"): 2, ("o", "w", "</w>"): 1}, ("o", "w"))
    {('l', 'ow', '</w>'): 2, ('ow', '</w>'): 1}
    """
    # TODO (supported): rebuild each word symbol by symbol with an index, as in Part 2, into a new dict.
    raise NotImplementedError


def train_bpe(text: str, num_merges: int) -> list[tuple[str, str]]:
    """Learn up to ``num_merges`` merges from the word frequencies of ``text``; return them in order.

    Each step: count the weighted pairs, take the most frequent one, stop
    early if there is no pair or the best count is below 2, otherwise merge
    it in every word and record it. Ties: any most frequent pair is
    correct (this reference takes the first, as ``Counter.most_common``).

    >>> train_bpe("aaa aaa b", num_merges=5)
    [('a', 'a'), ('aa', 'a'), ('aaa', '</w>')]
    """
    # TODO (independent): Part 2's training loop, over word_frequencies(text) instead of a list of characters.
    raise NotImplementedError


def encode(text: str, merges: list[tuple[str, str]]) -> list[str]:
    """The tokens of ``text``: each pre-token spelled out with ``"</w>"``, merges applied in learned order.

    The words' token lists are concatenated. A character never seen in
    training simply stays a token of its own: nothing is unknown.

    >>> encode("low low", [("l", "o"), ("lo", "w")])
    ['low', '</w>', 'low', '</w>']
    """
    # TODO (supported): for each word, start from list(word) + [END_OF_WORD] and apply each merge in order.
    raise NotImplementedError


def encode_by_rank(text: str, merges: list[tuple[str, str]]) -> list[str]:
    """The tokens of ``encode``, found as GPT-2 finds them: in each word, the pair of lowest rank first.

    A merge's rank is its index in ``merges``. Within each pre-token
    (its characters plus ``"</w>"``), take the adjacent pair with the lowest
    rank, merge it wherever it occurs in the word, left to right, and repeat
    until no adjacent pair is a merge. Only the pairs a word holds are ever
    looked at, never the whole list of merges. For merges that ``train_bpe``
    made this gives exactly ``encode``'s tokens: a merge can only create
    pairs that were learned later than itself.

    >>> merges = [("l", "o"), ("lo", "w"), ("e", "r"), ("low", "er")]
    >>> encode_by_rank("lower", merges)
    ['lower', '</w>']
    """
    # TODO (independent): a dict from pair to rank; per word, merge its lowest-ranked pair until none is a merge.
    raise NotImplementedError


def decode(tokens: list[str]) -> str:
    """The text of ``tokens``: joined, each ``"</w>"`` ending a word, words separated by one space.

    No space before the first word or after the last.
    ``decode(encode(text, merges)) == " ".join(pre_tokenize(text))``.

    >>> decode(["low", "</w>", "er", "</w>"])
    'low er'
    """
    # TODO (guided): join everything, then turn each END_OF_WORD into a space and strip the last one.
    raise NotImplementedError
