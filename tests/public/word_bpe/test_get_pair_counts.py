from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint

words = st.lists(st.sampled_from(["x", "y", "xy", "z"]), min_size=0, max_size=4).map(lambda w: (*w, "</w>"))
word_tables = st.dictionaries(words, st.integers(1, 6), max_size=4)


@pytest.mark.rules("weighted")
@pytest.mark.points(1)
def test_weights_pairs_by_word_frequency(submission):
    """get_pair_counts adds a word's frequency for each of its pairs"""
    got = submission.word_bpe.get_pair_counts({("a", "b", "</w>"): 3})
    across = (
        [pair for pair in got if isinstance(pair, tuple) and pair[:1] == ("</w>",)] if isinstance(got, dict) else []
    )
    if across:
        assert got == {("a", "b"): 3, ("b", "</w>"): 3}, hint(
            f"{across[0]!r} starts after a word's end: count the pairs inside each word only, then add the word's"
            " frequency for each",
            fix="inside_words",
        )
    assert got == {("a", "b"): 3, ("b", "</w>"): 3}, hint("add the word's frequency, not 1")


@pytest.mark.rules("inside_words")
@pytest.mark.points(1)
def test_pairs_stay_inside_words(submission):
    """get_pair_counts never pairs the end of one word with the start of the next"""
    got = submission.word_bpe.get_pair_counts({("n", "o", "</w>"): 1, ("o", "n", "</w>"): 2})
    assert got == {("n", "o"): 1, ("o", "</w>"): 1, ("o", "n"): 2, ("n", "</w>"): 2}, hint(
        "count the pairs of each word on its own: the last symbol of a word never pairs with the next word"
    )


@pytest.mark.rules("weighted")
@pytest.mark.points(1)
def test_counts_overlapping_pairs_and_whole_symbols(submission):
    """get_pair_counts counts e e twice in e e e, and a merged symbol such as "ee" as one symbol"""
    got = submission.word_bpe.get_pair_counts({("e", "e", "e", "</w>"): 2, ("ee", "e", "</w>"): 1})
    assert got == {("e", "e"): 4, ("e", "</w>"): 3, ("ee", "e"): 1}, hint(
        "every adjacent pair counts, overlapping ones too; compare whole symbols, never their characters"
    )


@pytest.mark.rules("weighted")
@pytest.mark.points(1)
def test_a_word_of_one_symbol_has_no_pair(submission):
    """get_pair_counts adds nothing for a word of one symbol, and gives {} for an empty table"""
    got = submission.word_bpe.get_pair_counts({("go</w>",): 3, ("g", "o", "</w>"): 1})
    assert got == {("g", "o"): 1, ("o", "</w>"): 1}, hint("a word of one symbol has no adjacent pair: skip it")
    assert submission.word_bpe.get_pair_counts({}) == {}, hint("no words, no pairs: return an empty Counter")


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_does_not_change_the_table(submission):
    """get_pair_counts counts right and leaves the table it is given unchanged"""
    record = submission.word_bpe.get_pair_counts.call({("o", "o", "</w>"): 2, ("o", "</w>"): 1})
    assert record.returned == {("o", "o"): 2, ("o", "</w>"): 3}, hint("add each word's frequency to its pairs")
    assert not record.mutated, hint("only read the table: count into a new Counter, do not edit the dict given")


@pytest.mark.rules("weighted", "inside_words")
@pytest.mark.points(1)
@examples(20)
@given(table=word_tables)
def test_hyp_every_pair_of_every_word_is_counted(submission, table):
    """get_pair_counts gives each word's frequency to each of its adjacent pairs, on any table"""
    counts = submission.word_bpe.get_pair_counts(table)
    inside = {pair for word in table for pair in pairwise(word)}
    strays = set(counts) ^ inside
    assert not strays, hint("count exactly the adjacent pairs inside the words, and no other pair")
    uncounted = sum(frequency * (len(word) - 1) for word, frequency in table.items()) - sum(counts.values())
    assert not uncounted, hint(
        "a word of n symbols seen f times adds f to each of its n - 1 pairs: the counts add up to that"
    )
