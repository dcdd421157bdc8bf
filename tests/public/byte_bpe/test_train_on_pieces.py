import pytest

from autograder.testing.rubric import hint

pytestmark = pytest.mark.bonus


@pytest.mark.points(1)
def test_no_merge_spans_two_pieces(submission):
    """train_on_pieces never merges a letter with the space after it: the space starts the next piece"""
    got = submission.byte_bpe.train_on_pieces("a a a a", 300)
    assert got == {(32, 97): 256}, hint('"a a a a" splits into "a", " a", " a", " a": only (32, 97) repeats')
