from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint

pairs = st.sampled_from([("p", "q"), ("p", "p"), ("q", "pq"), ("r", "p")])


@st.composite
def tables_and_pairs(draw: st.DrawFn) -> tuple[dict[tuple[str, ...], int], tuple[str, str]]:
    """A pair, and a table of words made of its symbols, each word beside its twin with the pair split up."""
    pair = draw(pairs)
    glued = pair[0] + pair[1]
    table: dict[tuple[str, ...], int] = {}
    for symbols in draw(st.lists(st.lists(st.sampled_from([*pair, glued, "r"]), min_size=1, max_size=3), max_size=3)):
        split = [part for symbol in symbols for part in (pair if symbol == glued else (symbol,))]
        table[(*symbols, "</w>")] = draw(st.integers(1, 5))
        table[(*split, "</w>")] = draw(st.integers(1, 5))
    return table, pair


def spelled_out(table: dict[tuple[str, ...], int]) -> dict[str, int]:
    """Each word's symbols joined, the frequencies of words spelled the same added up."""
    spelled: dict[str, int] = {}
    for word, frequency in table.items():
        spelled["".join(word)] = spelled.get("".join(word), 0) + frequency
    return spelled


@pytest.mark.rules("every_word")
@pytest.mark.points(1)
def test_merges_the_pair_in_every_word(submission):
    """merge_pair merges the pair in every word and keeps the frequencies"""
    got = submission.word_bpe.merge_pair({("s", "e", "e", "</w>"): 2, ("b", "e", "e", "</w>"): 3}, ("e", "e"))
    assert got == {("s", "ee", "</w>"): 2, ("b", "ee", "</w>"): 3}, hint(
        "rebuild every word with the pair glued, and keep its frequency"
    )
    # ("ee", "e") is not the pair ("e", "e"), though the word's spelled-out text holds "e e".
    got = submission.word_bpe.merge_pair({("s", "ee", "e", "</w>"): 1}, ("e", "e"))
    assert got == {("s", "ee", "e", "</w>"): 1}, hint(
        "compare whole symbols: ee followed by e is not the pair (e, e), though the text of the word reads e e",
    )


@pytest.mark.rules("frequencies_add")
@pytest.mark.points(2)
def test_adds_up_words_that_become_the_same(submission):
    """merge_pair adds up the frequencies of words that the merge makes equal"""
    table = {("n", "o", "</w>"): 3, ("no", "</w>"): 2, ("n", "o", "n", "o", "</w>"): 1}
    got = submission.word_bpe.merge_pair(table, ("n", "o"))
    assert got == {("no", "</w>"): 5, ("no", "no", "</w>"): 1}, hint(
        "when the merged word is already in the new table, add its frequency to the count there, do not replace it"
    )


@pytest.mark.rules("every_word")
@pytest.mark.points(1)
def test_keeps_words_without_the_pair(submission):
    """merge_pair keeps a word without the pair as it is, and gives {} for an empty table"""
    got = submission.word_bpe.merge_pair({("u", "p", "</w>"): 4, ("o", "n", "</w>"): 1, ("on</w>",): 2}, ("o", "n"))
    assert got == {("u", "p", "</w>"): 4, ("on", "</w>"): 1, ("on</w>",): 2}, hint(
        "copy every word into the new table, merged or not, with its frequency"
    )
    assert submission.word_bpe.merge_pair({}, ("o", "n")) == {}, hint("no words, nothing to merge: return {}")


@pytest.mark.rules("every_word")
@pytest.mark.points(1)
def test_compares_whole_symbols(submission):
    """merge_pair never merges across a symbol's edge: ("ca", "t") holds no pair ("a", "t")"""
    table = {("ca", "t", "</w>"): 2, ("c", "at", "</w>"): 1}
    got = submission.word_bpe.merge_pair(table, ("a", "t"))
    assert got == table, hint("compare symbols one by one; str.replace on the joined word matches inside symbols")


@pytest.mark.rules("every_word")
@pytest.mark.points(1)
def test_scans_left_to_right_without_overlap(submission):
    """merge_pair merges o o o into oo o and o o o o into oo oo"""
    got = submission.word_bpe.merge_pair({("o", "o", "o", "</w>"): 1, ("o", "o", "o", "o", "</w>"): 2}, ("o", "o"))
    assert got == {("oo", "o", "</w>"): 1, ("oo", "oo", "</w>"): 2}, hint(
        "after a merge, go on after both symbols: a symbol is never used by two merges"
    )


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_does_not_change_the_table(submission):
    """merge_pair returns a new table and leaves the one it is given unchanged"""
    record = submission.word_bpe.merge_pair.call({("h", "i", "</w>"): 2, ("h", "</w>"): 1}, ("h", "i"))
    assert record.returned == {("hi", "</w>"): 2, ("h", "</w>"): 1}, hint("merge the pair in each word")
    assert not record.mutated, hint("build a new dict instead of editing the table you are given in place")


@pytest.mark.rules("every_word", "frequencies_add")
@pytest.mark.points(1)
@examples(20)
@given(case=tables_and_pairs())
def test_hyp_merging_keeps_every_word_and_its_count(submission, case):
    """merge_pair only regroups symbols: on any table, the words' letters and their counts stay the same"""
    table, pair = case
    merged = submission.word_bpe.merge_pair(table, pair)
    changed = spelled_out(merged).items() ^ spelled_out(table).items()  # a word's letters or count that changed
    assert not changed, hint(
        "merging only joins neighbouring symbols, and words that become the same add up their frequencies"
    )
    old = {symbol for word in table for symbol in word}
    assert all(symbol in old or symbol == pair[0] + pair[1] for word in merged for symbol in word), hint(
        "each symbol is one of the word's own or the pair glued: compare whole symbols, never their characters"
    )
    left = [word for word in merged if pair in pairwise(word)]
    assert left == [], hint("merge every occurrence of the pair, left to right: none may be left next to each other")
