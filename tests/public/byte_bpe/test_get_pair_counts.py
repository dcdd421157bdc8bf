import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(1)
def test_counts_neighbouring_ids(submission):
    """get_pair_counts counts each pair of neighbouring ids"""
    got = submission.byte_bpe.get_pair_counts([1, 2, 1, 2])
    assert got == {(1, 2): 2, (2, 1): 1}, hint("walk over neighbours and count each (id, id)")
