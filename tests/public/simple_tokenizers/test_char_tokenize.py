import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(1)
def test_splits_every_character_including_spaces(submission):
    """char_tokenize keeps every character, spaces included"""
    got = submission.simple_tokenizers.char_tokenize("hi there")
    assert got == ["h", "i", " ", "t", "h", "e", "r", "e"], hint("spaces are characters too")
