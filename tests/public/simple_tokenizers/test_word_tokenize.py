import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(1)
def test_splits_on_any_whitespace(submission):
    """word_tokenize treats runs of spaces, tabs and newlines as one separator"""
    got = submission.simple_tokenizers.word_tokenize("the  cat\tsat\n")
    assert got == ["the", "cat", "sat"], hint("split on any whitespace, not just one space")
