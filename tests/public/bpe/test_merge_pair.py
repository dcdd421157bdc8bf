import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(2)
def test_merge_skips_past_a_merged_pair(submission):
    """merge_pair does not reuse a token that was just merged"""
    got = submission.bpe.merge_pair(["a", "a", "a"], ("a", "a"))
    assert got == ["aa", "a"], hint("after a merge, jump past both tokens")
