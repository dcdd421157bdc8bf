import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint


@pytest.mark.rules("any_whitespace")
@pytest.mark.points(2)
def test_splits_on_any_whitespace(submission):
    """word_tokenize treats runs of spaces, tabs and newlines as one separator"""
    got = submission.simple_tokenizers.word_tokenize("the  cat\tsat\non")
    assert got == ["the", "cat", "sat", "on"], hint(
        'str.split() with no argument splits on any whitespace; split(" ") does not'
    )


@pytest.mark.rules("no_empty_words")
@pytest.mark.points(1)
def test_leading_and_trailing_whitespace_give_no_empty_words(submission):
    """word_tokenize never returns empty words"""
    got = submission.simple_tokenizers.word_tokenize("  hello world \n")
    assert got == ["hello", "world"], hint("no empty strings: whitespace at the ends is not a word")


@pytest.mark.rules("kept_as_written")
@pytest.mark.points(1)
def test_punctuation_stays_with_its_word(submission):
    """word_tokenize keeps punctuation attached to its word"""
    got = submission.simple_tokenizers.word_tokenize("Hello, world!")
    assert got == ["Hello,", "world!"], hint("split only on whitespace; keep case and punctuation")


@pytest.mark.rules("any_whitespace", "no_empty_words", "kept_as_written")
@pytest.mark.points(1)
@examples(40)
@given(text=st.text(alphabet="ab \t\n.", max_size=25))
def test_hyp_matches_str_split(submission, text):
    """word_tokenize splits any text exactly where whitespace runs are"""
    got = submission.simple_tokenizers.word_tokenize(text)
    assert got == text.split(), hint("runs of any whitespace separate words")
