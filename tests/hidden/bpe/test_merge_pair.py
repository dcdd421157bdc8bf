import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, reference

ref = reference("bpe")


@pytest.mark.rules("every_occurrence")
@pytest.mark.points(3)
def test_merges_each_occurrence_into_one_token(submission):
    """merge_pair replaces each occurrence of the pair with the joined token"""
    tokens, pair = ["l", "o", "w", " ", "l", "o"], ("l", "o")
    got = submission.bpe.merge_pair(tokens, pair)
    # Every occurrence needs the step past a merged pair and whole tokens too: which of the three is missing
    # shows in the answer, so the hint names the one it sees.
    kept_second = ["lo" if tuple(tokens[i : i + 2]) == pair else token for i, token in enumerate(tokens)]
    if got == kept_second:
        assert got == ["lo", "w", " ", "lo"], hint(
            "after a merge, jump past both tokens: the second is inside the merged one", fix="left_to_right"
        )
    if isinstance(got, list) and not set(got) <= {*tokens, "lo"}:
        assert got == ["lo", "w", " ", "lo"], hint(
            f"{sorted(set(got) - {*tokens, 'lo'})!r} is neither a token nor the merged pair: compare whole tokens"
            " of the list with ==, not the joined text with str.replace",
            fix="whole_tokens",
        )
    assert got == ["lo", "w", " ", "lo"], hint(
        "append pair[0] + pair[1] where the two tokens match, the token itself elsewhere"
    )


@pytest.mark.rules("left_to_right")
@pytest.mark.points(3)
def test_merge_skips_past_a_merged_pair(submission):
    """merge_pair does not reuse a token that was just merged"""
    got = submission.bpe.merge_pair(["a", "a", "a"], ("a", "a"))
    assert got == ["aa", "a"], hint("after a merge, jump past both tokens")


@pytest.mark.rules("left_to_right")
@pytest.mark.points(1)
def test_merges_back_to_back_occurrences(submission):
    """merge_pair merges a a a a into aa aa"""
    got = submission.bpe.merge_pair(["a", "a", "a", "a"], ("a", "a"))
    assert got == ["aa", "aa"], hint("after a merge, continue right after the second token")


@pytest.mark.rules("whole_tokens")
@pytest.mark.points(2)
def test_compares_whole_tokens_only(submission):
    """merge_pair never matches a pair across token boundaries"""
    got = submission.bpe.merge_pair(["ab", "c"], ("a", "bc"))
    assert got == ["ab", "c"], hint("compare tokens with ==, not the joined text with str.replace")


@pytest.mark.rules("every_occurrence")
@pytest.mark.points(1)
def test_a_missing_pair_changes_nothing(submission):
    """merge_pair returns the same tokens when the pair does not occur, and [] for []"""
    assert submission.bpe.merge_pair(["a", "b"], ("b", "a")) == ["a", "b"], hint("no match, no change")
    assert submission.bpe.merge_pair([], ("a", "b")) == [], hint("an empty list stays empty")


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_does_not_change_the_tokens(submission):
    """merge_pair answers right with a new list and leaves the one it is given unchanged"""
    record = submission.bpe.merge_pair.call(["a", "b", "c"], ("a", "b"))
    assert record.returned == ["ab", "c"], hint("merge the pair into one token")
    assert not record.mutated, hint("build and return a new list instead of editing tokens in place")


@pytest.mark.rules("every_occurrence", "left_to_right", "whole_tokens")
@pytest.mark.points(3)
@examples(60)
@given(
    tokens=st.lists(st.sampled_from(["a", "b", "ab", "ba", " "]), max_size=16),
    pair=st.tuples(st.sampled_from(["a", "b", "ab"]), st.sampled_from(["a", "b", "ba"])),
)
def test_hyp_merges_like_the_contract(submission, tokens, pair):
    """merge_pair scans left to right, merges whole tokens, and never makes the list longer"""
    got = submission.bpe.merge_pair(tokens, pair)
    assert isinstance(got, list), hint("return a list")
    assert len(got) <= len(tokens), hint("a merge can only shorten the list")
    assert got == ref.merge_pair(tokens, pair), hint("scan left to right; after a merge skip both tokens")
