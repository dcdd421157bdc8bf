import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(1)
def test_overlapping_pairs_all_count(submission):
    """get_pair_counts counts overlapping pairs: a a a holds (a, a) twice"""
    got = submission.bpe.get_pair_counts(["a", "a", "a"])
    assert got == {("a", "a"): 2}, hint("every neighbouring pair counts")
