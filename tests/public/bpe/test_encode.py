import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(1)
def test_encodes_with_merges_in_order(submission):
    """encode applies every merge in order, then maps tokens to ids"""
    got = submission.bpe.encode("abc", [("a", "b")], {"a": 0, "b": 1, "c": 2, "ab": 3})
    assert got == [3, 2], hint("apply merge_pair once per merge, then look tokens up")
