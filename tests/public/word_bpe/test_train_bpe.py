import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(1)
def test_learns_merges_from_word_frequencies(submission):
    """train_bpe learns (a, a), (aa, a), (aaa, </w>) from "aaa aaa b\""""
    got = submission.word_bpe.train_bpe("aaa aaa b", 5)
    assert got == [("a", "a"), ("aa", "a"), ("aaa", "</w>")], hint(
        "count pairs weighted by word frequency, stop below 2"
    )
