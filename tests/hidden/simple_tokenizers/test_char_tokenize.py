import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint


@pytest.mark.rules("every_character")
@pytest.mark.points(2)
def test_splits_every_character_including_spaces(submission):
    """char_tokenize keeps every character, spaces and newlines included"""
    got = submission.simple_tokenizers.char_tokenize("hi there\n")
    assert got == ["h", "i", " ", "t", "h", "e", "r", "e", "\n"], hint("spaces and newlines are characters too")


@pytest.mark.rules("every_character")
@pytest.mark.points(1)
def test_keeps_non_ascii_characters_whole(submission):
    """char_tokenize treats accented letters and emoji as one character each"""
    got = submission.simple_tokenizers.char_tokenize("naïve 🙂")
    assert got == ["n", "a", "ï", "v", "e", " ", "🙂"], hint("split the str itself, not its bytes")


@pytest.mark.rules("empty")
@pytest.mark.points(1)
def test_empty_text_gives_empty_list(submission):
    """char_tokenize of the empty string is the empty list (and of a word, its letters)"""
    assert submission.simple_tokenizers.char_tokenize("ab") == ["a", "b"], hint("one token per character")
    got = submission.simple_tokenizers.char_tokenize("")
    assert got == [], hint("return [] for empty text")


@pytest.mark.rules("every_character", "empty")
@pytest.mark.points(1)
@examples(40)
@given(text=st.text(max_size=30))
def test_hyp_characters_join_back_to_the_text(submission, text):
    """char_tokenize returns a list of single characters that join back to the text"""
    got = submission.simple_tokenizers.char_tokenize(text)
    assert got == list(text), hint("return a list with one entry per character")
