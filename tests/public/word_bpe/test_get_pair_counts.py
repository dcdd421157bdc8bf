import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(1)
def test_weights_pairs_by_word_frequency(submission):
    """get_pair_counts adds a word's frequency for each of its pairs"""
    got = submission.word_bpe.get_pair_counts({("a", "b", "</w>"): 3})
    assert got == {("a", "b"): 3, ("b", "</w>"): 3}, hint("add the word's frequency, not 1")
