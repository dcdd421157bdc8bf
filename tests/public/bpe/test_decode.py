import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(1)
def test_decodes_ids_to_text(submission):
    """decode joins the tokens of the ids"""
    got = submission.bpe.decode([3, 2], {"a": 0, "b": 1, "c": 2, "ab": 3})
    assert got == "abc", hint('invert vocab, then join with ""')
