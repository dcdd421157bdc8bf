"""Training inside GPT-2's pieces, judged by property like train_bpe.

A training is replayed with your own get_pair_counts and merge_pair, on the pieces laid end to end with
a -1 between two pieces: no pair holding -1 is counted, and no merge can reach across one.
"""

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, id_training_fault, raised

# As the stub has it.
GPT2_SPLIT_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
BETWEEN_PIECES = -1


def what_is_wrong(submission, text: str, vocab_size: int, merges: dict) -> tuple[str, str]:
    """Why ``merges`` is not a training on the pieces of ``text`` within ``vocab_size``, and the rule it breaks;
    ("", "") when it is one. A choice of pair is the pieces' rule; stopping, room and ids are train_bpe's."""
    laid_out: list[int] = []
    for piece in regex.findall(GPT2_SPLIT_PATTERN, text):
        laid_out += [*([BETWEEN_PIECES] if laid_out else []), *piece.encode("utf-8")]

    def inside_pieces(ids: list[int]) -> dict[tuple[int, int], int]:
        counts = submission.byte_bpe.get_pair_counts(ids)
        return {pair: count for pair, count in counts.items() if BETWEEN_PIECES not in pair}

    problem, rule = id_training_fault(
        laid_out,
        merges,
        vocab_size,
        count_pairs=inside_pieces,
        merge_pair=submission.byte_bpe.merge_pair,
        counted=" inside the pieces (a pair that spans two pieces does not count)",
    )
    return problem, ("inside_pieces" if rule == "most_frequent" else "as_train_bpe" if rule else "")


@pytest.mark.rules("inside_pieces")
@pytest.mark.points(1)
def test_no_pair_spans_two_pieces(submission):
    """train_on_pieces("x. x. x.") merges only (32, 120): "x" and "." are pieces of their own"""
    merges = submission.byte_bpe.train_on_pieces("x. x. x.", 300)
    assert isinstance(merges, dict), hint("return a dict {(id, id): new_id}, as train_bpe does")
    assert merges == {(32, 120): 256}, hint(
        '"x. x. x." splits into "x", ".", " x", ".", " x", ".": count pairs inside each piece only, '
        "with regex.findall(GPT2_SPLIT_PATTERN, text)"
    )


@pytest.mark.rules("inside_pieces")
@pytest.mark.points(1)
@pytest.mark.parametrize(("text", "vocab_size"), [("Hello, hello! It's 42, it's 42.", 268), ("né  né\n\nné", 262)])
def test_every_merge_is_a_most_frequent_pair_inside_the_pieces(submission, text, vocab_size):
    """train_on_pieces sums each pair's count over the pieces and takes a most frequent one at each step"""
    merges = submission.byte_bpe.train_on_pieces(text, vocab_size)
    wrong, rule = what_is_wrong(submission, text, vocab_size, merges)
    assert not wrong, hint(wrong, fix=rule)


@pytest.mark.rules("as_train_bpe", "too_small")
@pytest.mark.points(1)
def test_makes_at_most_vocab_size_minus_256_merges_and_refuses_less_than_256(submission):
    """train_on_pieces makes at most vocab_size - 256 merges, and raises ValueError below 256"""
    assert submission.byte_bpe.train_on_pieces("zz zz zz zz", 256) == {}, hint(
        "vocab_size 256 holds the bytes and nothing more: make no merge"
    )
    assert submission.byte_bpe.train_on_pieces("zz zz zz zz", 257) == {(122, 122): 256}, hint(
        "vocab_size 257 leaves room for one merge: new ids stay below vocab_size"
    )
    refusal = raised(submission.byte_bpe.train_on_pieces, "zz zz", 200)
    assert refusal is not None and refusal[0] == "ValueError", hint(
        "a vocabulary below 256 cannot hold the bytes: raise ValueError, as train_bpe does", fix="too_small"
    )


@pytest.mark.rules("as_train_bpe")
@pytest.mark.points(1)
def test_stops_as_soon_as_no_pair_repeats(submission):
    """train_on_pieces stops when no pair occurs twice inside the pieces, whatever vocab_size is"""
    room_for_millions = 1 << 24
    assert submission.byte_bpe.train_on_pieces("", room_for_millions) == {}, hint("no pieces, no pairs: return {}")
    assert submission.byte_bpe.train_on_pieces("ab ab", room_for_millions) == {(97, 98): 256}, hint(
        "after one merge no pair repeats: leave the loop (break) rather than go on to the next round"
    )


@pytest.mark.rules("inside_pieces", "as_train_bpe")
@pytest.mark.points(1)
@examples(20)
@given(text=st.text(alphabet="xy .2\t'té", max_size=30), room=st.integers(0, 6))
def test_hyp_every_merge_is_a_most_frequent_pair_inside_the_pieces(submission, text, room):
    """train_on_pieces on any text: each merge a most frequent pair inside the pieces, ids 256 on, within vocab_size"""
    merges = submission.byte_bpe.train_on_pieces(text, 256 + room)
    wrong, rule = what_is_wrong(submission, text, 256 + room, merges)
    assert not wrong, hint(wrong, fix=rule)
