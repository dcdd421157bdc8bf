"""Training is judged by its property, with your own word_frequencies, get_pair_counts and merge_pair: any
most frequent pair at each step is right, so every way of breaking ties earns every point."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, training_problem


def what_is_wrong(submission, text: str, num_merges: int) -> tuple[str, str]:
    """Train on ``text``, then replay the merges with the submission's own helpers: ("", "") when each was a
    most frequent pair of its step and training stopped only when it had to, else what went wrong and the rule
    whose fix that names."""
    word_bpe = submission.word_bpe
    learned = word_bpe.train_bpe(text, num_merges)
    if len(learned) > num_merges:
        return f"made {len(learned)} merges, but num_merges is {num_merges}: make at most num_merges", "at_most"
    replayed = training_problem(
        word_bpe.word_frequencies(text),
        learned,
        [f"merge number {number} ({first!r}, {second!r})" for number, (first, second) in enumerate(learned)],
        room=num_merges,
        count_pairs=word_bpe.get_pair_counts,
        merge=lambda table, pair, _: word_bpe.merge_pair(table, pair),
        counted=" (each word counted as often as it occurs)",
        merges_twice=lambda: len(word_bpe.train_bpe("ab ab", 1)) == 1,
    )
    return replayed.problem, replayed.rule


@pytest.mark.rules("in_order")
@pytest.mark.points(1)
def test_returns_the_merges_in_the_order_made(submission):
    """train_bpe returns a list of (str, str) pairs, the first merge first"""
    merges = submission.word_bpe.train_bpe("banana bandana", 6)
    assert merges[:1] == [("a", "n")], hint("a n is the most frequent pair (4 times): it is merges[0]")
    wrong = what_is_wrong(submission, "banana bandana", 6)
    assert not wrong[0], hint(*wrong)


@pytest.mark.rules("most_frequent")
@pytest.mark.points(1)
@pytest.mark.parametrize(
    ("text", "num_merges"), [("that hat is that", 6), ("sheep sheep sleep", 8), ("mama mia, mama!", 2)]
)
def test_each_merge_is_a_most_frequent_pair(submission, text, num_merges):
    """train_bpe merges a most frequent pair at every step, counted again after each merge"""
    wrong = what_is_wrong(submission, text, num_merges)
    assert not wrong[0], hint(*wrong)


@pytest.mark.rules("most_frequent")
@pytest.mark.points(1)
def test_counts_a_word_as_often_as_it_occurs(submission):
    """train_bpe weights each word by its frequency: "zz zz zz xy" repeats z z"""
    merges = submission.word_bpe.train_bpe("zz zz zz xy", 1)
    assert merges in ([("z", "z")], [("z", "</w>")]), hint(
        "train on word_frequencies(text): zz occurs 3 times, so its pairs are seen 3 times each"
    )


@pytest.mark.rules("stops", "at_most")
@pytest.mark.points(1)
def test_stops_when_no_pair_repeats(submission):
    """train_bpe stops when the best pair is seen fewer than two times, and makes none for 0 merges"""
    assert submission.word_bpe.train_bpe("ha ha", 1) in ([("h", "a")], [("a", "</w>")]), hint(
        "h a and a </w> are each seen twice: merge one of them"
    )
    assert submission.word_bpe.train_bpe("cat dog", 5) == [], hint("each pair is seen once: merge nothing")
    assert submission.word_bpe.train_bpe("ha ha", 0) == [], hint("num_merges=0 allows no merge")
    assert submission.word_bpe.train_bpe("", 4) == [], hint("no words, no pairs: return []")
    assert submission.word_bpe.train_bpe("one two", 10**6) == [], hint(
        "when no pair repeats, stop the loop (break) instead of going round again"
    )


@pytest.mark.rules("most_frequent", "at_most", "stops")
@pytest.mark.points(1)
@examples(20)
@given(text=st.text(alphabet="pq r,\n", max_size=30), num_merges=st.integers(0, 5))
def test_hyp_every_merge_is_a_most_frequent_pair(submission, text, num_merges):
    """train_bpe makes at most num_merges merges, each a most frequent pair of its step, on any text"""
    wrong = what_is_wrong(submission, text, num_merges)
    assert not wrong[0], hint(*wrong)
