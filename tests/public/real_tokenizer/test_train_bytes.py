"""The bonus: train_bytes must make the merges the contract asks for: GPT-2's pieces, special tokens kept whole,
the largest (count, pair) each step; and within bounds of time and memory set by the slow recount below.

The bounds are measured in the same run, on made-up text drawn from a fixed seed, against the slow recount of
``autograder.testing.byte_recount``: at least 5 times faster than it on 20 KB to a vocabulary of 400, and on
40 KB at most 3 times the memory it adds to a process of its own, as the kernel counts it. The hidden suite sets
its bounds by the reference instead, on about 200 KB to a vocabulary of 1,024 (5 times its time, 4 times its
memory), where a slow trainer falls further behind; time yours in the notebook too (its section "Training
where its cost shows").
"""

import random
import time
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import (
    END_OF_TEXT,
    Pair,
    byte_recount,
    examples,
    fastest_seconds,
    growth_of,
    hint,
    raised,
    recount,
)

pytestmark = pytest.mark.bonus


@pytest.mark.rules("largest", "vocab")
@pytest.mark.points(1)
def test_a_worked_example(submission):
    """train_bytes("hug hug hug", 258) merges (u, g), then (h, ug), and gives them ids 256 and 257"""
    learned, order = submission.real_tokenizer.train_bytes("hug hug hug", 258)
    if order[:1] == [(b"h", b"u")]:
        assert order == [(b"u", b"g"), (b"h", b"ug")], hint(
            "(b'h', b'u') and (b'u', b'g') are both seen 3 times: on equal counts the larger pair wins, as"
            " max(counts, key=lambda pair: (counts[pair], pair))",
            fix="largest",
        )
    assert order == [(b"u", b"g"), (b"h", b"ug")], hint(
        "the pieces are 'hug' (once) and ' hug' (twice): count each pair inside them, times the piece's count"
    )
    assert learned[256] == b"ug" and learned[257] == b"hug" and learned[32] == b" ", hint(
        "the vocab holds the 256 single bytes at ids 0 to 255, then each merge's token, in the merges' order",
        fix="vocab",
    )


@pytest.mark.rules("largest")
@pytest.mark.points(1)
def test_ties_go_to_the_largest_pair(submission):
    """on equal counts train_bytes merges the largest pair of bytes"""
    _, merges = submission.real_tokenizer.train_bytes("ab\nab\ncd\ncd", 257)
    assert merges == [(b"c", b"d")], hint("(b'c', b'd') and (b'a', b'b') are both seen twice: the larger wins")


@pytest.mark.rules("pieces", "specials", "vocab", "too_small")
@pytest.mark.points(1)
def test_no_pair_across_pieces_or_special_tokens(submission):
    """train_bytes counts pairs inside GPT-2's pieces only, never inside or across a special token, and counts the
    special tokens in vocab_size"""
    _, merges = submission.real_tokenizer.train_bytes("a1 a1 a1 ", 300)
    apart = "pre-split with regex.findall(GPT2_SPLIT, text): 'a' and '1' are apart"
    assert merges == [(b" ", b"a")], hint(apart, fix="pieces")
    vocab, merges = submission.real_tokenizer.train_bytes(f"ab{END_OF_TEXT}ab{END_OF_TEXT}", 300, [END_OF_TEXT])
    cut_out = "cut the special tokens out of the text first: none of their bytes count"
    assert merges == [(b"a", b"b")], hint(cut_out, fix="specials")
    assert vocab[257] == END_OF_TEXT.encode(), hint(
        "each special token takes the next id after the merges", fix="vocab"
    )
    vocab, merges = submission.real_tokenizer.train_bytes("zzzz", 257, [END_OF_TEXT])
    assert (merges, len(vocab)) == ([], 257), hint(
        "vocab_size counts the special tokens too: the 256 bytes and one special token fill 257, no room to merge",
        fix="vocab",
    )
    refused = raised(submission.real_tokenizer.train_bytes, "zz", 256, [END_OF_TEXT])
    assert refused is not None and refused[0] == "ValueError", hint(
        "raise ValueError when vocab_size cannot hold the 256 bytes and the special tokens", fix="too_small"
    )


@pytest.mark.rules("pieces", "specials", "largest", "vocab")
@pytest.mark.points(1)
@examples(30)
@given(
    text=st.lists(st.sampled_from(["a", "b", "ab", " ", "\n", "é", "1", "'s", END_OF_TEXT]), max_size=16).map("".join),
    extra=st.integers(0, 16),
    specials=st.sampled_from([(), (END_OF_TEXT,)]),
)
def test_hyp_same_as_the_slow_recount(submission, text, extra, specials):
    """train_bytes makes the recount's vocab and merges on any small text"""
    size = 256 + len(specials) + extra
    answer = submission.real_tokenizer.train_bytes(text, size, list(specials))
    assert answer == recount(text, size, specials), hint(
        "special tokens cut out first, GPT-2's pre-split, then the largest (count, pair) while a pair occurs twice"
    )


TIME_CHARACTERS, TIME_VOCAB, TIME_RATIO = 20_000, 400, 5.0  # at least 5 times faster than the recount
# Growth at most 3 times the recount's: on 40 KB the reference's is 1.3 times, a trainer that keeps each merge's
# pieces 11 times (about 4, 5 and 44 MiB, run-to-run noise about 0.1 MiB).
MEMORY_CHARACTERS, MEMORY_VOCAB, MEMORY_RATIO = 40_000, 400, 3.0
SPEED_ROUNDS = 3  # the best of three: a busy machine slows a run, never speeds it up
SYLLABLES = ("th", "e", "an", "in", "er", "on", "re", "at", "st", "o", "ou", "ing", "s", "T", "W", "é", "1", "9")


@cache
def made_up_text(size: int) -> str:
    """Words of made-up syllables, with punctuation, newlines and an end of text now and then: the same text on
    every machine, and no data file."""
    draw = random.Random(52)
    out: list[str] = []
    while sum(map(len, out)) < size:
        word = "".join(draw.choice(SYLLABLES) for _ in range(draw.randint(1, 4)))
        out.append(word + draw.choice([" "] * 12 + [", ", ". ", "\n", "'s ", f"\n\n{END_OF_TEXT}"]))
    return "".join(out)


@cache
def recount_run() -> tuple[tuple[dict[int, bytes], list[Pair]], float]:
    """The recount on the time test's text: its answer and its seconds, here."""
    started = time.perf_counter()
    answer = recount(made_up_text(TIME_CHARACTERS), TIME_VOCAB, (END_OF_TEXT,))
    return answer, time.perf_counter() - started


@cache
def recount_growth() -> int | None:
    """How far the recount grows a process of its own on the memory test's text, as a hand-in's call is measured."""
    module_file = byte_recount.__file__
    assert module_file is not None, "the recount is a module of source"
    return growth_of(module_file, "recount", made_up_text(MEMORY_CHARACTERS), MEMORY_VOCAB, (END_OF_TEXT,))


@pytest.mark.rules("time")
@pytest.mark.points(1)
@pytest.mark.call_seconds(10)
def test_at_least_five_times_faster_than_the_recount(submission):
    """train_bytes on 20 KB to a vocabulary of 400 is at least 5 times faster than the slow recount, this run"""
    expected, recount_seconds = recount_run()
    text = made_up_text(TIME_CHARACTERS)

    def check_round(_: int, got: object) -> None:
        assert got == expected, hint("on the time test's text too, the merges must be the recount's")

    quickest = fastest_seconds(
        SPEED_ROUNDS,
        lambda _: submission.real_tokenizer.train_bytes(text, TIME_VOCAB, [END_OF_TEXT]),
        check_round,
        lambda: recount_seconds / TIME_RATIO,
        1.0,
    )
    assert quickest <= recount_seconds / TIME_RATIO, hint(
        f"{recount_seconds / quickest:.1f}x faster than the recount ({quickest:.2f} s against {recount_seconds:.2f} s);"
        f" aim for {TIME_RATIO:g}x: count each distinct piece once, after a merge recount only the pieces that hold "
        "the merged pair, and find the best pair with a heap"
    )


@pytest.mark.rules("memory")
@pytest.mark.points(1)
@pytest.mark.call_seconds(20)
def test_memory_at_most_three_times_the_recounts(submission):
    """train_bytes on 40 KB to a vocabulary of 400 grows its memory at most 3 times as far as the slow recount"""
    text = made_up_text(MEMORY_CHARACTERS)
    yardstick = recount_growth()
    record = submission.real_tokenizer.train_bytes.memory_growth(text, MEMORY_VOCAB, [END_OF_TEXT])
    assert record.returned == recount(text, MEMORY_VOCAB, (END_OF_TEXT,)), hint(
        "on the memory test's text too, the merges must be the recount's"
    )
    assert yardstick and record.grown_bytes is not None, hint(
        "your call's memory was not measured on this platform: it does not report a process's peak of memory"
    )
    assert record.grown_bytes <= MEMORY_RATIO * yardstick, hint(
        f"your call grew its memory by {record.grown_bytes / 2**20:.1f} MiB, {record.grown_bytes / yardstick:.1f}x "
        f"the recount's {yardstick / 2**20:.1f} MiB; aim for at most {MEMORY_RATIO:g}x: keep each distinct piece "
        "once with its count, and no copy of the pieces per merge"
    )
