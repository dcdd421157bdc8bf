"""Cutting the special tokens out of a text: each whole, the longest first, the text between as it is."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint

SPECIALS = ["<|end|>", "<|end|>!", "[X]"]


@pytest.mark.rules("whole")
@pytest.mark.points(1)
def test_each_special_token_is_a_stretch_of_its_own(submission):
    """split_specials gives each special token as a stretch of its own, at the start, the middle and the end"""
    got = submission.real_tokenizer.split_specials("[X]ok<|end|>ok[X]", SPECIALS)
    assert isinstance(got, list), hint("return a list of str")
    wanted = ["[X]", "ok", "<|end|>", "ok", "[X]"]
    if [stretch for stretch in got if stretch] == wanted:
        # Empty strings at the ends are regex.split's, around the tokens it kept: the cut itself was right.
        assert "" not in got, hint(
            "regex.split gives an empty string before a special token at the start and after one at the end: "
            "leave the empty stretches out",
            fix="no_empty",
        )
    assert got == wanted, hint(
        "split on the special tokens in one capturing group, so regex.split keeps them; regex.escape each one, "
        'since "|" and "[" mean something in a pattern'
    )


@pytest.mark.rules("longest")
@pytest.mark.points(1)
def test_a_longer_special_token_beats_its_prefix(submission):
    """split_specials cuts out "<|end|>!" whole where "<|end|>" starts at the same place"""
    got = submission.real_tokenizer.split_specials("hi<|end|>!<|end|>", SPECIALS)
    assert got == ["hi", "<|end|>!", "<|end|>"], hint(
        "sort the special tokens longest first before joining them with |"
    )


@pytest.mark.rules("as_it_is")
@pytest.mark.points(1)
def test_the_text_between_is_kept_as_it_is(submission):
    """split_specials keeps the text between special tokens whole: spaces, tabs, newlines and all"""
    got = submission.real_tokenizer.split_specials(" a\tb \n<|end|>  ", SPECIALS)
    assert got == [" a\tb \n", "<|end|>", "  "], hint("keep the text between special tokens as it is: no strip()")
    assert submission.real_tokenizer.split_specials("no tokens here", []) == ["no tokens here"], hint(
        "with no special tokens, the text is one stretch: an empty alternation would cut it everywhere"
    )


@pytest.mark.rules("no_empty")
@pytest.mark.points(1)
def test_no_stretch_is_empty(submission):
    """split_specials gives no empty stretch, and none at all for the empty text"""
    got = submission.real_tokenizer.split_specials("[X][X]", SPECIALS)
    assert got == ["[X]", "[X]"], hint("leave out the empty strings regex.split gives between and around tokens")
    assert submission.real_tokenizer.split_specials("", SPECIALS) == [], hint("the empty text: return []")


@pytest.mark.rules("whole", "as_it_is", "no_empty")
@pytest.mark.points(1)
@examples(30)
@given(pieces=st.lists(st.text(alphabet="ab <|>!\n", max_size=5) | st.sampled_from(SPECIALS), max_size=6))
def test_hyp_the_stretches_give_the_text_back(submission, pieces):
    """split_specials on any text: the stretches joined are the text, none empty, no special token left inside"""
    text = "".join(pieces)
    got = submission.real_tokenizer.split_specials(text, SPECIALS)
    assert "".join(got) == text, hint("keep every character: the special tokens and the text between", fix="as_it_is")
    assert all(got), hint("leave out the empty stretches", fix="no_empty")
    inside = [stretch for stretch in got if stretch not in SPECIALS and any(token in stretch for token in SPECIALS)]
    assert inside == [], hint("cut out every special token, wherever it stands", fix="whole")
