import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint


@pytest.mark.rules("spelled", "counted")
@pytest.mark.points(1)
def test_counts_words_with_the_marker(submission):
    """word_frequencies counts each word, spelled as its characters plus "</w>\""""
    got = submission.word_bpe.word_frequencies("ab ab c")
    expected = {("a", "b", "</w>"): 2, ("c", "</w>"): 1}
    if isinstance(got, dict) and set(got) == set(expected):
        assert got == expected, hint(
            "the words are spelled right, their counts are not: ab occurs twice", fix="counted"
        )
    assert got == expected, hint(
        "spell each word as its characters, then the one symbol '</w>': tuple(word) + ('</w>',)", fix="spelled"
    )


@pytest.mark.rules("spelled")
@pytest.mark.points(1)
def test_the_marker_is_one_symbol_of_its_own(submission):
    """word_frequencies puts "</w>" after the characters as one more symbol, not glued to the last one"""
    got = submission.word_bpe.word_frequencies("tree")
    assert got == {("t", "r", "e", "e", "</w>"): 1}, hint(
        "add '</w>' as one more element of the tuple: tuple(word) + ('</w>',)"
    )


@pytest.mark.rules("counted")
@pytest.mark.points(1)
def test_counts_punctuation_and_keeps_case(submission):
    """word_frequencies counts punctuation pre-tokens too, keeps case, and of "" is {}"""
    got = submission.word_bpe.word_frequencies("Go, go, GO!")
    expected = {("G", "o", "</w>"): 1, (",", "</w>"): 2, ("g", "o", "</w>"): 1, ("G", "O", "</w>"): 1, ("!", "</w>"): 1}
    assert got == expected, hint("count every pre-token of pre_tokenize(text), as it is: do not lowercase")
    assert submission.word_bpe.word_frequencies("") == {}, hint("no pre-tokens, no entries: return {}")


@pytest.mark.rules("spelled", "counted")
@pytest.mark.points(1)
@examples(20)
@given(text=st.text(alphabet="xy z!\n", max_size=24))
def test_hyp_counts_add_up_to_the_pre_tokens(submission, text):
    """word_frequencies counts every pre-token once, spelled as its characters plus "</w>\""""
    pieces = re.findall(r"\w+|[^\s\w]+", text)
    table = submission.word_bpe.word_frequencies(text)
    uncounted = len(pieces) - sum(table.values())
    assert not uncounted, hint(
        "add 1 for every pre-token, repeats included: the counts add up to len(pre_tokenize(text))"
    )
    spelled = all(word[-1] == "</w>" and all(len(symbol) == 1 for symbol in word[:-1]) for word in table)
    assert spelled, hint("spell each pre-token as single characters, then '</w>' as a symbol of its own")
    strays = {"".join(word[:-1]) for word in table} ^ set(pieces)
    assert not strays, hint("the table holds exactly the pre-tokens of the text, each as one key")
