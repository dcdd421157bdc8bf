"""Training on GPT-2's pieces, judged by property like train_bpe."""

from collections import Counter

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, raised, reference, training_problem

ref = reference("byte_bpe")


def pieces_problem(text: str, vocab_size: int, merges: object) -> str:
    """What is wrong with ``merges`` as a training on the pieces of ``text``, or "" when nothing is."""
    if not isinstance(merges, dict) or not all(isinstance(new_id, int) for new_id in merges.values()):
        return "merges must be a dict {(id, id): new_id}"
    ordered = sorted(merges.items(), key=lambda item: item[1])
    if [new_id for _, new_id in ordered] != list(range(256, 256 + len(ordered))) or 256 + len(ordered) > vocab_size:
        return f"the new ids must be 256, 257, ... and stay below vocab_size {vocab_size}"
    pieces = [list(piece.encode("utf-8")) for piece in regex.findall(ref.GPT2_SPLIT_PATTERN, text)]

    def count_inside(pieces: list[list[int]]) -> Counter[tuple[int, int]]:
        return sum((ref.get_pair_counts(piece) for piece in pieces), Counter())

    return training_problem(
        pieces,
        [pair for pair, _ in ordered],
        [f"merge {pair!r} -> {new_id}" for pair, new_id in ordered],
        room=vocab_size - 256,
        count_pairs=count_inside,
        counted=" inside the pieces (pairs that span two pieces do not count)",
        merge=lambda pieces, pair, step: [ref.merge_pair(piece, pair, 256 + step) for piece in pieces],
    ).problem


@pytest.mark.rules("inside_pieces", "as_train_bpe")
@pytest.mark.points(1)
def test_no_merge_spans_two_pieces(submission):
    """train_on_pieces never merges a letter with the space after it, makes at most vocab_size - 256 merges, and stops"""
    got = submission.byte_bpe.train_on_pieces("a a a a", 300)
    assert got == {(32, 97): 256}, hint(
        '"a a a a" splits into "a", " a", " a", " a": only (32, 97) repeats', fix="inside_pieces"
    )
    # At the cap: vocab_size 256 holds the bytes and nothing more, 257 one merge.
    assert submission.byte_bpe.train_on_pieces("aa aa", 256) == {}, hint("vocab_size 256 leaves room for no merge")
    assert len(submission.byte_bpe.train_on_pieces("aa aa", 257)) == 1, hint("vocab_size 257 leaves room for one")
    # Stopping means leaving the loop: ten million rounds with nothing (left) to merge would run out of time.
    assert submission.byte_bpe.train_on_pieces("a", 256 + 10**7) == {}, hint("no pair at all: stop (break)")
    assert submission.byte_bpe.train_on_pieces("ab ab", 256 + 10**7) == {(97, 98): 256}, hint(
        "when no pair repeats, stop the loop (break), do not go on to the next round"
    )


@pytest.mark.rules("inside_pieces")
@pytest.mark.points(1)
@pytest.mark.parametrize(
    ("text", "vocab_size"),
    [("Hello world! Hello world!!", 270), ("it's 2024, it's 2025", 266), ("ééé  éé\n\né", 262)],
)
def test_every_merge_was_a_most_frequent_pair_inside_the_pieces(submission, text, vocab_size):
    """train_on_pieces counts pairs inside GPT-2's pieces and takes a most frequent one each step"""
    problem = pieces_problem(text, vocab_size, submission.byte_bpe.train_on_pieces(text, vocab_size))
    assert problem == "", hint(problem + "; split with regex.findall(GPT2_SPLIT_PATTERN, text) first")


@pytest.mark.rules("too_small")
@pytest.mark.points(1)
def test_vocab_size_below_256_is_a_value_error(submission):
    """train_on_pieces raises ValueError when vocab_size is below 256"""
    outcome = raised(submission.byte_bpe.train_on_pieces, "abab", 100)
    assert outcome is not None and outcome[0] == "ValueError", hint(
        "a vocabulary smaller than 256 cannot hold the bytes: raise ValueError"
    )


@pytest.mark.rules("inside_pieces", "as_train_bpe")
@pytest.mark.points(1)
@examples(30)
@given(text=st.text(alphabet="ab !1\n'sé", max_size=40), vocab_size=st.integers(256, 266))
def test_hyp_training_on_pieces_is_valid_on_any_text(submission, text, vocab_size):
    """train_on_pieces makes valid merges on any text"""
    problem = pieces_problem(text, vocab_size, submission.byte_bpe.train_on_pieces(text, vocab_size))
    assert problem == "", hint(problem)
