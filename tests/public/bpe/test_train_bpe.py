import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(1)
def test_returns_tokens_then_merges(submission):
    """train_bpe returns (final_tokens, merges) and stops when no pair repeats"""
    got = submission.bpe.train_bpe("abab", 5)
    assert got == (["ab", "ab"], [("a", "b")]), hint("return tokens, merges; stop when the best count is below 2")
