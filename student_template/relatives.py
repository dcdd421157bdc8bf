# Part 7: fill in each TODO, then run `grade` in this folder to check your work.
"""Part 7: BPE's relatives, WordPiece and Unigram, each segmenting one word.

BPE stores merges and replays them. WordPiece (BERT) stores only a
vocabulary: a word is cut by taking, from the left, the longest piece the
vocabulary holds, and a piece inside a word is written with the prefix
``"##"``. Unigram (T5, through SentencePiece) stores a vocabulary with a
log-probability for every piece, and a word is cut into the pieces whose
log-probabilities add up to the most: a search over all splits, done with
dynamic programming (Viterbi). Both answers are unique, so both are graded:
the grader's log-probabilities are multiples of 1/4, so every sum is exact
and an equal sum is a real tie.
No function here changes the arguments it is given.

>>> wordpiece_encode("unhappy", {"un", "##happy", "##h"})
['un', '##happy']
>>> unigram_segment("unhappy", {"un": -2.0, "happy": -3.0, "h": -4.0, "appy": -4.0})
['un', 'happy']
"""

from __future__ import annotations

UNKNOWN = "[UNK]"
CONTINUATION = "##"


def wordpiece_encode(word: str, vocab: set[str]) -> list[str]:
    """Cut ``word`` into WordPiece tokens: at each place, the longest piece of ``vocab`` that starts there.

    A piece after the first is looked up, and returned, with the prefix ``"##"``; the first piece without it.
    When no piece of ``vocab`` starts at some place, the whole word is ``["[UNK]"]``, not just that part.
    The empty word gives ``[]``.

    >>> wordpiece_encode("playing", {"play", "p", "##ing", "##in"})
    ['play', '##ing']
    >>> wordpiece_encode("plays", {"play", "##ing"})
    ['[UNK]']
    """
    # TODO (supported): a while loop over the start; try the end from len(word) down, "##" + piece after
    # the first, and give up on the whole word when no end works.
    raise NotImplementedError


def unigram_segment(word: str, log_probs: dict[str, float]) -> list[str] | None:
    """Split ``word`` into pieces of ``log_probs`` whose log-probabilities add up to the largest sum.

    Of splits with equal sums, the one whose first differing piece is longer wins.
    When no split into pieces of ``log_probs`` exists, the answer is ``None``; the empty word gives ``[]``.

    >>> unigram_segment("hello", {"he": -2.0, "llo": -2.0, "hell": -1.5, "o": -3.0, "h": -1.0})
    ['he', 'llo']
    >>> unigram_segment("hi", {"h": -1.0}) is None
    True
    """
    # TODO (independent): best[i] is the best split of word[i:] (None where there is none), filled from the
    # end: try every piece word[i:j], and on an equal sum keep the longer first piece.
    raise NotImplementedError
