import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(1)
def test_counts_words_with_the_marker(submission):
    """word_frequencies counts each word, spelled as its characters plus "</w>\""""
    got = submission.word_bpe.word_frequencies("ab ab c")
    assert got == {("a", "b", "</w>"): 2, ("c", "</w>"): 1}, hint("key: tuple(word) + ('</w>',)")
