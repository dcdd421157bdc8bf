import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, reference

ref = reference("word_bpe")

words = st.lists(st.sampled_from(["a", "b", "ab"]), min_size=1, max_size=5).map(lambda w: (*w, "</w>"))
tables = st.dictionaries(words, st.integers(1, 9), max_size=5)


@pytest.mark.rules("weighted")
@pytest.mark.points(3)
def test_weights_pairs_by_word_frequency(submission):
    """get_pair_counts adds a word's frequency for each of its pairs"""
    table = {("a", "b", "</w>"): 3, ("b", "</w>"): 1}
    got = submission.word_bpe.get_pair_counts(table)
    inside = {pair for word in table for pair in itertools.pairwise(word)}
    if isinstance(got, dict) and set(got) - inside:
        assert got == {("a", "b"): 3, ("b", "</w>"): 4}, hint(
            f"{sorted(set(got) - inside)[0]!r} is no pair of one word: count inside each word, never across two",
            fix="inside_words",
        )
    assert got == {("a", "b"): 3, ("b", "</w>"): 4}, hint("a word seen 3 times adds 3 to each of its pairs, not 1")


@pytest.mark.rules("inside_words")
@pytest.mark.points(2)
def test_pairs_never_span_two_words(submission):
    """get_pair_counts counts pairs inside each word only"""
    got = submission.word_bpe.get_pair_counts({("a", "</w>"): 2, ("b", "</w>"): 1})
    assert got == {("a", "</w>"): 2, ("b", "</w>"): 1}, hint(
        "count within each word; never pair the end of one word with the next"
    )


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_does_not_change_the_table(submission):
    """get_pair_counts answers right and leaves the table unchanged"""
    table = {("a", "a", "</w>"): 2}
    record = submission.word_bpe.get_pair_counts.call(table)
    assert record.returned == {("a", "a"): 2, ("a", "</w>"): 2}, hint("count each pair, weighted")
    assert not record.mutated, hint("read the table; do not change it")


@pytest.mark.rules("weighted", "inside_words")
@pytest.mark.points(1)
@examples(40)
@given(table=tables)
def test_hyp_counts_match_on_any_table(submission, table):
    """get_pair_counts is right for any table of words"""
    assert submission.word_bpe.get_pair_counts(table) == ref.get_pair_counts(table), hint(
        "for each word, each pair of neighbours gets the word's frequency added"
    )
