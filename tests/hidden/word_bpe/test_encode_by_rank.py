"""Encoding by rank: encode's tokens on merges that training made, and much faster than replaying them in order."""

import hashlib
import time
from collections import Counter
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import KIT_ROOT, examples, hint, once_a_batch, reference, speed_problem

ref = reference("word_bpe")
fast = reference("fast_bpe")
SPEED_MERGES = 2000
SPEED_WORDS = 800
TARGET_RATIO = 5.0
SPEED_ROUNDS = 3  # the best of three, each on a word list of its own: a busy machine slows a run, never speeds it up


@cache
def shakespeare_words() -> Counter[str]:
    text = (KIT_ROOT / "exercises" / "data" / "shakespeare.txt").read_text(encoding="utf-8")
    return Counter(ref.pre_tokenize(text))


@cache
def speed_merges() -> list[tuple[str, str]]:
    # Every count doubled, so every pair repeats and training runs the full 2,000 merges (the fast trainer:
    # any trainer's merges are fair, and this one takes a tenth of a second).
    return fast.train_bpe({word: 2 * count for word, count in shakespeare_words().items()}, SPEED_MERGES)


@cache
def speed_text(round_number: int, example_seed: int = 0) -> str:
    # Another word list each round, in an order of the hand-in's draw (example_seed, from the course's secret):
    # an answer cannot be carried between rounds, nor from a classmate's hand-in.
    def order(word: str) -> bytes:
        return hashlib.blake2b(f"{example_seed} {round_number} {word}".encode(), digest_size=8).digest()

    return " ".join(sorted(shakespeare_words(), key=order)[:SPEED_WORDS])


@cache
def speed_answer(round_number: int, example_seed: int = 0) -> list[str]:
    """encode's tokens of a round's word list, by the reference's encode_by_rank: once per grader process and
    example set, not once per hand-in."""
    return ref.encode_by_rank(speed_text(round_number, example_seed), speed_merges())


@once_a_batch
def replay_seconds() -> float:
    """In-order replay (the contract's encode) on the first word list, once a batch."""
    started = time.perf_counter()
    ref.encode(speed_text(0), speed_merges())
    return time.perf_counter() - started


MERGES = ref.train_bpe("low lower lowest low newer wider", 10)
# [('l', 'o'), ('lo', 'w'), ('e', 'r'), ('er', '</w>'), ('low', '</w>')]


@pytest.mark.rules("lowest_rank")
@pytest.mark.points(2)
def test_a_traced_word(submission):
    """encode_by_rank merges the lowest-ranked pair of a word first, step after step"""
    # l o w e r </w>  ->  (l,o) rank 0: lo w e r </w>  ->  (lo,w) rank 1: low e r </w>
    #                 ->  (e,r) rank 2: low er </w>    ->  (er,</w>) rank 3: low er</w>  ->  no pair left is a merge
    traced = submission.word_bpe.encode_by_rank("lower", MERGES)
    if isinstance(traced, list) and traced and not any(str(token).endswith("</w>") for token in traced):
        assert traced == ["low", "er</w>"], hint(
            "the word does not end in '</w>': spell it as list(word) + ['</w>'], as encode does", fix="same_as_encode"
        )
    assert traced == ["low", "er</w>"], hint(
        "in each word, merge the adjacent pair whose index in merges is smallest, then look again"
    )
    # (a,b) rank 0 comes before (c,</w>) rank 2; taken the other way, (b,c</w>) rank 3 would take the b from a
    merges = ref.train_bpe("ab ab ab bc bc abc", 10)  # [('a', 'b'), ('ab', '</w>'), ('c', '</w>'), ('b', 'c</w>')]
    assert submission.word_bpe.encode_by_rank("abc", merges) == ["ab", "c</w>"], hint(
        "always the pair of lowest rank, the earliest learned: not the newest"
    )
    assert submission.word_bpe.encode_by_rank("low newer", MERGES) == ["low</w>", "n", "e", "w", "er</w>"], hint(
        "each pre-token is a word of its own: its characters plus '</w>', merged by rank"
    )
    # s e e </w>: (e,</w>) rank 0 stands right of (s,e) rank 1; taking the leftmost merge first gives see </w>
    merges = ref.train_bpe("none seed seen ate", 3)  # [('e', '</w>'), ('s', 'e'), ('se', 'e')]
    assert submission.word_bpe.encode_by_rank("see", merges) == ["se", "e</w>"], hint(
        "the lowest rank wherever it stands in the word, not the leftmost pair that is a merge"
    )


@pytest.mark.rules("every_occurrence", "unchanged")
@pytest.mark.points(1)
def test_a_pair_twice_in_one_word(submission):
    """encode_by_rank merges every occurrence of the chosen pair in a word, left to right, leaving the merges as
    they were"""
    merges = ref.train_bpe("aaaa aaaa aaa", 5)  # (a,a) first: "aaaa" holds it twice
    record = submission.word_bpe.encode_by_rank.call("aaaa aaa", merges)
    assert record.returned == ref.encode("aaaa aaa", merges), hint(
        "merge the chosen pair wherever it occurs in the word, left to right, as merge_pair does"
    )
    assert not record.mutated, hint("leave the list of merges as it was: build the ranks in a dict of your own")


@pytest.mark.rules("same_as_encode")
@pytest.mark.points(1)
def test_no_merges_and_no_text(submission):
    """encode_by_rank with no merges spells words out, and gives nothing for no words"""
    assert submission.word_bpe.encode_by_rank("ab, c", []) == ["a", "b", "</w>", ",", "</w>", "c", "</w>"], hint(
        "with no merges every word stays its characters plus '</w>'"
    )
    assert submission.word_bpe.encode_by_rank(" \n", MERGES) == [], hint("no words, no tokens")


@pytest.mark.rules("same_as_encode")
@pytest.mark.points(2)
@examples(40)
@given(training=st.text(alphabet="abc d\n", max_size=40), text=st.text(alphabet="abcd ,\n", max_size=25))
def test_hyp_same_tokens_as_encode(submission, training, text):
    """encode_by_rank gives encode's tokens on any text, with merges trained on any text"""
    merges = ref.train_bpe(training, 12)
    assert submission.word_bpe.encode_by_rank(text, merges) == ref.encode(text, merges), hint(
        "take the lowest-ranked adjacent pair, merge it in the word, repeat until no adjacent pair is a merge"
    )


@pytest.mark.rules("speed")
@pytest.mark.points(2)
@pytest.mark.call_seconds(10)  # in-order replay must get its ratio, not a timeout
def test_at_least_five_times_faster_than_replay(submission, example_seed):
    """encode_by_rank encodes 800 words with 2,000 merges at least 5 times faster than replaying them in order"""
    merges = speed_merges()

    def check(round_number: int, got: object) -> None:
        assert got == speed_answer(round_number, example_seed), hint("on the speed test's words too, encode's tokens")

    problem = speed_problem(
        SPEED_ROUNDS,
        lambda round_number: submission.word_bpe.encode_by_rank(speed_text(round_number, example_seed), merges),
        check,
        replay_seconds,
        TARGET_RATIO,
        slow_way="in-order replay",
        advice="look up each pair's rank in a dict, and only at the pairs the word holds",
    )
    assert not problem, hint(problem)
