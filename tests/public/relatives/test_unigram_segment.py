import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint

# Quarters, so that every sum is exact and an equal sum is a true tie.
EVEN = {"t": -1.0, "o": -1.0, "to": -1.0, "p": -1.0, "op": -1.0, "s": -1.0}


@pytest.mark.rules("largest_sum")
@pytest.mark.points(2)
def test_the_split_with_the_largest_sum_wins(submission):
    """unigram_segment picks the split into known pieces whose log-probabilities add up to the most"""
    log_probs = {"un": -3.0, "do": -2.0, "undo": -6.0, "u": -2.0, "n": -2.0, "d": -1.5, "o": -1.5}
    got = submission.relatives.unigram_segment("undo", dict(log_probs))
    assert got == ["un", "do"], hint("compare the sums of whole splits: -5 for un|do beats -6 for undo")
    log_probs = {"star": -4.0, "st": -1.0, "ar": -1.0, "t": -1.0, "s": -1.0}
    got = submission.relatives.unigram_segment("star", dict(log_probs))
    assert got == ["st", "ar"], hint("the longest first piece is not always best: st|ar sums to -2, star to -4")
    log_probs = {"star": -9.0, "s": -1.0, "t": -1.0, "a": -1.0, "r": -1.0}
    got = submission.relatives.unigram_segment("star", dict(log_probs))
    assert got == ["s", "t", "a", "r"], hint("more pieces can have the larger sum: -4 beats -9")


@pytest.mark.rules("ties")
@pytest.mark.points(2)
def test_equal_sums_go_to_the_longer_first_differing_piece(submission):
    """unigram_segment breaks a tie of sums at the first piece where the splits differ: the longer piece wins"""
    got = submission.relatives.unigram_segment("top", dict(EVEN))
    assert got == ["to", "p"], hint("to|p and t|op both sum to -2: 'to' is longer than 't', so to|p wins")
    got = submission.relatives.unigram_segment("stop", dict(EVEN))
    assert got == ["s", "to", "p"], hint(
        "s|to|p and s|t|op tie, and differ first at their second piece: 'to' beats 't', whatever comes last"
    )


@pytest.mark.rules("no_split")
@pytest.mark.points(1)
def test_no_split_gives_none(submission):
    """unigram_segment gives None when the pieces cannot cover the word, and [] for the empty word"""
    got = submission.relatives.unigram_segment("tip", dict(EVEN))
    assert got is None, hint("no piece holds 'i': answer None, not the pieces found around it")
    assert submission.relatives.unigram_segment("", dict(EVEN)) == [], hint("the empty word is split into no pieces")


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_leaves_the_log_probabilities_as_they_were(submission):
    """unigram_segment answers right and does not change the log-probabilities"""
    record = submission.relatives.unigram_segment.call("tops", dict(EVEN))
    assert record.returned == ["to", "p", "s"], hint(
        "to|p|s and t|op|s tie: 'to' is the longer first piece", fix="ties"
    )
    assert not record.mutated, hint("leave log_probs as it was given: no piece added, no value changed")


def best_by_trying_every_split(word: str, log_probs: dict[str, float]) -> list[str] | None:
    """Every way to cut the word, kept where each piece is known: the largest sum, then the longer pieces first."""
    best: tuple[float, list[int], list[str]] | None = None
    for cuts in itertools.product((False, True), repeat=max(len(word) - 1, 0)):
        pieces, start = [], 0
        for end, cut in enumerate(cuts, start=1):
            if cut:
                pieces.append(word[start:end])
                start = end
        pieces.append(word[start:])
        if word and all(piece in log_probs for piece in pieces):
            key = (sum(log_probs[piece] for piece in pieces), [len(piece) for piece in pieces], pieces)
            if best is None or key[:2] > best[:2]:
                best = key
    return [] if not word else None if best is None else best[2]


@pytest.mark.rules("largest_sum", "ties", "no_split")
@pytest.mark.points(1)
@examples(40)
@given(
    word=st.text(alphabet="ab🙂", max_size=6),
    log_probs=st.dictionaries(
        st.text(alphabet="ab🙂", min_size=1, max_size=3), st.integers(-8, 0).map(lambda quarters: quarters / 4)
    ),
)
def test_hyp_the_best_of_every_split(submission, word, log_probs):
    """unigram_segment gives the best of all splits, found by trying every one, ties and no split included"""
    expected = best_by_trying_every_split(word, log_probs)
    got = submission.relatives.unigram_segment(word, {**log_probs})
    if expected is None or not word:
        assert got == expected, hint("no split, None; the empty word, []", fix="no_split")
    if (
        expected is not None
        and got != expected
        and isinstance(got, list)
        and all(isinstance(piece, str) for piece in got)
        and "".join(got) == word
        and all(piece in log_probs for piece in got)
    ):
        # A split of the word with the best sum, but not the expected one: the tie went the wrong way.
        tied = sum(log_probs[piece] for piece in got) == sum(log_probs[piece] for piece in expected)
        assert not tied, hint("on an equal sum the split whose first differing piece is longer wins", fix="ties")
    assert got == expected, hint(
        "try every piece at every place and keep the split with the largest sum of log-probabilities",
        fix="largest_sum",
    )
