import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint


@pytest.mark.rules("words_and_punctuation")
@pytest.mark.points(1)
def test_splits_words_from_punctuation(submission):
    """pre_tokenize cuts text into words and runs of punctuation"""
    got = submission.word_bpe.pre_tokenize("Hi, you!")
    if isinstance(got, list) and ("Hi," in got or "you!" in got):
        assert got == ["Hi", ",", "you", "!"], hint(
            "punctuation stuck to its word (Hi, or you!): a run of punctuation is a piece of its own, and whitespace"
            " only separates pieces",
            fix="whitespace_separates",
        )
    assert got == ["Hi", ",", "you", "!"], hint("use re.findall with \\w+|[^\\s\\w]+")


@pytest.mark.rules("words_and_punctuation")
@pytest.mark.points(1)
def test_keeps_the_case(submission):
    """pre_tokenize keeps upper and lower case as they are"""
    got = submission.word_bpe.pre_tokenize("The CAT sat")
    assert got == ["The", "CAT", "sat"], hint("do not lowercase: 'The' and 'the' are different pre-tokens")


@pytest.mark.rules("whitespace_separates")
@pytest.mark.points(1)
def test_keeps_a_run_of_punctuation_together(submission):
    """pre_tokenize keeps a run of punctuation as one pre-token, never glued to a word"""
    got = submission.word_bpe.pre_tokenize("Yes?! No... (maybe)")
    assert got == ["Yes", "?!", "No", "...", "(", "maybe", ")"], hint(
        "[^\\s\\w]+ takes a whole run of punctuation; \\w+ a whole word; neither takes the other's characters"
    )


@pytest.mark.rules("whitespace_separates")
@pytest.mark.points(1)
def test_whitespace_only_separates(submission):
    """pre_tokenize drops tabs, newlines and runs of spaces, and gives [] for blank text"""
    got = submission.word_bpe.pre_tokenize("one\ttwo\n\n three   4_x ")
    assert got == ["one", "two", "three", "4_x"], hint(
        "any run of whitespace separates; digits and _ belong to words (\\w)"
    )
    assert submission.word_bpe.pre_tokenize(" \n\t") == [], hint("blank text has no pre-tokens: return []")
    assert submission.word_bpe.pre_tokenize("") == [], hint("empty text has no pre-tokens: return []")


@pytest.mark.rules("words_and_punctuation", "whitespace_separates")
@pytest.mark.points(1)
@examples(20)
@given(text=st.text(alphabet="aZ9_ .,!'\n\té", max_size=20))
def test_hyp_pieces_are_the_text_without_whitespace(submission, text):
    """pre_tokenize keeps every character but whitespace, and each piece is a word or a run of punctuation"""
    pieces = submission.word_bpe.pre_tokenize(text)
    assert "".join(pieces) == "".join(text.split()), hint(
        "keep every character that is not whitespace, in order and in its case"
    )
    kinds = [bool(re.fullmatch(r"\w+", piece)) or bool(re.fullmatch(r"[^\s\w]+", piece)) for piece in pieces]
    assert all(kinds), hint("a piece is all word characters (\\w+) or all punctuation ([^\\s\\w]+), never a mix")
