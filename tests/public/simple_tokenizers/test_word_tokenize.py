import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint


@pytest.mark.rules("any_whitespace")
@pytest.mark.points(2)
def test_runs_of_spaces_tabs_and_newlines_separate_words(submission):
    """word_tokenize splits at spaces, tabs and newlines, a run of them being one separator"""
    got = submission.simple_tokenizers.word_tokenize("red   fox\tran\n\nfar")
    assert got == ["red", "fox", "ran", "far"], hint(
        "a tab or a newline separates words as a space does, and a run of whitespace is one separator, "
        "so no word is empty"
    )


@pytest.mark.rules("no_empty_words")
@pytest.mark.points(1)
def test_whitespace_at_either_end_makes_no_word(submission):
    """word_tokenize gives no empty word for whitespace at the start or the end of the text"""
    got = submission.simple_tokenizers.word_tokenize("\n  sun moon \t")
    assert got == ["sun", "moon"], hint("whitespace at the ends separates nothing: return no empty strings")


@pytest.mark.rules("kept_as_written")
@pytest.mark.points(1)
def test_punctuation_and_capitals_stay_in_their_word(submission):
    """word_tokenize splits at whitespace only: punctuation stays attached and case is kept"""
    got = submission.simple_tokenizers.word_tokenize("Yes! no, (maybe).")
    assert got == ["Yes!", "no,", "(maybe)."], hint(
        "split at whitespace only: keep punctuation inside its word and keep capitals"
    )


@pytest.mark.rules("no_empty_words")
@pytest.mark.points(1)
def test_text_without_words_gives_an_empty_list(submission):
    """word_tokenize of one word is a list of it, and of "" or only whitespace the empty list"""
    assert submission.simple_tokenizers.word_tokenize("one") == ["one"], hint("a text of one word is a list of it")
    assert submission.simple_tokenizers.word_tokenize("") == [], hint('the empty text "" has no words: return []')
    assert submission.simple_tokenizers.word_tokenize(" \t\n ") == [], hint(
        "a text of whitespace only has no words: return []"
    )


WHITESPACE = " \t\n"


@st.composite
def spaced_words(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A text made of words (letters and punctuation) with runs of whitespace between them, maybe around them
    too, and its words."""
    words = draw(st.lists(st.text(alphabet="pQ.,'", min_size=1, max_size=4), max_size=6))
    between = st.text(alphabet=WHITESPACE, min_size=1, max_size=3)
    inner = draw(st.lists(between, min_size=len(words)))
    start, end = draw(st.text(alphabet=WHITESPACE, max_size=2)), draw(st.text(alphabet=WHITESPACE, max_size=2))
    text = start + "".join(gap + word for gap, word in zip(["", *inner], words, strict=False)) + end
    return text, words


@pytest.mark.rules("any_whitespace", "no_empty_words")
@pytest.mark.points(1)
@examples(20)
@given(text_and_words=spaced_words())
def test_hyp_gives_back_the_words_a_text_is_made_of(submission, text_and_words):
    """word_tokenize gives back the words of any text, whatever whitespace is between and around them"""
    text, words = text_and_words
    tokens = submission.simple_tokenizers.word_tokenize(text)
    assert tokens == words, hint("split at every run of spaces, tabs and newlines; keep everything else in its word")
