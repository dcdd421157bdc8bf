import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(1)
def test_splits_words_from_punctuation(submission):
    """pre_tokenize cuts text into words and runs of punctuation"""
    got = submission.word_bpe.pre_tokenize("Hi, you!")
    assert got == ["Hi", ",", "you", "!"], hint("use re.findall with \\w+|[^\\s\\w]+")
