import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, reference

ref = reference("word_bpe")

symbols = st.sampled_from(["a", "b", "ab", "ba", "x"])
words = st.lists(symbols, min_size=1, max_size=6).map(lambda w: (*w, "</w>"))
tables = st.dictionaries(words, st.integers(1, 9), max_size=5)
pairs = st.tuples(st.sampled_from(["a", "b", "ab"]), st.sampled_from(["a", "b", "ba", "</w>"]))


@pytest.mark.rules("every_word")
@pytest.mark.points(2)
def test_merges_the_pair_in_every_word(submission):
    """merge_pair merges the pair in every word and keeps the frequencies"""
    got = submission.word_bpe.merge_pair({("l", "o", "w", "</w>"): 2, ("o", "w", "</w>"): 1}, ("o", "w"))
    assert got == {("l", "ow", "</w>"): 2, ("ow", "</w>"): 1}, hint("rebuild every word with the pair glued")


@pytest.mark.rules("every_word")
@pytest.mark.points(2)
def test_compares_whole_symbols(submission):
    """merge_pair never merges across a symbol's edge: ("xa", "b") holds no pair ("a", "b")"""
    got = submission.word_bpe.merge_pair({("xa", "b", "</w>"): 1, ("a", "bc", "</w>"): 1}, ("a", "b"))
    assert got == {("xa", "b", "</w>"): 1, ("a", "bc", "</w>"): 1}, hint(
        "compare symbols one by one; str.replace on the joined word matches inside symbols"
    )
    edge = submission.word_bpe.merge_pair({("a", "</w>"): 1}, ("</w>", "a"))  # the word's last symbol starts the pair
    assert edge == {("a", "</w>"): 1}, hint("a pair needs two symbols: stop one short of the word's end")


@pytest.mark.rules("every_word")
@pytest.mark.points(1)
def test_scans_left_to_right_without_overlap(submission):
    """merge_pair merges a a a into aa a, scanning left to right"""
    got = submission.word_bpe.merge_pair({("a", "a", "a", "</w>"): 1}, ("a", "a"))
    assert got == {("aa", "a", "</w>"): 1}, hint("after a merge, continue after both symbols")


@pytest.mark.rules("frequencies_add")
@pytest.mark.points(1)
def test_adds_frequencies_of_words_that_become_equal(submission):
    """merge_pair adds up the frequencies of two words the merge makes equal"""
    got = submission.word_bpe.merge_pair({("a", "b", "</w>"): 2, ("ab", "</w>"): 3}, ("a", "b"))
    assert got == {("ab", "</w>"): 5}, hint("if the merged word is already in the new table, add to its count")


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_does_not_change_the_table(submission):
    """merge_pair answers right with a new table and leaves the one it is given unchanged"""
    record = submission.word_bpe.merge_pair.call({("a", "b", "</w>"): 1}, ("a", "b"))
    assert record.returned == {("ab", "</w>"): 1}, hint("merge the pair in the word")
    assert not record.mutated, hint("build a new dict instead of editing the one you are given")


@pytest.mark.rules("every_word", "frequencies_add")
@pytest.mark.points(1)
@examples(40)
@given(table=tables, pair=pairs)
def test_hyp_merges_like_the_contract(submission, table, pair):
    """merge_pair is right for any table and pair"""
    assert submission.word_bpe.merge_pair(table, pair) == ref.merge_pair(table, pair), hint(
        "merge whole symbols left to right in each word; add frequencies of equal words"
    )
