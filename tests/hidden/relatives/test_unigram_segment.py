"""Part 7: Unigram's best split of a word, by the largest sum of log-probabilities, ties to the longer piece."""

import pytest
from hypothesis import given

from autograder.testing.author_api import domains, examples, hint, reference

ref = reference("relatives")
# Every sum of these is exact: the equal sums below are true ties.
TIED = {"a": -1.0, "b": -1.0, "c": -1.0, "ab": -1.0, "bc": -1.0, "x": -1.0}


def diagnosed(word: str, log_probs: dict[str, float], got: object) -> str:
    """The fix an answer that differs from the reference's needs, named by what the reference's split is."""
    expected = ref.unigram_segment(word, log_probs)
    if not word:
        return hint("the empty word is a split into no pieces: answer []", fix="no_split")
    if expected is None:
        return hint("no split into pieces of log_probs covers the whole word: answer None", fix="no_split")
    pieces = got if isinstance(got, list) and all(isinstance(piece, str) for piece in got) else None
    if pieces is None or "".join(pieces) != word or any(piece not in log_probs for piece in pieces):
        return hint(
            "a split exists: answer pieces that are keys of log_probs and join back to the whole word, trying "
            "every piece word[i:j] at every place",
            fix="largest_sum",
        )
    if sum(log_probs[piece] for piece in pieces) < sum(log_probs[piece] for piece in expected):
        return hint(
            "another split has a larger sum: keep, for every place, the best split of the rest of the word "
            "(dynamic programming), not the longest or the fewest pieces",
            fix="largest_sum",
        )
    return hint(
        "on an equal sum the split whose first differing piece is longer wins: fill the table from the end, and at "
        "each place try the longer pieces first, keeping a tie's first",
        fix="ties",
    )


@pytest.mark.rules("largest_sum")
@pytest.mark.points(2)
def test_a_worked_example(submission):
    """unigram_segment picks the split whose log-probabilities add up to the most"""
    log_probs = {"he": -2.0, "llo": -2.0, "hell": -1.5, "o": -3.0, "h": -1.0, "l": -2.5}
    got = submission.relatives.unigram_segment("hello", dict(log_probs))
    assert got == ["he", "llo"], diagnosed("hello", log_probs, got)


@pytest.mark.rules("largest_sum")
@pytest.mark.points(2)
def test_the_best_sum_wins_over_the_longest_piece_and_the_fewest_pieces(submission):
    """unigram_segment compares whole splits by their sums, not by their first piece or their number of pieces"""
    log_probs = {"abc": -5.0, "d": -1.0, "ab": -1.0, "cd": -1.0, "a": -1.0, "b": -1.0, "c": -1.0}
    got = submission.relatives.unigram_segment("abcd", dict(log_probs))
    assert got == ["ab", "cd"], hint("the longest first piece, 'abc', leaves a worse sum: compare whole splits")
    log_probs = {"abc": -10.0, "a": -1.0, "b": -1.0, "c": -1.0}
    got = submission.relatives.unigram_segment("abc", dict(log_probs))
    assert got == ["a", "b", "c"], hint("more pieces can have the larger sum: -3 beats -10")


@pytest.mark.rules("ties")
@pytest.mark.points(2)
def test_a_tie_goes_to_the_split_whose_first_differing_piece_is_longer(submission):
    """unigram_segment breaks a tie of sums by the first piece where the splits differ: the longer one wins"""
    got = submission.relatives.unigram_segment("abc", dict(TIED))
    assert got == ["ab", "c"], hint(
        "['ab', 'c'] and ['a', 'bc'] both sum to -2: the first differing piece, 'ab', is longer"
    )
    got = submission.relatives.unigram_segment("xabc", dict(TIED))
    assert got == ["x", "ab", "c"], hint(
        "the splits differ first at their second piece: 'ab' beats 'a', whatever the last piece is (a table filled "
        "from the start that keeps the longer last piece gets this wrong)"
    )
    log_probs = {"ab": -2.0, "c": -1.0, "d": -1.0, "a": -2.0, "bcd": -2.0}
    got = submission.relatives.unigram_segment("abcd", dict(log_probs))
    assert got == ["ab", "c", "d"], hint("the longer first differing piece wins even when its split has more pieces")


@pytest.mark.rules("no_split")
@pytest.mark.points(2)
def test_no_split_gives_none_and_the_empty_word_no_pieces(submission):
    """unigram_segment gives None when no split into known pieces covers the word, and [] for the empty word"""
    got = submission.relatives.unigram_segment("abc", {"a": -1.0, "c": -1.0})
    assert got is None, hint("no piece covers 'b', so no split exists: answer None, not a partial split")
    got = submission.relatives.unigram_segment("abc", {"ab": -1.0, "bc": -1.0})
    assert got is None, hint("'ab' and 'bc' overlap and neither leaves a piece for the rest: answer None")
    assert submission.relatives.unigram_segment("", {"a": -1.0}) == [], hint("the empty word is split into no pieces")
    assert submission.relatives.unigram_segment("🙂", {}) is None, hint("with no pieces at all, no split exists")


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_leaves_the_log_probabilities_as_they_were(submission):
    """unigram_segment answers right and does not change the log-probabilities"""
    record = submission.relatives.unigram_segment.call("xabc", dict(TIED))
    assert record.returned == ["x", "ab", "c"], diagnosed("xabc", TIED, record.returned)
    assert not record.mutated, hint("only read log_probs: add no piece and change no value")


@pytest.mark.rules("largest_sum", "ties", "no_split")
@pytest.mark.points(1)
@examples(80)
@given(inputs=domains.strategy("word_and_log_probs"))
def test_hyp_same_split_as_the_reference(submission, inputs):
    """unigram_segment gives the reference's split on any word and pieces, Unicode, ties and no split included"""
    word, log_probs = inputs["word"], inputs["log_probs"]
    got = submission.relatives.unigram_segment(word, dict(log_probs))
    assert got == ref.unigram_segment(word, log_probs), diagnosed(word, log_probs, got)
