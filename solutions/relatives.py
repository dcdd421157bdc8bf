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
    ### TODO (supported): a while loop over the start; try the end from len(word) down, "##" + piece after
    ### the first, and give up on the whole word when no end works.
    ### BEGIN SOLUTION
    wordpieces: list[str] = []
    start = 0
    while start < len(word):
        prefix = CONTINUATION if start else ""
        end = next((end for end in range(len(word), start, -1) if prefix + word[start:end] in vocab), None)
        if end is None:
            return [UNKNOWN]
        wordpieces.append(prefix + word[start:end])
        start = end
    return wordpieces
    ### END SOLUTION


def unigram_segment(word: str, log_probs: dict[str, float]) -> list[str] | None:
    """Split ``word`` into pieces of ``log_probs`` whose log-probabilities add up to the largest sum.

    Of splits with equal sums, the one whose first differing piece is longer wins.
    When no split into pieces of ``log_probs`` exists, the answer is ``None``; the empty word gives ``[]``.

    >>> unigram_segment("hello", {"he": -2.0, "llo": -2.0, "hell": -1.5, "o": -3.0, "h": -1.0})
    ['he', 'llo']
    >>> unigram_segment("hi", {"h": -1.0}) is None
    True
    """
    ### TODO (independent): best[i] is the best split of word[i:] (None where there is none), filled from the
    ### end: try every piece word[i:j], and on an equal sum keep the longer first piece.
    ### BEGIN SOLUTION
    # From the end backwards, so that a tie is settled by the first piece and the rest is already the best.
    best: list[tuple[float, list[str]] | None] = [None] * len(word) + [(0.0, [])]
    for start in range(len(word) - 1, -1, -1):
        for end in range(len(word), start, -1):  # longest first: on an equal sum the first found stays
            piece, rest = word[start:end], best[end]
            if piece not in log_probs or rest is None:
                continue
            score, current = log_probs[piece] + rest[0], best[start]
            if current is None or score > current[0]:
                best[start] = (score, [piece, *rest[1]])
    found = best[0]
    return None if found is None else found[1]
    ### END SOLUTION
