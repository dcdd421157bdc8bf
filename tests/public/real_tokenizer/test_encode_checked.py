"""Encoding text from outside: a special token the call does not allow raises, naming the first; else encode's ids."""

import pytest

from autograder.testing.author_api import END_OF_TEXT, GPT4_SPLIT, StudentRaised, hint, raised

# A tiny model: "hi", " hi", a few digits, and its special tokens. "text|>" ends "<|endoftext|>" and "<|end"
# starts it: tokens a model may know side by side.
VOCAB = {"h": 0, "i": 1, "Ġ": 2, "hi": 3, "Ġhi": 4, "1": 5, "2": 6, "3": 7, "4": 8, "12": 9, "123": 10, "1234": 11}
MERGES = [("h", "i"), ("Ġ", "hi"), ("1", "2"), ("12", "3"), ("123", "4")]
SPECIALS = {END_OF_TEXT: 12, "<|end": 13, "text|>": 14, "<|im_start|>": 15}
VOCAB |= SPECIALS
# The characters of the special tokens too: spelled as ordinary text, they have ids, as in GPT-2's vocab.
VOCAB |= {character: 16 + at for at, character in enumerate("<|endoftx>im_sar")}


def encoded(check, *arguments, **keywords):
    """The call's record where nothing in the text is refused: a refusal there fails with the hint that says so."""
    try:
        return check.call(*arguments, **keywords)
    except StudentRaised as error:
        raise AssertionError(
            hint(
                f"raised {error.error_type} though no special token that allowed lacks is in the text: look for exactly "
                "those tokens, each as written (regex.escape it in a pattern); an allowed one is its id",
                fix="allowed",
            )
        ) from None


@pytest.mark.rules("refused")
@pytest.mark.points(1)
def test_a_special_token_not_allowed_raises(submission):
    """encode_checked raises ValueError where the text holds a special token that is not allowed"""
    check = submission.real_tokenizer.encode_checked
    raising = raised(check, "hi<|endoftext|> hi", VOCAB, MERGES, [END_OF_TEXT])
    assert raising is not None and raising[0] == "ValueError", hint(
        "allowed is empty by default: <|endoftext|> in the text raises ValueError, and no ids come back"
    )
    raising = raised(check, "hi <|im_start|>hi", VOCAB, MERGES, [END_OF_TEXT, "<|im_start|>"], allowed=[END_OF_TEXT])
    assert raising is not None and raising[0] == "ValueError", hint(
        "look for every special token that allowed lacks, in the whole text: <|im_start|> is not allowed here"
    )
    raising = raised(check, "<|endoftext|>", VOCAB, MERGES, (END_OF_TEXT,))
    assert raising is not None and raising[0] == "ValueError", hint(
        "the text that is the refused token alone raises too: a token may start as late as len(text) - len(token)"
    )
    raising = raised(check, "hi<|endoftext|>", VOCAB, MERGES, [END_OF_TEXT, "text|>"], allowed=[END_OF_TEXT])
    assert raising is not None and raising[0] == "ValueError", hint(
        '"text|>" is not allowed and occurs in the text, at the end of the allowed <|endoftext|>: a refused token '
        "counts anywhere, as a substring"
    )


@pytest.mark.rules("allowed", "unchanged")
@pytest.mark.points(1)
def test_allowed_special_tokens_are_their_ids(submission):
    """encode_checked encodes each allowed special token as its id, and text without any as encode does"""
    check = submission.real_tokenizer.encode_checked
    known, allowed = [END_OF_TEXT, "<|im_start|>"], [END_OF_TEXT]
    record = encoded(check, "hi<|endoftext|> hi", VOCAB, MERGES, known, allowed=allowed)
    assert record.returned == [3, 12, 4], hint(
        "an allowed special token is its one id: encode(text, vocab, merges, special_tokens=allowed)", fix="allowed"
    )
    assert not record.mutated, hint(
        "leave special_tokens and allowed as they were: make a new list of the refused ones", fix="unchanged"
    )
    assert encoded(check, "hi hi", VOCAB, MERGES, list(SPECIALS)).returned == [3, 4], hint(
        "with no special token in the text nothing is refused: give encode's ids", fix="allowed"
    )
    assert encoded(check, "hi<|endoftext|>", VOCAB, MERGES, tuple(known), allowed=(END_OF_TEXT,)).returned == [
        3,
        12,
    ], hint("special_tokens and allowed may be tuples: remove nothing from them", fix="unchanged")


@pytest.mark.rules("names_first")
@pytest.mark.points(1)
def test_the_error_names_the_first_refused_token(submission):
    """encode_checked's ValueError names the refused token the text holds first, the longer at one place"""
    check = submission.real_tokenizer.encode_checked
    raising = raised(check, "hi<|im_start|>hi<|endoftext|>", VOCAB, MERGES, [END_OF_TEXT, "<|im_start|>"])
    assert raising is not None and raising[0] == "ValueError", hint("raise ValueError", fix="refused")
    assert "<|im_start|>" in raising[1] and END_OF_TEXT not in raising[1], hint(
        "name the refused token that occurs first in the text, <|im_start|>, and only that one"
    )
    raising = raised(check, "hi<|endoftext|>hi", VOCAB, MERGES, ["<|im_start|>", END_OF_TEXT])
    assert raising is not None and raising[0] == "ValueError", hint("raise ValueError", fix="refused")
    assert END_OF_TEXT in raising[1] and "<|im_start|>" not in raising[1], hint(
        "name a token the text holds: <|im_start|> is not in it (text.find gives -1 for a token not found)"
    )
    raising = raised(check, "hi<|endoftext|> hi", VOCAB, MERGES, ["<|end", END_OF_TEXT])
    assert raising is not None and raising[0] == "ValueError", hint("raise ValueError", fix="refused")
    assert END_OF_TEXT in raising[1], hint(
        "<|end and <|endoftext|> start at the same place: name the longer, as split_specials would cut it"
    )


@pytest.mark.rules("pattern")
@pytest.mark.points(1)
def test_the_pattern_is_passed_on(submission):
    """encode_checked splits with the pattern it is given: GPT-4's cuts 1234 into 123 and 4"""
    check = submission.real_tokenizer.encode_checked
    assert check("1234", VOCAB, MERGES, [END_OF_TEXT]) == [11], hint("GPT2_SPLIT by default: 1234 is one piece")
    assert check("1234", VOCAB, MERGES, [END_OF_TEXT], pattern=GPT4_SPLIT) == [10, 8], hint(
        "pass pattern on to encode: GPT-4's pattern takes digits three at a time"
    )
