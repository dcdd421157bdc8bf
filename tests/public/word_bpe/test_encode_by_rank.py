"""Encoding by rank gives encode's tokens, merging in each word the pair of lowest rank first, and is much faster
than replaying the merges in order.

The speed test times encode_by_rank against an in-order replay written below, on made-up words drawn from a
fixed seed (the hidden suite times it on Shakespeare's, with more merges): about a second of each `grade`.
"""

import hashlib
import random
import time
from functools import cache
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, speed_problem

# Merges that training makes (ties taken first seen), and a word each where the lowest rank is not the leftmost
# merge or not the newest. train_bpe("on too on mood", 3): in "moon", o o (rank 2) stands left of o n (rank 0).
MOON = [("o", "n"), ("on", "</w>"), ("o", "o")]
# train_bpe("one one nod a no", 4): in "none", n o (rank 3) stands left of o n (rank 0).
NONE = [("o", "n"), ("on", "e"), ("one", "</w>"), ("n", "o")]
# train_bpe("hat tea tee bee", 2): in "ate", t e (rank 0) was learned before e </w> (rank 1).
TEA = [("t", "e"), ("e", "</w>")]


@st.composite
def learned_merges(draw: st.DrawFn) -> list[tuple[str, str]]:
    """Merges as training makes them: each glues two tokens made before it into a token not seen before. The
    pairs of single letters come first, in any order, so that a word holds merges of many ranks at once."""
    made = draw(st.permutations([("a", "a"), ("a", "b"), ("b", "a"), ("b", "b")]))[: draw(st.integers(2, 4))]
    inside, ends = ["a", "b", *(first + second for first, second in made)], ["</w>"]
    for _ in range(draw(st.integers(0, 3))):
        first, second = draw(st.sampled_from(inside)), draw(st.sampled_from(inside + ends))
        if first + second not in inside + ends:
            (ends if second in ends else inside).append(first + second)
            made.append((first, second))
    return made


@pytest.mark.rules("lowest_rank")
@pytest.mark.points(1)
def test_merges_the_lowest_rank_first(submission):
    """encode_by_rank merges each word's lowest-ranked pair first, until no pair is a merge"""
    merges = [("l", "o"), ("lo", "w"), ("e", "r"), ("er", "</w>")]
    got = submission.word_bpe.encode_by_rank("lower lo", merges)
    if isinstance(got, list) and got and not any(isinstance(t, str) and t.endswith("</w>") for t in got):
        assert got == ["low", "er</w>", "lo", "</w>"], hint(
            "no word ends in '</w>': spell each word as list(word) + ['</w>'], as encode does", fix="same_as_encode"
        )
    assert got == ["low", "er</w>", "lo", "</w>"], hint(
        "per word: take the adjacent pair with the smallest index in merges, merge it, look again"
    )


@pytest.mark.rules("lowest_rank")
@pytest.mark.points(1)
def test_takes_the_lowest_rank_not_the_leftmost_pair(submission):
    """encode_by_rank takes the pair of lowest rank wherever it stands in the word, not the leftmost merge"""
    assert submission.word_bpe.encode_by_rank("moon", MOON) == ["m", "o", "on</w>"], hint(
        "o n (rank 0) comes before o o (rank 2), though o o stands further left: compare ranks, not places"
    )
    assert submission.word_bpe.encode_by_rank("none", NONE) == ["n", "one</w>"], hint(
        "among the word's pairs that are merges, take the one with the smallest index in merges"
    )


@pytest.mark.rules("lowest_rank")
@pytest.mark.points(1)
def test_takes_the_oldest_merge_not_the_newest(submission):
    """encode_by_rank takes the merge learned first, not the one learned last"""
    got = submission.word_bpe.encode_by_rank("ate", TEA)
    assert got == ["a", "te", "</w>"], hint(
        "the lowest rank is the smallest index in merges, the merge learned first: take the min, not the max"
    )


@pytest.mark.rules("lowest_rank")
@pytest.mark.points(1)
def test_merges_until_no_pair_is_a_merge(submission):
    """encode_by_rank keeps merging a word until none of its adjacent pairs is a merge"""
    merges = [("e", "e"), ("ee", "</w>"), ("t", "ee</w>")]  # train_bpe("tee tee ee", 5)
    got = submission.word_bpe.encode_by_rank("tee", merges)
    assert got == ["tee</w>"], hint("after each merge, look at the word's pairs again: loop until none is a merge")


@pytest.mark.rules("every_occurrence")
@pytest.mark.points(1)
def test_merges_the_pair_wherever_it_occurs_in_the_word(submission):
    """encode_by_rank merges every occurrence of the chosen pair in a word, left to right"""
    got = submission.word_bpe.encode_by_rank("eeeee", [("e", "e"), ("ee", "ee")])  # train_bpe("eeee eeee", 2)
    assert got == ["eeee", "e", "</w>"], hint(
        "merge the chosen pair all along the word, left to right, skipping past each merge, as merge_pair does"
    )


@pytest.mark.rules("same_as_encode")
@pytest.mark.points(1)
def test_no_merges_and_no_words(submission):
    """encode_by_rank with no merges spells every word out, and gives [] for blank text"""
    got = submission.word_bpe.encode_by_rank("ok, go", [])
    assert got == ["o", "k", "</w>", ",", "</w>", "g", "o", "</w>"], hint(
        "with no merges, each pre-token stays its characters plus '</w>'"
    )
    assert submission.word_bpe.encode_by_rank("", MOON) == [], hint("no pre-tokens, no tokens: return []")


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_does_not_change_the_merges(submission):
    """encode_by_rank answers right and leaves the list of merges it is given unchanged"""
    record = submission.word_bpe.encode_by_rank.call("none no", NONE)
    assert record.returned == ["n", "one</w>", "no", "</w>"], hint("merge by rank in each word")
    assert not record.mutated, hint("build a dict of ranks from merges; do not sort or edit the list itself")


@pytest.mark.rules("same_as_encode")
@pytest.mark.points(1)
@examples(20)
@given(words=st.lists(st.text(alphabet="ab", min_size=3, max_size=7), min_size=1, max_size=3), merges=learned_merges())
def test_hyp_same_tokens_as_merging_in_order(submission, words, merges):
    """encode_by_rank gives the tokens of replaying the merges in order, with merges as training makes them"""
    table = {(*word, "</w>"): 1 for word in words}
    for pair in merges:  # one merge_pair call per merge for all the words: yours, which encode_by_rank may use
        table = submission.word_bpe.merge_pair(table, pair)
    spelled = {"".join(symbols): symbols for symbols in table}  # merging never changes a word's letters
    in_order = [token for word in words for token in spelled[word + "</w>"]]
    assert submission.word_bpe.encode_by_rank(" ".join(words), merges) == in_order, hint(
        "per word, merge the pair of lowest rank wherever it occurs, then look again, until no adjacent pair is "
        "a merge (if merge_pair fails its own tests, fix it first)"
    )


SPEED_WORDS = 600
SPEED_MERGES = 1200
SPEED_TARGET = 5.0
SPEED_ROUNDS = (
    3  # the best of three, each on its own order of the words: a busy machine slows a run, never speeds it up
)
SYLLABLES = ("th", "e", "an", "in", "er", "on", "re", "at", "st", "o", "ou", "ing", "s", "l", "w", "ch", "a", "y")


@cache
def speed_words() -> dict[str, int]:
    """Made-up words with falling counts, from a fixed seed: the same on every machine, and no data file."""
    draw = random.Random(50)
    words: set[str] = set()
    while len(words) < SPEED_WORDS:
        words.add("".join(draw.choice(SYLLABLES) for _ in range(draw.randint(1, 6))))
    return {word: 2 + 2 * (SPEED_WORDS // (rank + 1)) for rank, word in enumerate(sorted(words))}


def merged(symbols: list[str], pair: tuple[str, str]) -> list[str]:
    out, at = [], 0
    while at < len(symbols):
        if at + 1 < len(symbols) and (symbols[at], symbols[at + 1]) == pair:
            out.append(symbols[at] + symbols[at + 1])
            at += 2
        else:
            out.append(symbols[at])
            at += 1
    return out


@cache
def speed_merges() -> tuple[tuple[str, str], ...]:
    """Merges as training makes them on the words: the largest (count, pair) at each step, the counts of the words
    a merge changes taken out and put back in."""
    weight = speed_words()
    words = {word: [*word, "</w>"] for word in weight}
    counts: dict[tuple[str, str], int] = {}
    for word, symbols in words.items():
        for pair in pairwise(symbols):
            counts[pair] = counts.get(pair, 0) + weight[word]
    learned: list[tuple[str, str]] = []
    while len(learned) < SPEED_MERGES and counts:
        best = max(counts, key=lambda pair: (counts[pair], pair))
        if counts[best] < 2:
            break
        learned += [best]
        for word, symbols in words.items():
            if best in pairwise(symbols):
                for pair in pairwise(symbols):
                    counts[pair] -= weight[word]
                words[word] = merged(symbols, best)
                for pair in pairwise(words[word]):
                    counts[pair] = counts.get(pair, 0) + weight[word]
        counts = {pair: count for pair, count in counts.items() if count > 0}
    return tuple(learned)


@cache
def replayed() -> tuple[dict[str, list[str]], float]:
    """Each word's tokens by replaying every merge in order (the contract's encode), and the seconds that took."""
    started = time.perf_counter()
    tokens = {}
    for word in speed_words():
        symbols = [*word, "</w>"]
        for pair in speed_merges():
            symbols = merged(symbols, pair)
        tokens[word] = symbols
    return tokens, time.perf_counter() - started


def speed_order(round_number: int) -> list[str]:
    """The words in another order each round: an answer cannot be carried from one round to the next."""
    return sorted(speed_words(), key=lambda word: hashlib.blake2b(f"{round_number} {word}".encode()).digest())


@pytest.mark.rules("speed")
@pytest.mark.points(2)
@pytest.mark.call_seconds(10)  # in-order replay must get its ratio, not a timeout
def test_at_least_five_times_faster_than_replay(submission):
    """encode_by_rank encodes 600 words with 1,200 merges at least 5 times faster than replaying them in order"""
    merges = list(speed_merges())

    def check_round(round_number: int, got: object) -> None:
        tokens = replayed()[0]
        expected = [token for word in speed_order(round_number) for token in tokens[word]]
        assert got == expected, hint("on the speed test's words too, the tokens of replaying the merges in order")

    verdict = speed_problem(
        SPEED_ROUNDS,
        lambda round_number: submission.word_bpe.encode_by_rank(" ".join(speed_order(round_number)), merges),
        check_round,
        lambda: replayed()[1],
        SPEED_TARGET,
        slow_way="replaying the merges in order",
        advice="keep each pair's rank in a dict and look only at the pairs each word holds",
    )
    assert not verdict, hint(verdict)
