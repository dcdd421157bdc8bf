"""The bonus: GPT-2-style byte-level training, equal to the reference's merges, and near its time and memory.

The text of the time and memory tests, ``training_text.txt``, is 240 KB of tiny Shakespeare (public domain);
each hand-in trains on a window of about 200 KB of it that its draw picks. Memory is the kernel's: how far a
process forked for the one call grows past what it held at birth, read by its parent, never by code the
student's call can reach; the window is the size at which the reference's growth stands well clear of the
measure's run-to-run noise (``benchmarks/memory_bound.py`` prints both, and the bound's derivation).
"""

import time
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, fastest_seconds, growth_of, hint, raised, reference

pytestmark = pytest.mark.bonus


def outside_pieces(text: str, merges: object) -> bytes:
    """The first merged token that no GPT-2 piece of ``text`` holds (it was counted across pieces), or b""."""
    import regex

    pieces = [piece.encode("utf-8") for piece in regex.findall(ref.GPT2_SPLIT, text)]
    for merge in merges if isinstance(merges, list) else []:
        if isinstance(merge, tuple) and all(isinstance(part, bytes) for part in merge):
            token = b"".join(merge)
            if not any(token in piece for piece in pieces):
                return token
    return b""


ref = reference("real_tokenizer")
END_OF_TEXT = "<|endoftext|>"
SPEED_CHARACTERS = 200_000
SPEED_VOCAB = 1024
TIME_RATIO = 5.0  # the trainer at most this many times the reference's time, measured in the same run
MEMORY_RATIO = 4.0  # and its memory grown at most this many times as far as the reference's (memory_bound.py)
SPEED_ROUNDS = 3  # the best of three: a busy machine slows a run, never speeds it up


@cache
def speed_text(example_seed: int = 0) -> str:
    """About 200 KB of Shakespeare, the window the hand-in's draw picks, each blank line an end of text."""
    whole = Path(__file__).with_name("training_text.txt").read_text(encoding="utf-8")
    start = whole.index("\n\n", example_seed * 4099 % (len(whole) - SPEED_CHARACTERS)) + 2
    return whole[start : start + SPEED_CHARACTERS].replace("\n\n", f"\n\n{END_OF_TEXT}")


@cache
def reference_run(example_seed: int = 0) -> tuple[tuple[dict[int, bytes], list[tuple[bytes, bytes]]], float]:
    """The reference on the hand-in's speed text: its answer and its seconds, here."""
    text = speed_text(example_seed)
    started = time.perf_counter()
    answer = ref.train_bytes(text, SPEED_VOCAB, (END_OF_TEXT,))
    return answer, time.perf_counter() - started


@cache
def reference_growth(example_seed: int = 0) -> int | None:
    """How far the reference's memory grows on the hand-in's speed text, in a process of its own."""
    module_file = ref.__file__
    assert module_file is not None, "the reference is a module of source"
    return growth_of(module_file, "train_bytes", speed_text(example_seed), SPEED_VOCAB, [END_OF_TEXT])


@pytest.mark.rules("largest", "vocab")
@pytest.mark.points(1)
def test_a_worked_example(submission):
    """train_bytes("hug hug hug", 258) merges (u, g), then (h, ug), and gives them ids 256 and 257"""
    vocab, merges = submission.real_tokenizer.train_bytes("hug hug hug", 258)
    assert merges == [(b"u", b"g"), (b"h", b"ug")], hint(
        'count pairs inside GPT-2\'s pieces ("hug" once, " hug" twice), weighted by how often each piece occurs'
    )
    assert vocab == {**{byte: bytes([byte]) for byte in range(256)}, 256: b"ug", 257: b"hug"}, hint(
        "ids 0 to 255 are the single bytes; each merge's token takes the next id, in order"
    )


@pytest.mark.rules("largest")
@pytest.mark.points(1)
def test_ties_go_to_the_largest_pair_of_bytes(submission):
    """on equal counts train_bytes merges the largest pair, as max(counts, key=lambda p: (counts[p], p))"""
    for text, expected, advice in [
        ("ab ab cd cd", [(b"c", b"d")], "compare (count, pair): on a tie the larger pair of bytes wins"),
        ("xa\nxa\nxb\nxb", [(b"x", b"b")], "on a tie compare the pairs whole: (b'x', b'b') > (b'x', b'a')"),
    ]:
        _, merges = submission.real_tokenizer.train_bytes(text, 257)
        across = outside_pieces(text, merges)
        if across:
            assert merges == expected, hint(
                f"{across!r} lies across two of GPT-2's pieces: pre-split with regex.findall(GPT2_SPLIT, text)"
                " and count pairs inside each piece only",
                fix="pieces",
            )
        assert merges == expected, hint(advice)


@pytest.mark.rules("pieces")
@pytest.mark.points(1)
def test_counts_no_pair_across_two_pieces(submission):
    """train_bytes counts pairs inside GPT-2's pieces only: never across a space or a letter-to-digit change"""
    _, merges = submission.real_tokenizer.train_bytes("a1 a1 a1", 300)
    assert merges == [(b" ", b"a")], hint(
        "pre-split with regex.findall(GPT2_SPLIT, text) first: 'a' and '1' are pieces of their own"
    )


@pytest.mark.rules("specials", "vocab")
@pytest.mark.points(1)
def test_keeps_special_tokens_whole(submission):
    """train_bytes never splits a special token nor counts a pair across one; the tokens take the last ids"""
    text = f"ab{END_OF_TEXT}ab{END_OF_TEXT}<|x|>"
    vocab, merges = submission.real_tokenizer.train_bytes(text, 300, [END_OF_TEXT, "<|x|>"])
    assert merges == [(b"a", b"b")], hint(
        "cut the special tokens out of the text before the pre-split: none of their bytes is counted", fix="specials"
    )
    assert vocab[257] == END_OF_TEXT.encode() and vocab[258] == b"<|x|>" and len(vocab) == 259, hint(
        "after the merges' ids, each special token gets the next id, as its UTF-8 bytes, in the order given",
        fix="vocab",
    )


@pytest.mark.rules("too_small")
@pytest.mark.points(1)
def test_refuses_a_vocabulary_too_small_for_its_tokens(submission):
    """train_bytes raises ValueError when vocab_size cannot hold the 256 bytes and the special tokens"""
    outcome = raised(submission.real_tokenizer.train_bytes, "abc", 256, [END_OF_TEXT])
    assert outcome is not None and outcome[0] == "ValueError", hint(
        "raise ValueError when vocab_size < 256 + len(special_tokens)"
    )
    vocab, merges = submission.real_tokenizer.train_bytes("aaaa", 257, [END_OF_TEXT])
    assert merges == [] and len(vocab) == 257, hint(
        "vocab_size counts the special tokens: no room for a merge", fix="vocab"
    )


@pytest.mark.rules("pieces", "specials", "largest", "vocab")
@pytest.mark.points(2)
@examples(40)
@given(
    text=st.lists(
        st.sampled_from(["a", "b", "ab", " ", "  ", "\n", "é", "🙂", "1", "23", "'s", "!", END_OF_TEXT, "<|"]),
        max_size=24,
    ).map("".join),
    extra=st.integers(0, 24),
    specials=st.sampled_from([(), (END_OF_TEXT,), (END_OF_TEXT, "<|"), ("<|", END_OF_TEXT)]),
)
def test_hyp_same_vocab_and_merges_as_the_reference(submission, text, extra, specials):
    """train_bytes makes exactly the reference's merges and vocab on any small text, specials included"""
    vocab_size = 256 + len(specials) + extra
    got = submission.real_tokenizer.train_bytes(text, vocab_size, list(specials))
    assert got == ref.train_bytes(text, vocab_size, specials), hint(
        "special tokens cut out first (longest first), GPT-2's pre-split, then the largest (count, pair) "
        "while a pair occurs twice"
    )


@pytest.mark.rules("time")
@pytest.mark.points(2)
@pytest.mark.call_seconds(20)  # within the test's 30 s: a trainer several times too slow still gets its ratio
def test_at_most_five_times_the_references_time(submission, example_seed):
    """train_bytes on 200 KB to a vocabulary of 1,024 takes at most 5 times the reference's time, this run"""
    text = speed_text(example_seed)
    expected, reference_seconds = reference_run(example_seed)

    def check(_: int, got: object) -> None:
        assert got == expected, hint("on the speed test's text too, the merges must be the reference's")

    fastest = fastest_seconds(
        SPEED_ROUNDS,
        lambda _: submission.real_tokenizer.train_bytes(text, SPEED_VOCAB, [END_OF_TEXT]),
        check,
        lambda: reference_seconds * TIME_RATIO,
        1.0,
    )
    assert fastest <= reference_seconds * TIME_RATIO, hint(
        f"{fastest / reference_seconds:.1f}x the reference's time ({fastest:.2f} s against "
        f"{reference_seconds:.2f} s); aim for at most {TIME_RATIO:g}x: count each distinct piece once, after a "
        "merge recount only the pieces that hold the merged pair, and find the best pair with a heap"
    )


@pytest.mark.rules("memory")
@pytest.mark.points(2)
@pytest.mark.call_seconds(20)  # as the speed test's calls
def test_peak_memory_at_most_four_times_the_references(submission, example_seed):
    """train_bytes on 200 KB to a vocabulary of 1,024 grows its memory at most 4 times as far as the reference's"""
    text = speed_text(example_seed)
    expected, _ = reference_run(example_seed)
    grown = reference_growth(example_seed)
    record = submission.real_tokenizer.train_bytes.memory_growth(text, SPEED_VOCAB, [END_OF_TEXT])
    assert record.returned == expected, hint("on the memory test's text too, the merges must be the reference's")
    assert record.grown_bytes is not None and grown, hint(
        "your memory was not measured on this platform: the grader needs a kernel that reports a process's peak"
    )
    assert record.grown_bytes <= grown * MEMORY_RATIO, hint(
        f"your call grew its memory by {record.grown_bytes / 2**20:.1f} MiB, {record.grown_bytes / grown:.1f}x "
        f"the reference's {grown / 2**20:.1f} MiB; aim for at most {MEMORY_RATIO:g}x: keep each distinct "
        "piece once with its count, and no copy of the pieces per merge"
    )
