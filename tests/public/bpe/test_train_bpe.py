"""Public examples for train_bpe, judged as the hidden tests judge it: when pairs tie for most frequent, any
of them is right, so a training is checked step by step (each merge a most frequent pair of its step, seen
twice or more; no early stop while a pair repeats) by replaying it with your own get_pair_counts and
merge_pair. The answer must be a tuple of two lists, tokens then (str, str) merges: the grader checks the
type of each call's answer and says which type it wanted."""

from collections import Counter
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import Fault, early_stop, examples, hint, raised, training_problem

# The fix that goes with a kind of wrong training whose problem does not say it already.
FIXES: dict[Fault, str] = {
    Fault.NOT_MOST_FREQUENT: ": count the pairs again after every merge and merge a most frequent one",
}


def training_verdict(bpe, text: str, num_merges: int) -> tuple[str, str]:
    """What is wrong with ``bpe.train_bpe(text, num_merges)`` and how to fix it, with the rule the fix restores;
    ("", "") when nothing is.

    The replay calls the hand-in's own get_pair_counts and merge_pair.
    """
    final_tokens, merges = bpe.train_bpe(text, num_merges)
    if len(merges) > num_merges:
        return f"{len(merges)} merges, but num_merges is {num_merges}: make num_merges merges at most", "at_most"
    if "".join(final_tokens) != text:
        return (
            "the final tokens do not join back to the text: merge with merge_pair, which only glues neighbours",
            "tokens_join",
        )
    if len(merges) < num_merges and len(set(pairwise(final_tokens))) < len(final_tokens) - 1:
        best = max(Counter(pairwise(final_tokens)).values())
        fix, rule = early_stop(best, lambda: bpe.train_bpe("abab", 1)[1] == [("a", "b")])
        # early_stop's words say how often the pair is seen: said once, not twice.
        return f"stopped after {len(merges)} merges although, in the final tokens, {fix}", rule
    replayed = training_problem(
        list(text),
        merges,
        [f"merge {step} is {pair!r}" for step, pair in enumerate(merges)],
        room=num_merges,
        count_pairs=bpe.get_pair_counts,
        merge=lambda tokens, pair, _: bpe.merge_pair(tokens, pair),
        merges_twice=lambda: bpe.train_bpe("abab", 1)[1] == [("a", "b")],
    )
    if replayed.fault is not None:
        return replayed.problem + FIXES.get(replayed.fault, ""), replayed.rule
    if final_tokens != replayed.state:
        return "the final tokens are not the text after your merges: return the tokens of the last merge", "tokens_join"
    return "", ""


@pytest.mark.rules("returns")
@pytest.mark.points(2)
def test_returns_the_final_tokens_then_the_merges(submission):
    """train_bpe("hohoho", 10) returns (["hoho", "ho"], [("h", "o"), ("ho", "ho")])"""
    trained = submission.bpe.train_bpe("hohoho", 10)
    shaped = isinstance(trained, tuple) and len(trained) == 2 and all(isinstance(side, list) for side in trained)
    if shaped and trained[0] and not isinstance(trained[0][0], tuple):
        # The shape is right: what is wrong is one of the training's rules, which the replay tells apart.
        verdict = training_verdict(submission.bpe, "hohoho", 10)
        assert not verdict[0], hint(*verdict)
    assert trained == (["hoho", "ho"], [("h", "o"), ("ho", "ho")]), hint(
        "return the tuple (tokens, merges): the final tokens first, then the merges in the order made"
    )


# Each has pairs that tie for most frequent at some step, and a pair whose count changes after a merge.
TIED_TEXTS = {"mississippi": 4, "the theme then thaws\nthe thorn": 7, "ananas banana bandana": 6, "ßßß 🙂🙂ßß 🙂🙂": 3}


@pytest.mark.rules("most_frequent")
@pytest.mark.points(3)
def test_every_merge_is_a_most_frequent_pair(submission):
    """train_bpe merges a most frequent pair at every step (any of them on a tie) and recounts after each"""
    for text, num_merges in TIED_TEXTS.items():
        verdict = training_verdict(submission.bpe, text, num_merges)
        assert not verdict[0], hint(*verdict)


@pytest.mark.rules("stops")
@pytest.mark.points(2)
def test_stops_when_no_pair_repeats(submission):
    """train_bpe stops as soon as no pair occurs twice, without running out its num_merges"""
    assert submission.bpe.train_bpe("qwerty", 4) == (list("qwerty"), []), hint(
        "every pair of qwerty occurs once: stop before merging one (the best count is below 2)"
    )
    assert submission.bpe.train_bpe("hoho", 100_000_000) == (["ho", "ho"], [("h", "o")]), hint(
        "when the best count is below 2, leave the loop (break) instead of going on to the next round"
    )


def crash_on(bpe, text: str) -> str:
    """What ``bpe.train_bpe(text, 3)`` raised, with the fix, or "" when it returned."""
    crash = raised(bpe.train_bpe, text, 3)
    if crash is None:
        return ""
    return f"train_bpe({text!r}, 3) raised {crash[0]} ({crash[1]}): with no pair at all, stop (break) before you look for the best pair"


@pytest.mark.rules("stops")
@pytest.mark.points(2)
def test_text_of_fewer_than_two_characters_trains_to_nothing(submission):
    """train_bpe("") is ([], []) and train_bpe("z") is (["z"], []), without an error or a hang"""
    assert submission.bpe.train_bpe("zzzz", 3) == (["zz", "zz"], [("z", "z")]), hint(
        "merge the most frequent pair (z, z), recount, and stop when no pair occurs twice"
    )
    crash = crash_on(submission.bpe, "")
    assert not crash, hint(crash)
    assert submission.bpe.train_bpe("", 3) == ([], []), hint('train_bpe("", 3) must be ([], []): no pair, no merge')
    crash = crash_on(submission.bpe, "z")
    assert not crash, hint(crash)
    assert submission.bpe.train_bpe("z", 3) == (["z"], []), hint('train_bpe("z", 3) must be (["z"], [])')


@pytest.mark.rules("at_most")
@pytest.mark.points(1)
def test_makes_at_most_num_merges(submission):
    """train_bpe makes no more than num_merges merges, and none for num_merges=0"""
    doubling = [("x", "x"), ("xx", "xx"), ("xxxx", "xxxx")]
    assert submission.bpe.train_bpe("x" * 16, 3) == (["x" * 8, "x" * 8], doubling), hint(
        "make num_merges merges at most: loop for _ in range(num_merges)"
    )
    assert submission.bpe.train_bpe("xxxx", 0) == (list("xxxx"), []), hint(
        "num_merges=0 makes no merge: the tokens are the characters"
    )


@pytest.mark.rules("most_frequent", "stops", "at_most", "tokens_join")
@pytest.mark.points(2)
@examples(25)
@given(text=st.text(alphabet="xy z\n", max_size=30), num_merges=st.integers(0, 6))
def test_hyp_training_is_valid_on_any_text(submission, text, num_merges):
    """train_bpe makes valid merges on any text, and its final tokens join back to the text"""
    verdict = training_verdict(submission.bpe, text, num_merges)
    assert not verdict[0], hint(*verdict)
