import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(1)
def test_ends_words_at_the_marker(submission):
    """decode joins the tokens and puts one space between words"""
    assert submission.word_bpe.decode(["low", "</w>", "er", "</w>"]) == "low er", hint("each '</w>' ends a word")
