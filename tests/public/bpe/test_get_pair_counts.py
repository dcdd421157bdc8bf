"""Public examples for get_pair_counts. Every call's answer must also have the contract's type (a dict of
(str, str) pairs to int counts; a Counter is one): the grader checks that on each call and says which type
it wanted."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint


@pytest.mark.rules("adjacent_pairs")
@pytest.mark.points(1)
def test_counts_every_neighbouring_pair_up_to_the_last(submission):
    """get_pair_counts counts each pair of neighbours, the last one included"""
    counted = submission.bpe.get_pair_counts(list("banana"))
    assert counted == {("b", "a"): 1, ("a", "n"): 2, ("n", "a"): 2}, hint(
        "look at every i from 0 to len(tokens) - 2: the last pair is (tokens[-2], tokens[-1])"
    )


@pytest.mark.rules("overlapping")
@pytest.mark.points(1)
def test_overlapping_pairs_all_count(submission):
    """get_pair_counts counts z z z z as the pair (z, z) three times"""
    counted = submission.bpe.get_pair_counts(["z", "z", "z", "z"])
    assert counted == {("z", "z"): 3}, hint(
        "count, do not merge: move on by one token each time, so overlapping pairs all count"
    )


@pytest.mark.rules("short")
@pytest.mark.points(1)
def test_fewer_than_two_tokens_hold_no_pair(submission):
    """get_pair_counts of [] or of one token is empty (and of two tokens, their one pair)"""
    assert submission.bpe.get_pair_counts(["q", "r"]) == {("q", "r"): 1}, hint("two tokens are one pair")
    assert submission.bpe.get_pair_counts([]) == {}, hint("get_pair_counts([]) must be empty: no token, no pair")
    assert submission.bpe.get_pair_counts(["q"]) == {}, hint('get_pair_counts(["q"]) must be empty: no neighbour')


@pytest.mark.rules("adjacent_pairs")
@pytest.mark.points(1)
def test_pairs_are_whole_tokens(submission):
    """get_pair_counts pairs tokens as they stand, spaces and longer tokens included"""
    counted = submission.bpe.get_pair_counts(["to", " ", "to", " ", "do"])
    assert counted == {("to", " "): 2, (" ", "to"): 1, (" ", "do"): 1}, hint(
        "a pair is (tokens[i], tokens[i + 1]), whole tokens, never their characters"
    )


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_leaves_the_token_list_unchanged(submission):
    """get_pair_counts answers right and leaves the list it is given as it was"""
    record = submission.bpe.get_pair_counts.call(["x", "y", "x", "y", "x"])
    assert record.returned == {("x", "y"): 2, ("y", "x"): 2}, hint("count every pair of neighbours")
    assert not record.mutated, hint("read the tokens; build a new dict instead of popping from or sorting tokens")


TOKENS = st.lists(st.sampled_from(["p", "q", "pq", " ", "\n", "é"]), max_size=14)


@pytest.mark.rules("adjacent_pairs", "overlapping")
@pytest.mark.points(2)
@examples(20)
@given(tokens=TOKENS, cut=st.integers(0, 14))
def test_hyp_counts_add_up_over_any_split(submission, tokens, cut):
    """get_pair_counts counts len(tokens) - 1 pairs, and two halves' counts plus the pair across the cut"""
    left, right = tokens[:cut], tokens[cut:]
    expected = dict(submission.bpe.get_pair_counts(left))
    for pair, count in submission.bpe.get_pair_counts(right).items():
        expected[pair] = expected.get(pair, 0) + count
    if left and right:
        across = (left[-1], right[0])
        expected[across] = expected.get(across, 0) + 1
    counted = submission.bpe.get_pair_counts(tokens)
    assert sum(counted.values()) == max(len(tokens) - 1, 0), hint(
        "n tokens hold n - 1 pairs of neighbours (none for fewer than two): count each one once"
    )
    assert counted == expected, hint("count each pair of neighbours wherever it stands in the list")
