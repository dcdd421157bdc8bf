"""Training is judged by property: any most-frequent pair at each step is right."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, reference, training_problem

ref = reference("word_bpe")


def trained_problem(text: str, num_merges: int, merges: object) -> tuple[str, str]:
    """What is wrong with ``merges`` as a training on ``text``, and the rule it breaks; ("", "") when nothing."""
    if not isinstance(merges, list) or not all(isinstance(m, tuple) and len(m) == 2 for m in merges):
        return "merges must be a list of (str, str) tuples", "in_order"
    if len(merges) > num_merges:
        return f"made {len(merges)} merges, but num_merges is {num_merges}: loop num_merges times at most", "at_most"
    replayed = training_problem(
        ref.word_frequencies(text),
        merges,
        [f"merge {step} is {pair!r}" for step, pair in enumerate(merges)],
        room=num_merges,
        count_pairs=ref.get_pair_counts,
        merge=lambda table, pair, _: ref.merge_pair(table, pair),
        counted=" (counting each word's frequency)",
    )
    return replayed.problem, replayed.rule if replayed.problem else ""


@pytest.mark.rules("in_order")
@pytest.mark.points(2)
def test_returns_the_merges_in_order(submission):
    """train_bpe returns the list of merges, in the order they were made"""
    got = submission.word_bpe.train_bpe("aaa aaa b", 5)
    shaped = isinstance(got, list) and all(isinstance(m, tuple) and len(m) == 2 for m in got)
    assert shaped and got[:1] == [("a", "a")], hint("return only the merges, as (str, str) tuples, the first first")
    # Which pairs are the other rules' to judge: replayed first, so a wrong choice is named as such.
    problem, rule = trained_problem("aaa aaa b", 5, got)
    assert problem == "", hint(problem, fix=rule)
    # After (a, a), the pairs (aa, a) and (a, </w>) tie: either is right, and either way three merges follow.
    assert len(got) == 3, hint("train until no pair is seen twice: this text allows three merges", fix="stops")


@pytest.mark.rules("most_frequent")
@pytest.mark.points(1)
@pytest.mark.parametrize(
    ("text", "num_merges"),
    [("low lower lowest low", 6), ("the then there the the", 8), ("ab ab ab ba", 4), ("Ça va? Ça va! Ça", 5)],
)
def test_every_merge_was_a_most_frequent_pair(submission, text, num_merges):
    """train_bpe takes a most frequent pair (counted with word frequencies) at every step"""
    problem, rule = trained_problem(text, num_merges, submission.word_bpe.train_bpe(text, num_merges))
    assert problem == "", hint(problem, fix=rule)


@pytest.mark.rules("most_frequent")
@pytest.mark.points(1)
def test_repeated_words_count_as_often_as_they_occur(submission):
    """train_bpe weights each word by its frequency, as training on the repeated words would"""
    merges = submission.word_bpe.train_bpe("ab ab ab cd cd", 1)
    assert merges != [], hint("ab occurs 3 times, so (a, b) is seen 3 times: weight every pair by its word's frequency")
    problem, rule = trained_problem("ab ab ab cd cd", 1, merges)
    assert problem == "", hint(problem, fix=rule)


@pytest.mark.rules("most_frequent")
@pytest.mark.points(1)
def test_merges_never_cross_words(submission):
    """train_bpe never merges across a space: every merge stays inside a word"""
    merges = submission.word_bpe.train_bpe("a b a b a b", 5)
    assert all(" " not in first + second for first, second in merges), hint(
        "train on word_frequencies(text), not on the raw text"
    )
    assert merges == [("a", "</w>"), ("b", "</w>")] or merges == [("b", "</w>"), ("a", "</w>")], hint(
        "the only repeated pairs are (a, </w>) and (b, </w>)"
    )


@pytest.mark.rules("stops", "at_most")
@pytest.mark.points(1)
def test_stops_when_no_pair_repeats(submission):
    """train_bpe stops early when the best pair occurs fewer than two times, and makes none for 0"""
    trained = submission.word_bpe.train_bpe("ab ab", 5)  # (a, b) and (b, </w>) tie: either first
    assert trained and trained_problem("ab ab", 5, trained)[0] == "", hint("merge while a pair is seen twice or more")
    assert submission.word_bpe.train_bpe("abc def", 5) == [], hint("every pair is seen once: stop at once")
    assert submission.word_bpe.train_bpe("aa aa", 0) == [], hint("num_merges=0 makes no merge")
    assert submission.word_bpe.train_bpe("", 3) == [], hint("no words, no pairs, no merges")
    assert submission.word_bpe.train_bpe("abc def", 10**7) == [], hint(
        "when no pair repeats, stop the loop (break), do not go on to the next round"
    )
    assert submission.word_bpe.train_bpe(" ", 10**7) == [], hint(
        "with no pair at all, stop the loop (break), do not go on to the next round"
    )


@pytest.mark.rules("most_frequent", "stops", "at_most")
@pytest.mark.points(1)
@examples(40)
@given(text=st.text(alphabet="ab c.\n", max_size=40), num_merges=st.integers(0, 8))
def test_hyp_training_is_valid_on_any_text(submission, text, num_merges):
    """train_bpe makes valid merges on any text"""
    problem, rule = trained_problem(text, num_merges, submission.word_bpe.train_bpe(text, num_merges))
    assert problem == "", hint(problem, fix=rule)
