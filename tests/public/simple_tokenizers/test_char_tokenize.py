import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint


@pytest.mark.rules("every_character")
@pytest.mark.points(2)
def test_whitespace_and_punctuation_are_tokens_too(submission):
    """char_tokenize makes one token of every character: spaces, tabs and punctuation included"""
    got = submission.simple_tokenizers.char_tokenize("ok, go\t!")
    assert got == ["o", "k", ",", " ", "g", "o", "\t", "!"], hint(
        "keep every character, whitespace and punctuation too: skip none of them"
    )


@pytest.mark.rules("every_character")
@pytest.mark.points(1)
def test_whitespace_at_either_end_is_kept(submission):
    """char_tokenize keeps the spaces and newlines at the start and the end of the text"""
    got = submission.simple_tokenizers.char_tokenize(" up\n")
    assert got == [" ", "u", "p", "\n"], hint("do not strip the text: its first and last characters are tokens too")


@pytest.mark.rules("empty")
@pytest.mark.points(1)
def test_empty_text_gives_an_empty_list(submission):
    """char_tokenize of one character is a list of it, and of "" the empty list"""
    assert submission.simple_tokenizers.char_tokenize("q") == ["q"], hint("one character makes a list of one token")
    assert submission.simple_tokenizers.char_tokenize("") == [], hint('the empty text "" has no characters: return []')


@pytest.mark.rules("every_character")
@pytest.mark.points(1)
@examples(20)
@given(characters=st.lists(st.characters(), max_size=16))
def test_hyp_gives_back_the_characters_a_text_is_made_of(submission, characters):
    """char_tokenize gives back, in order, the characters any text is made of (accents and emoji too)"""
    got = submission.simple_tokenizers.char_tokenize("".join(characters))
    assert got == characters, hint(
        "one token per character of the str, in their order: a str is already a sequence of characters"
    )
