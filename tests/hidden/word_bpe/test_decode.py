import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, reference

ref = reference("word_bpe")
MERGES = ref.train_bpe("low lower lowest low newer wider", 10)


@pytest.mark.rules("words", "unchanged")
@pytest.mark.points(2)
def test_ends_words_at_the_marker(submission):
    """decode joins the tokens and puts one space between words, leaving its arguments as they were"""
    record = submission.word_bpe.decode.call(["low", "</w>", "e", "r</w>", "!", "</w>"])
    got = record.returned
    if isinstance(got, str) and got != got.strip(" ") and got.strip(" ") == "low er !":
        assert got == "low er !", hint("the words are right, with a space at an end: strip it", fix="no_outer_space")
    if got == "low er!":
        # Both the one-space rule and the round trip are broken here: the hint names neither.
        assert got == "low er !", hint(
            "the punctuation was glued to the word before it: it is a word of its own, one space before it", fix=""
        )
    assert got == "low er !", hint("each '</w>' ends a word; words are joined by one space", fix="words")
    assert record.mutated is False, hint(
        "leave the list of tokens as it was: join a copy, never pop from it", fix="unchanged"
    )


@pytest.mark.rules("no_outer_space")
@pytest.mark.points(1)
def test_no_space_at_the_ends(submission):
    """decode puts no space before the first word or after the last"""
    assert submission.word_bpe.decode(["a", "</w>"]) == "a", hint("strip the space the last marker leaves")
    assert submission.word_bpe.decode([]) == "", hint("no tokens, no text")


@pytest.mark.rules("round_trip")
@pytest.mark.points(3)
@examples(50)
@given(text=st.text(max_size=30))
def test_hyp_inverts_encode_up_to_spacing(submission, text):
    """decode(encode(text)) is the words of text joined by single spaces, for any text"""
    got = submission.word_bpe.decode(ref.encode(text, MERGES))
    assert got == " ".join(re.findall(r"\w+|[^\s\w]+", text)), hint(
        "split the joined tokens at each '</w>' and join the words with single spaces"
    )
