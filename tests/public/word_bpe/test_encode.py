import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint

# Merges below are what training makes (ties taken first seen): here train_bpe("bra bra zebra", 5).
BRA = [("b", "r"), ("br", "a"), ("bra", "</w>")]


@pytest.mark.rules("concatenated")
@pytest.mark.points(1)
def test_encodes_each_word_with_learned_merges(submission):
    """encode spells each word with "</w>" and applies the merges"""
    got = submission.word_bpe.encode("low lo", [("l", "o"), ("lo", "w")])
    assert got == ["low", "</w>", "lo", "</w>"], hint(
        "each word: list(word) + ['</w>'], then every merge in order", fix="learned_order"
    )


@pytest.mark.rules("learned_order")
@pytest.mark.points(1)
def test_applies_the_merges_in_the_order_given(submission):
    """encode applies merges[0] in the whole word first, then merges[1], and so on"""
    merges = [("s", "t"), ("st", "</w>"), ("e", "s"), ("es", "</w>")]  # train_bpe("st st st es es test", 4)
    got = submission.word_bpe.encode("test", merges)
    assert got == ["t", "e", "st</w>"], hint(
        "loop over merges as they are given: (s, t) comes first and takes the s, so (e, s) finds none; do not sort"
    )


@pytest.mark.rules("concatenated")
@pytest.mark.points(1)
def test_every_word_ends_with_its_own_marker(submission):
    """encode gives every word and every run of punctuation its own "</w>\""""
    got = submission.word_bpe.encode("hi, hi", [("h", "i"), ("hi", "</w>")])  # train_bpe("hi hi", 2)
    if isinstance(got, list) and "[UNK]" in got:
        assert got == ["hi</w>", ",", "</w>", "hi</w>"], hint(
            "BPE has no unknown token: a character no merge touches (here ',') stays a token of its own",
            fix="unseen",
        )
    assert got == ["hi</w>", ",", "</w>", "hi</w>"], hint(
        "spell each pre-token as list(word) + ['</w>'] before merging: merges such as (hi, </w>) need the marker"
    )


@pytest.mark.rules("unseen", "concatenated")
@pytest.mark.points(1)
def test_unseen_characters_stay_and_no_text_gives_no_tokens(submission):
    """encode keeps a character no merge knows as a token of its own, and gives [] for blank text"""
    got = submission.word_bpe.encode("zebra!", BRA)
    assert got == ["z", "e", "bra</w>", "!", "</w>"], hint(
        "nothing is unknown: a symbol no merge touches stays", fix="unseen"
    )
    assert submission.word_bpe.encode("", BRA) == [], hint("no pre-tokens, no tokens: return []")
    assert submission.word_bpe.encode(" \n ", BRA) == [], hint("whitespace alone holds no pre-token: return []")


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_does_not_change_the_merges(submission):
    """encode answers right and leaves the list of merges it is given unchanged"""
    record = submission.word_bpe.encode.call("bar bra", [("b", "r"), ("a", "r"), ("br", "a")])
    assert record.returned == ["b", "ar", "</w>", "bra", "</w>"], hint("apply each merge in order, in each word")
    assert not record.mutated, hint("read merges in order; do not sort or edit the list you are given")


@pytest.mark.rules("concatenated")
@pytest.mark.points(1)
@examples(20)
@given(text=st.text(alphabet="abrz. \n", max_size=24))
def test_hyp_tokens_spell_out_the_words(submission, text):
    """encode's tokens spell each pre-token followed by "</w>", on any text"""
    spelled = "".join(word + "</w>" for word in re.findall(r"\w+|[^\s\w]+", text))
    tokens = submission.word_bpe.encode(text, BRA)
    assert "".join(tokens) == spelled, hint("merging only joins symbols: every character and every '</w>' stays")
    known = {"b", "br", "bra", "bra</w>", "</w>", *text}
    assert set(tokens) <= known, hint("each token is a character, '</w>', or a merge's two symbols glued")
