"""Training is judged by property: any most-frequent pair at each step is right."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, reference, training_problem

ref = reference("bpe")


def trained_problem(text: str, num_merges: int, tokens: object, merges: object) -> tuple[str, str]:
    """What is wrong with (tokens, merges) as a training of text, and the rule it breaks; ("", "") when nothing."""
    if not isinstance(merges, list) or not all(isinstance(m, tuple) and len(m) == 2 for m in merges):
        return "merges must be a list of (str, str) tuples", "returns"
    if len(merges) > num_merges:
        return f"made {len(merges)} merges, but num_merges is {num_merges}: loop num_merges times at most", "at_most"
    replayed = training_problem(
        list(text),
        merges,
        [f"merge {step} is {pair!r}" for step, pair in enumerate(merges)],
        room=num_merges,
        count_pairs=ref.get_pair_counts,
        merge=lambda tokens, pair, _: ref.merge_pair(tokens, pair),
    )
    if replayed.problem:
        return replayed.problem, replayed.rule
    if tokens != replayed.state:
        return "the final tokens are not the text with your merges applied", "tokens_join"
    return "", ""


@pytest.mark.rules("returns")
@pytest.mark.points(2)
def test_returns_tokens_then_merges(submission):
    """train_bpe returns a tuple (final_tokens, merges) of two lists"""
    got = submission.bpe.train_bpe("abab", 5)
    assert isinstance(got, tuple) and len(got) == 2, hint("return tokens, merges: a tuple of two values")
    tokens, merges = got
    # The shape alone: which merges and which tokens are the other rules' to judge, so that a wrong choice of
    # pair is not blamed on the order of the two lists.
    assert isinstance(tokens, list) and all(isinstance(token, str) for token in tokens), hint(
        "first the final tokens, a list of str, then the list of merges"
    )
    assert isinstance(merges, list) and all(isinstance(m, tuple) and len(m) == 2 for m in merges), hint(
        "second the merges, a list of (str, str) tuples in the order made"
    )
    # The gate an answer of the right shape must pass too: its tokens are the text's, so a constant earns nothing.
    assert "".join(tokens) == "abab", hint(
        "the final tokens join back to the text: merge with merge_pair, which only glues neighbours", fix="tokens_join"
    )


@pytest.mark.rules("most_frequent")
@pytest.mark.points(3)
def test_first_merge_is_the_most_frequent_pair(submission):
    """train_bpe merges the most frequent pair first"""
    tokens, merges = submission.bpe.train_bpe("aaabdaaabac", 1)
    if isinstance(merges, list) and len(merges) > 1:
        assert merges == [("a", "a")], hint(
            f"num_merges is 1 and it made {len(merges)} merges: loop num_merges times at most", fix="at_most"
        )
    assert merges == [("a", "a")], hint("pick the pair with the highest count, not the lowest or the first")


@pytest.mark.rules("most_frequent")
@pytest.mark.points(1)
@pytest.mark.parametrize(
    ("text", "num_merges"),
    [("aaabdaaabac", 3), ("low lower lowest", 6), ("the cat sat on the mat\nthe end", 8), ("ééé 🙂🙂 ééé 🙂🙂", 4)],
)
def test_every_merge_was_a_most_frequent_pair(submission, text, num_merges):
    """train_bpe takes a most frequent pair at every step (any of them on a tie)"""
    tokens, merges = submission.bpe.train_bpe(text, num_merges)
    problem, rule = trained_problem(text, num_merges, tokens, merges)
    assert problem == "", hint(problem, fix=rule)


@pytest.mark.rules("stops")
@pytest.mark.points(3)
def test_stops_when_no_pair_repeats(submission):
    """train_bpe stops early when the best pair occurs fewer than two times"""
    assert submission.bpe.train_bpe("abcdef", 5) == (list("abcdef"), []), hint(
        "a pair seen once is not worth a merge: stop"
    )
    tokens, merges = submission.bpe.train_bpe("abab", 10)
    assert merges == [("a", "b")], hint("after merging, (ab, ab) is seen once: stop there")
    # Stopping means leaving the loop: ten million rounds with nothing left to merge would run out of time.
    assert submission.bpe.train_bpe("abab", 10**7)[1] == [("a", "b")], hint(
        "when no pair repeats, stop the loop (break), do not go on to the next round"
    )
    assert submission.bpe.train_bpe("a", 10**7) == (["a"], []), hint(
        "with no pair at all, stop the loop (break), do not go on to the next round"
    )


@pytest.mark.rules("at_most")
@pytest.mark.points(2)
def test_makes_at_most_num_merges(submission):
    """train_bpe never makes more than num_merges merges, and none for 0"""
    tokens, merges = submission.bpe.train_bpe("aaaaaaaa", 2)
    assert merges == [("a", "a"), ("aa", "aa")], hint("loop num_merges times at most")
    assert submission.bpe.train_bpe("aaaa", 0) == (list("aaaa"), []), hint("num_merges=0 makes no merge")


@pytest.mark.rules("stops")
@pytest.mark.points(1)
def test_short_text_trains_to_nothing(submission):
    """train_bpe of "" or one character returns it unmerged, without looping"""
    assert submission.bpe.train_bpe("", 5) == ([], []), hint("no pairs at all: stop at once")
    assert submission.bpe.train_bpe("a", 5) == (["a"], []), hint("one token has no pair: stop at once")


@pytest.mark.rules("most_frequent", "stops", "at_most", "tokens_join")
@pytest.mark.points(3)
@examples(40)
@given(text=st.text(alphabet="ab c\n", max_size=40), num_merges=st.integers(0, 8))
def test_hyp_training_is_valid_on_any_text(submission, text, num_merges):
    """train_bpe makes valid merges on any text, and its tokens join back to the text"""
    tokens, merges = submission.bpe.train_bpe(text, num_merges)
    assert "".join(tokens) == text, hint("merging only glues neighbours: the tokens must join back to the text")
    problem, rule = trained_problem(text, num_merges, tokens, merges)
    assert problem == "", hint(problem, fix=rule)
