"""Cutting the special tokens out of a text: each whole, the longest first, the text between as it is."""

import pytest
from hypothesis import given

from autograder.testing.author_api import domains, examples, hint, reference

ref = reference("real_tokenizer")


@pytest.mark.rules("whole")
@pytest.mark.points(1)
def test_cuts_out_a_special_token_whole(submission):
    """split_specials cuts a special token out whole, the text on either side a stretch of its own"""
    got = submission.real_tokenizer.split_specials("a<|endoftext|>b", ["<|endoftext|>"])
    assert got == ["a", "<|endoftext|>", "b"], hint(
        "regex.split on the escaped special tokens in one capturing group: the group keeps each token as a stretch"
    )


@pytest.mark.rules("as_it_is")
@pytest.mark.points(1)
def test_keeps_the_text_between_as_it_is(submission):
    """split_specials keeps the text between special tokens as it is: its spaces, newlines, accents and emoji"""
    got = submission.real_tokenizer.split_specials("  two  spaces\n<|end|>é🙂 ", ["<|end|>"])
    assert got == ["  two  spaces\n", "<|end|>", "é🙂 "], hint(
        "keep each stretch of text between special tokens whole: do not strip it or split it further"
    )
    assert submission.real_tokenizer.split_specials("a b\n", []) == ["a b\n"], hint(
        "with no special tokens the whole text is one stretch, as it is"
    )


@pytest.mark.rules("longest")
@pytest.mark.points(1)
def test_the_longer_special_token_wins(submission):
    """split_specials cuts out the longer special token where two start at the same place"""
    # One special token, between two stretches of text: cutting out only the first, or leaving empty stretches,
    # cannot show here (their own tests' rules), only the choice between the two tokens.
    got = submission.real_tokenizer.split_specials("x<|a|><|b|>y", ["<|a|>", "<|a|><|b|>"])
    assert got == ["x", "<|a|><|b|>", "y"], hint(
        "sort the special tokens longest first (sorted(..., key=len, reverse=True)) before joining them with |: "
        "an alternation takes the first of its choices that matches"
    )


@pytest.mark.rules("no_empty")
@pytest.mark.points(1)
def test_gives_no_empty_stretch(submission):
    """split_specials gives no empty stretch: not between two special tokens, not at either end, none for "\""""
    got = submission.real_tokenizer.split_specials("<|end|><|end|>", ["<|end|>"])
    assert got == ["<|end|>", "<|end|>"], hint(
        "regex.split puts an empty string between two tokens side by side and at either end: leave those out"
    )
    assert submission.real_tokenizer.split_specials("", ["<|end|>"]) == [], hint(
        "the empty text has no stretch: return []"
    )
    assert submission.real_tokenizer.split_specials("", []) == [], hint(
        "the empty text has no stretch, special tokens given or not: return []"
    )


def _special_at(stretches, specials):
    """Each special-token stretch by the place in the text where it starts."""
    found, at = {}, 0
    for stretch in stretches:
        if stretch in specials:
            found[at] = stretch
        at += len(stretch)
    return found


@pytest.mark.rules("whole", "longest", "as_it_is", "no_empty")
@pytest.mark.points(1)
@examples(40)
@given(inputs=domains.strategy("text_and_special_tokens"))
def test_hyp_same_stretches_as_the_reference(submission, inputs):
    """split_specials gives the reference's stretches on any text, with any few special tokens or none"""
    text, specials = inputs["text"], inputs["specials"]
    got = submission.real_tokenizer.split_specials(text, specials)
    reference_stretches = ref.split_specials(text, specials)
    assert isinstance(got, list) and all(isinstance(stretch, str) for stretch in got), hint(
        "return a list of str", fix="as_it_is"
    )
    assert all(got), hint("leave out the empty strings regex.split gives", fix="no_empty")
    assert "".join(got) == text, hint(
        "the stretches joined must be the text: keep the special tokens (a capturing group) and the text between",
        fix="as_it_is",
    )
    if got != reference_stretches:
        mine, theirs = _special_at(got, specials), _special_at(reference_stretches, specials)
        shorter = [at for at in theirs if at in mine and len(mine[at]) < len(theirs[at])]
        assert not shorter, hint(
            "where two special tokens start at one place, cut out the longer: sort them longest first", fix="longest"
        )
    assert got == reference_stretches, hint(
        "cut out every special token given, wherever it stands, and only those: regex.escape each one",
        fix="whole",
    )
