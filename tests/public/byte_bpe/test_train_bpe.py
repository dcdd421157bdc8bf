"""Training is judged by property where pairs tie: any most frequent pair at each step is right.

A training is replayed with your own get_pair_counts and merge_pair, so a failure here names the step
where train_bpe took a pair that was not a most frequent one.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, id_training_fault, raised

# The docstring's worked example. Its second step is a tie: (256, 97) and (97, 98) are both seen twice.
WORKED_EXAMPLE = "aaabdaaabac"


def what_is_wrong(submission, text: str, vocab_size: int, merges: dict) -> tuple[str, str]:
    """Why ``merges`` is not a training of ``text`` within ``vocab_size``, and the rule whose fix that names;
    ("", "") when it is one."""
    return id_training_fault(
        list(text.encode("utf-8")),
        merges,
        vocab_size,
        count_pairs=submission.byte_bpe.get_pair_counts,
        merge_pair=submission.byte_bpe.merge_pair,
        counted=" in the UTF-8 bytes",
        merges_twice=lambda: submission.byte_bpe.train_bpe("abab", 257) == {(97, 98): 256},
    )


@pytest.mark.rules("new_ids")
@pytest.mark.points(2)
def test_learns_a_pair_then_the_pair_its_new_id_makes(submission):
    """train_bpe("cdcdcd", 300) merges (99, 100) into 256, then (256, 256) into 257, then stops"""
    merges = submission.byte_bpe.train_bpe("cdcdcd", 300)
    assert isinstance(merges, dict), hint("return a dict {(id, id): new_id}")
    assert merges.get((99, 100)) == 256, hint("(99, 100) is seen three times, more than any pair: merge 0 gets 256")
    if merges.get((256, 256)) == 257 and len(merges) > 2:
        assert merges == {(99, 100): 256, (256, 256): 257}, hint(
            "after (256, 256) -> 257 the ids are 257 256: no pair repeats, so stop", fix="stops"
        )
    assert merges == {(99, 100): 256, (256, 256): 257}, hint(
        "recount the pairs after each merge: 256 256 256 now holds (256, 256) twice"
    )


@pytest.mark.rules("most_frequent")
@pytest.mark.points(2)
def test_the_worked_example_accepts_either_pair_of_its_tie(submission):
    """train_bpe("aaabdaaabac", 259) takes (97, 97) first, then a most frequent pair (either of a tie), three merges"""
    merges = submission.byte_bpe.train_bpe(WORKED_EXAMPLE, 259)
    assert merges.get((97, 97)) == 256, hint("(97, 97) is seen four times, more than any other pair: merge it first")
    assert len(merges) == 3, hint("vocab_size 259 leaves room for 3 merges, and a pair still repeats after each")
    wrong = what_is_wrong(submission, WORKED_EXAMPLE, 259, merges)
    assert not wrong[0], hint(*wrong)


@pytest.mark.rules("utf8_bytes")
@pytest.mark.points(2)
def test_counts_pairs_of_utf8_bytes_not_characters(submission):
    """train_bpe starts from the UTF-8 bytes: "€€" is six bytes, in which (226, 130) and (130, 172) repeat"""
    merges = submission.byte_bpe.train_bpe("€€", 257)
    assert merges, hint('"€€" is the bytes 226 130 172 226 130 172: start from list(text.encode("utf-8")), not ord()')
    wrong = what_is_wrong(submission, "€€", 257, merges)
    assert not wrong[0], hint(*wrong)
    text = "ñandú, ñandú"
    merges = submission.byte_bpe.train_bpe(text, 262)
    assert all(value >= 256 or value in text.encode("utf-8") for pair in merges for value in pair), hint(
        'merge only ids of the UTF-8 bytes (ñ is 195 177): list(text.encode("utf-8")), not ord() of each character'
    )
    wrong = what_is_wrong(submission, text, 262, merges)
    assert not wrong[0], hint(*wrong)


@pytest.mark.rules("at_most")
@pytest.mark.points(2)
def test_makes_at_most_vocab_size_minus_256_merges(submission):
    """train_bpe makes at most vocab_size - 256 merges, however often pairs still repeat"""
    text = "z" * 16
    assert submission.byte_bpe.train_bpe(text, 256) == {}, hint(
        "vocab_size 256 holds the 256 bytes and nothing more: make no merge"
    )
    assert submission.byte_bpe.train_bpe(text, 258) == {(122, 122): 256, (256, 256): 257}, hint(
        "vocab_size 258 leaves room for two merges, ids 256 and 257: new ids stay below vocab_size"
    )


@pytest.mark.rules("too_small")
@pytest.mark.points(2)
def test_a_vocab_size_below_256_raises_value_error(submission):
    """train_bpe raises ValueError, with a message saying why, when vocab_size is below 256"""
    for too_small in (255, 0):
        refusal = raised(submission.byte_bpe.train_bpe, "zzzz", too_small)
        assert refusal is not None and refusal[0] == "ValueError", hint(
            f"vocab_size {too_small} cannot hold the 256 bytes: check it before training and raise ValueError"
        )
        assert refusal[1].strip(), hint(
            'say why in the message: ValueError("vocab_size must be at least 256 to hold every byte")'
        )


@pytest.mark.rules("stops")
@pytest.mark.points(2)
def test_stops_as_soon_as_no_pair_repeats(submission):
    """train_bpe stops when no pair occurs twice ("", "q", "wxyz", "xyxy" after one merge), whatever vocab_size is"""
    room_for_millions = 1 << 24
    assert submission.byte_bpe.train_bpe("", room_for_millions) == {}, hint("no bytes, no pairs: return {}")
    assert submission.byte_bpe.train_bpe("q", room_for_millions) == {}, hint(
        "one byte has no pair: leave the loop (break) when there is no pair at all"
    )
    assert submission.byte_bpe.train_bpe("wxyz", room_for_millions) == {}, hint(
        "every pair is seen once: stop before merging a pair seen fewer than two times"
    )
    assert submission.byte_bpe.train_bpe("xyxy", room_for_millions) == {(120, 121): 256}, hint(
        "after one merge no pair repeats: leave the loop (break) rather than go on to the next round"
    )


@pytest.mark.rules("most_frequent", "new_ids", "at_most", "stops")
@pytest.mark.points(2)
@examples(25)
@given(text=st.text(alphabet="ab ñ€\n", max_size=24), room=st.integers(0, 6))
def test_hyp_every_merge_is_a_most_frequent_pair(submission, text, room):
    """train_bpe on any text: each merge a most frequent pair of its step, ids 256 on, within vocab_size"""
    merges = submission.byte_bpe.train_bpe(text, 256 + room)
    wrong = what_is_wrong(submission, text, 256 + room, merges)
    assert not wrong[0], hint(*wrong)
