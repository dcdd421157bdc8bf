import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, reference

ref = reference("bpe")


@pytest.mark.rules("adjacent_pairs")
@pytest.mark.points(3)
def test_counts_every_adjacent_pair(submission):
    """get_pair_counts counts each pair of neighbouring tokens"""
    # No two neighbours are equal, so skipping overlaps (the next test's rule) cannot change this count.
    got = submission.bpe.get_pair_counts(list("world"))
    expected = {("w", "o"): 1, ("o", "r"): 1, ("r", "l"): 1, ("l", "d"): 1}
    assert got == expected, hint("pair tokens[i] with tokens[i + 1] for every i, including the last pair")


@pytest.mark.rules("overlapping")
@pytest.mark.points(2)
def test_overlapping_pairs_all_count(submission):
    """get_pair_counts counts overlapping pairs: a a a holds (a, a) twice"""
    got = submission.bpe.get_pair_counts(["a", "a", "a"])
    assert got == {("a", "a"): 2}, hint(
        "counting is not merging: every neighbouring pair counts, even overlapping ones"
    )


@pytest.mark.rules("short")
@pytest.mark.points(1)
def test_fewer_than_two_tokens_hold_no_pair(submission):
    """get_pair_counts of zero or one token is empty (and of two, their one pair)"""
    assert submission.bpe.get_pair_counts(["a", "b"]) == {("a", "b"): 1}, hint("two tokens make one pair")
    assert submission.bpe.get_pair_counts([]) == {}, hint("an empty list has no pairs")
    assert submission.bpe.get_pair_counts(["a"]) == {}, hint("one token has no neighbour")


@pytest.mark.rules("adjacent_pairs")
@pytest.mark.points(1)
def test_pairs_are_made_of_whole_tokens(submission):
    """get_pair_counts pairs whole tokens, spaces included, never their characters"""
    got = submission.bpe.get_pair_counts(["th", "e", " ", "th", "e"])
    expected = {("th", "e"): 2, ("e", " "): 1, (" ", "th"): 1}
    assert got == expected, hint("a pair is a tuple of two tokens as they stand in the list")


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_does_not_change_the_tokens(submission):
    """get_pair_counts answers right and leaves the token list unchanged"""
    record = submission.bpe.get_pair_counts.call(["a", "b", "a", "b"])
    assert record.returned == {("a", "b"): 2, ("b", "a"): 1}, hint("count every neighbouring pair")
    assert not record.mutated, hint("read the tokens; do not pop from or sort the list you were given")


@pytest.mark.rules("adjacent_pairs", "overlapping", "short")
@pytest.mark.points(2)
@examples(50)
@given(tokens=st.lists(st.sampled_from(["a", "b", "ab", " ", "é", "\n"]), max_size=20))
def test_hyp_counts_match_on_any_tokens(submission, tokens):
    """get_pair_counts is right for any list of tokens"""
    got = submission.bpe.get_pair_counts(tokens)
    assert got == dict(ref.get_pair_counts(tokens)), hint(
        "count (tokens[i], tokens[i + 1]) for i in range(len(tokens) - 1)"
    )
