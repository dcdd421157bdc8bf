import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(1)
def test_characters_and_merged_tokens_get_ids(submission):
    """build_bpe_vocab numbers the characters and every merged token"""
    got = submission.bpe.build_bpe_vocab("abab", [("a", "b")])
    assert got == {"a": 0, "b": 1, "ab": 2}, hint("order tokens by (len(token), token)")
