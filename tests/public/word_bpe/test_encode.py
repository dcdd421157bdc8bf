import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(1)
def test_encodes_each_word_with_learned_merges(submission):
    """encode spells each word with "</w>" and applies the merges"""
    got = submission.word_bpe.encode("low lo", [("l", "o"), ("lo", "w")])
    assert got == ["low", "</w>", "lo", "</w>"], hint("each word: list(word) + ['</w>'], then every merge in order")
