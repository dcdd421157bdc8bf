import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint

pieces = st.text(alphabet="xyz!é", min_size=1, max_size=3)
# Words as encode leaves them: each word's pieces, then "</w>" alone or glued to the last piece.
words = st.tuples(st.lists(pieces, min_size=1, max_size=3), st.booleans())


@pytest.mark.rules("words")
@pytest.mark.points(1)
def test_ends_words_at_the_marker(submission):
    """decode joins the tokens and puts one space between words"""
    got = submission.word_bpe.decode(["low", "</w>", "er", "</w>"])
    if isinstance(got, str) and got != "low er" and got.strip() == "low er":
        assert got == "low er", hint(
            "the words are right, the spaces around them are not: put a space between words only, none before"
            " the first or after the last",
            fix="no_outer_space",
        )
    assert got == "low er", hint("each '</w>' ends a word")


@pytest.mark.rules("words")
@pytest.mark.points(1)
def test_a_marker_glued_to_a_token_ends_the_word_too(submission):
    """decode ends a word at a "</w>" inside a merged token such as "lo</w>\""""
    got = submission.word_bpe.decode(["hel", "lo</w>", "wor", "ld", "</w>", "?!</w>"])
    if got == "hello world?!":
        # Two rules say so (one space between words; the round trip gives pre_tokenize's pieces): no one fix.
        assert got == "hello world ?!", hint(
            "the punctuation was glued to the word before it: a run of punctuation is a word of its own, with one"
            " space before it",
            fix="",
        )
    assert got == "hello world ?!", hint(
        "join all the tokens first, then split at '</w>': the marker may end a longer token"
    )


@pytest.mark.rules("no_outer_space")
@pytest.mark.points(1)
def test_no_space_at_either_end(submission):
    """decode puts no space before the first word or after the last, and gives "" for no tokens"""
    assert submission.word_bpe.decode(["o", "k", "</w>"]) == "ok", hint(
        "no space after the last word: join the words with ' '.join, or strip the last space"
    )
    assert submission.word_bpe.decode([]) == "", hint("no tokens, no text: return ''")


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_does_not_change_the_tokens(submission):
    """decode answers right and leaves the list of tokens it is given unchanged"""
    record = submission.word_bpe.decode.call(["to</w>", "b", "e</w>"])
    assert record.returned == "to be", hint("each '</w>' ends a word; one space between words")
    assert not record.mutated, hint("read the tokens; build the text instead of editing the list in place")


@pytest.mark.rules("round_trip")
@pytest.mark.points(1)
@examples(20)
@given(spelled=st.lists(words, max_size=4))
def test_hyp_gives_back_the_words_with_single_spaces(submission, spelled):
    """decode gives back the words joined by single spaces, however encode cut them into tokens"""
    tokens = []
    for word_pieces, glued in spelled:
        tokens += [*word_pieces[:-1], word_pieces[-1] + "</w>"] if glued else [*word_pieces, "</w>"]
    got = submission.word_bpe.decode(tokens)
    assert got == " ".join("".join(word_pieces) for word_pieces, _ in spelled), hint(
        "join the tokens, split at each '</w>', and join the words with single spaces"
    )
