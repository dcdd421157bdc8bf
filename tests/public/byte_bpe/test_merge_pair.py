import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(1)
def test_replaces_the_pair_with_the_new_id(submission):
    """merge_pair merges 6 6 6 into 256 6"""
    assert submission.byte_bpe.merge_pair([6, 6, 6], (6, 6), 256) == [256, 6], hint("after a merge, jump past both ids")
