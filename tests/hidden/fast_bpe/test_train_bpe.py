"""Part 5 (bonus): the incremental trainer must equal the naive recount, ties included, and be much faster."""

import hashlib
import time
from collections import Counter
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import KIT_ROOT, examples, hint, once_a_batch, reference, speed_problem

pytestmark = pytest.mark.bonus
ref = reference("fast_bpe")
part_3 = reference("word_bpe")
SPEED_MERGES = 1000
SPEED_WORDS = 1000  # the most frequent words of the notebooks' excerpt: the recount takes about a second
TARGET_RATIO = 10.0
SPEED_ROUNDS = 3  # the best of three, each on a table of its own: a busy machine slows a run, never speeds it up


def oracle(word_freqs: dict[str, int], num_merges: int) -> list[tuple[str, str]]:
    table = {(*word, ref.END_OF_WORD): count for word, count in word_freqs.items()}
    return ref.train_by_recount(table, num_merges, count_pairs=part_3.get_pair_counts, merge_pair=part_3.merge_pair)


@cache
def speed_table(round_number: int, example_seed: int = 0) -> dict[str, int]:
    text = (KIT_ROOT / "exercises" / "data" / "shakespeare.txt").read_text(encoding="utf-8")
    words = Counter(part_3.pre_tokenize(text)).most_common(SPEED_WORDS)
    # Counts reshaped by a rule of the hand-in's draw (example_seed, from the course's secret), another each
    # round: a trainer cannot carry the answer for a table it can guess, nor one a classmate's hand-in saw.
    return {word: 3 * count + _reshaped(word, round_number, example_seed) for word, count in words}


def _reshaped(word: str, round_number: int, example_seed: int) -> int:
    return hashlib.blake2b(f"{example_seed} {round_number} {word}".encode(), digest_size=2).digest()[0] % 7


@cache
def speed_answer(round_number: int, example_seed: int = 0) -> list[tuple[str, str]]:
    # The reference trainer, which tests/kit/testing/test_cross_checks.py proves equal to the recount, answers in a
    # blink: only the first table pays for the recount, and only to time it.
    return ref.train_bpe(speed_table(round_number, example_seed), SPEED_MERGES)


@once_a_batch
def recount_seconds() -> float:
    """The naive recount's time on the first speed table, once a batch (the same for every hand-in)."""
    started = time.perf_counter()
    oracle(speed_table(0), SPEED_MERGES)
    return time.perf_counter() - started


@pytest.mark.rules("spelled", "largest")
@pytest.mark.points(2)
def test_a_worked_example(submission):
    """train_bpe learns the merges of a small table, largest (count, pair) first"""
    got = submission.fast_bpe.train_bpe({"low": 5, "lower": 2, "newest": 6, "widest": 3}, 4)
    assert got == [("t", "</w>"), ("s", "t</w>"), ("e", "st</w>"), ("o", "w")], hint(
        "spell each word as its characters plus '</w>' and weight each pair by the word's count"
    )


@pytest.mark.rules("largest")
@pytest.mark.points(1)
def test_ties_go_to_the_largest_pair(submission):
    """train_bpe breaks a tie by taking the largest pair, as max(counts, key=lambda p: (counts[p], p)) does"""
    got = submission.fast_bpe.train_bpe({"ab": 2, "cd": 2}, 1)
    assert got == [("d", "</w>")], hint("on equal counts compare the pairs themselves: the largest wins")


@pytest.mark.rules("stops")
@pytest.mark.points(1)
def test_stops_when_no_pair_repeats(submission):
    """train_bpe stops when the best pair is seen fewer than two times, and makes none for 0 merges"""
    assert submission.fast_bpe.train_bpe({"ab": 2}, 5) == oracle({"ab": 2}, 5), hint(
        "merge while a pair is seen twice or more"
    )
    assert submission.fast_bpe.train_bpe({"abc": 1, "def": 1}, 5) == [], hint("every pair is seen once: stop")
    assert submission.fast_bpe.train_bpe({"aa": 9}, 0) == [], hint("num_merges=0 makes no merge")
    assert submission.fast_bpe.train_bpe({}, 3) == [], hint("an empty table has no pairs")


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_leaves_the_table_as_it_was(submission):
    """train_bpe answers right and does not change the table it is given"""
    record = submission.fast_bpe.train_bpe.call({"aaa": 2, "ab": 3}, 3)
    assert record.returned == oracle({"aaa": 2, "ab": 3}, 3), hint("answer right: the recount's merges")
    assert not record.mutated, hint("keep your own copies of the words and counts")


@pytest.mark.rules("spelled", "largest", "stops")
@pytest.mark.points(3)
@examples(60)
@given(
    words=st.dictionaries(st.text(alphabet="aabc", min_size=1, max_size=8), st.integers(1, 6), max_size=8),
    num_merges=st.integers(0, 14),
)
def test_hyp_same_merges_as_the_naive_recount(submission, words, num_merges):
    """train_bpe makes exactly the merges of the naive recount, on any table, ties and overlaps included"""
    got = submission.fast_bpe.train_bpe(words, num_merges)
    assert got == oracle(words, num_merges), hint(
        "after a merge, take each changed word's old pairs out of the counts and its new pairs in"
    )


@pytest.mark.rules("speed")
@pytest.mark.points(4)
@pytest.mark.call_seconds(10)  # a recount-speed trainer must get its ratio, not a timeout
def test_at_least_ten_times_faster_than_the_recount(submission, example_seed):
    """train_bpe makes 1,000 merges at least 10 times faster than the naive recount, timed in this run"""

    def check(round_number: int, got: object) -> None:
        assert got == speed_answer(round_number, example_seed), hint(
            "on the speed test's tables too, the merges must be the recount's", fix="largest"
        )

    problem = speed_problem(
        SPEED_ROUNDS,
        lambda round_number: submission.fast_bpe.train_bpe(speed_table(round_number, example_seed), SPEED_MERGES),
        check,
        recount_seconds,
        TARGET_RATIO,
        slow_way="the recount",
        advice="revisit only the words that hold the merged pair, and find the best pair with a heap",
    )
    assert not problem, hint(problem)
