import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint

# A word's characters and punctuation's: a piece holding both stuck together where whitespace was no separator.
regex_word, regex_other = re.compile(r"\w"), re.compile(r"[^\s\w]")


@pytest.mark.rules("words_and_punctuation")
@pytest.mark.points(2)
def test_splits_words_from_punctuation(submission):
    """pre_tokenize cuts text into words and runs of punctuation"""
    got = submission.word_bpe.pre_tokenize("Hello, world!")
    stuck = [
        piece
        for piece in (got if isinstance(got, list) else [])
        if isinstance(piece, str) and regex_word.search(piece) and regex_other.search(piece)
    ]
    if stuck:
        assert got == ["Hello", ",", "world", "!"], hint(
            f"{stuck[0]!r} holds a word and punctuation: whitespace is not the only separator, cut with"
            " \\w+|[^\\s\\w]+ so punctuation never sticks to a word",
            fix="whitespace_separates",  # punctuation stuck to a word is this rule's
        )
    assert got == ["Hello", ",", "world", "!"], hint("punctuation is a pre-token of its own: use \\w+|[^\\s\\w]+")


@pytest.mark.rules("words_and_punctuation")
@pytest.mark.points(1)
def test_keeps_case_digits_and_underscores(submission):
    """pre_tokenize keeps case, and digits and underscores inside words"""
    got = submission.word_bpe.pre_tokenize("GPT_2 Rocks 2024")
    assert got == ["GPT_2", "Rocks", "2024"], hint("do not lowercase; \\w covers letters, digits and _")


@pytest.mark.rules("whitespace_separates")
@pytest.mark.points(1)
def test_keeps_runs_of_punctuation_together(submission):
    """pre_tokenize keeps a run of punctuation as one pre-token, and drops all whitespace"""
    got = submission.word_bpe.pre_tokenize("  Wait...what?!\n\tyes ")
    assert got == ["Wait", "...", "what", "?!", "yes"], hint("[^\\s\\w]+ takes a whole run; whitespace only separates")


@pytest.mark.rules("words_and_punctuation", "whitespace_separates")
@pytest.mark.points(1)
@examples(40)
@given(text=st.text(max_size=30))
def test_hyp_matches_the_contract_on_any_text(submission, text):
    """pre_tokenize agrees with re.findall(r"\\w+|[^\\s\\w]+", text) on any text"""
    got = submission.word_bpe.pre_tokenize(text)
    assert got == re.findall(r"\w+|[^\s\w]+", text), hint("use exactly the pattern \\w+|[^\\s\\w]+")
