import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(1)
def test_merges_the_pair_in_every_word(submission):
    """merge_pair merges the pair in every word and keeps the frequencies"""
    got = submission.word_bpe.merge_pair({("l", "o", "w", "</w>"): 2, ("o", "w", "</w>"): 1}, ("o", "w"))
    assert got == {("l", "ow", "</w>"): 2, ("ow", "</w>"): 1}, hint("rebuild every word with the pair glued")
