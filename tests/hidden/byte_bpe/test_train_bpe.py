"""Training is judged by property: any most-frequent pair at each step is right."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, raised, reference, training_problem

ref = reference("byte_bpe")


def trained_problem(text: str, vocab_size: int, merges: object) -> str:
    """What is wrong with ``merges`` as a training on ``text``, or "" when nothing is."""
    if not isinstance(merges, dict):
        return "merges must be a dict {(id, id): new_id}"
    ids = list(text.encode("utf-8"))
    ordered = sorted(merges.items(), key=lambda item: item[1] if isinstance(item[1], int) else -1)
    if [new_id for _, new_id in ordered] != list(range(256, 256 + len(ordered))):
        return "the new ids must be 256, 257, ... in the order the merges were made"
    if 256 + len(ordered) > vocab_size:
        return f"made {len(ordered)} merges, but vocab_size {vocab_size} leaves room for {vocab_size - 256}"
    return training_problem(
        ids,
        [pair for pair, _ in ordered],
        [f"merge {pair!r} -> {new_id}" for pair, new_id in ordered],
        room=vocab_size - 256,
        count_pairs=ref.get_pair_counts,
        counted=" in the UTF-8 bytes",
        merge=lambda ids, pair, step: ref.merge_pair(ids, pair, 256 + step),
    ).problem


@pytest.mark.rules("new_ids")
@pytest.mark.points(2)
def test_returns_pairs_with_new_ids_from_256(submission):
    """train_bpe returns {(id, id): new_id}, the first merge getting 256"""
    trained = submission.byte_bpe.train_bpe("abab", 300)
    if isinstance(trained, dict) and trained.get((97, 98)) == 256 and len(trained) > 1:
        assert trained == {(97, 98): 256}, hint(
            "after (97, 98) -> 256 the ids are 256 256, a pair seen once: stop there", fix="stops"
        )
    assert trained == {(97, 98): 256}, hint("key: the pair of ids; value: 256 + the number of merges made before it")


@pytest.mark.rules("most_frequent", "new_ids")
@pytest.mark.points(2)
def test_a_well_known_worked_example(submission):
    """train_bpe("aaabdaaabac", 259) learns (97, 97) as 256, then two more most frequent pairs (a tie: either)"""
    got = submission.byte_bpe.train_bpe("aaabdaaabac", 259)
    assert isinstance(got, dict) and got.get((97, 97)) == 256, hint("aa is the most frequent pair: merge 0 is 256")
    # Then (256, 97) and (97, 98) are both seen twice: {(256, 97): 257, (257, 98): 258} and
    # {(97, 98): 257, (256, 257): 258} are both right.
    assert len(got) == 3, hint("recount the pairs after every merge; the merged ids take part in later pairs")
    problem = trained_problem("aaabdaaabac", 259, got)
    assert problem == "", hint(problem)


@pytest.mark.rules("utf8_bytes", "most_frequent")
@pytest.mark.points(1)
@pytest.mark.parametrize(
    ("text", "vocab_size"),
    [("low lower lowest", 262), ("ééé éé é", 260), ("🙂🙂 ok 🙂🙂", 262), ("日本語 日本語 日本", 264)],
)
def test_every_merge_was_a_most_frequent_pair_of_bytes(submission, text, vocab_size):
    """train_bpe counts pairs of UTF-8 bytes (not characters) and takes a most frequent one each step"""
    problem = trained_problem(text, vocab_size, submission.byte_bpe.train_bpe(text, vocab_size))
    assert problem == "", hint(problem + '; start from list(text.encode("utf-8")), not ord() of each character')


@pytest.mark.rules("too_small")
@pytest.mark.points(2)
def test_a_vocabulary_below_256_is_refused_with_a_reason(submission):
    """train_bpe raises ValueError, with a message, for vocab_size below 256"""
    outcome = raised(submission.byte_bpe.train_bpe, "abab", 255)
    assert outcome is not None and outcome[0] == "ValueError", hint("raise ValueError when vocab_size < 256")
    assert outcome[1].strip(), hint("say why in the message: ValueError('vocab_size must be at least 256')")
    assert submission.byte_bpe.train_bpe("abab", 256) == {}, hint("256 ids hold the bytes and nothing more: no merge")


@pytest.mark.rules("stops")
@pytest.mark.points(2)
def test_stops_when_no_pair_repeats(submission):
    """train_bpe stops early when the best pair occurs fewer than two times"""
    assert submission.byte_bpe.train_bpe("abcdef", 300) == {}, hint("every pair is seen once: stop at once")
    assert submission.byte_bpe.train_bpe("", 300) == {}, hint("no bytes, no pairs")
    assert submission.byte_bpe.train_bpe("abab", 256 + 10**7) == {(97, 98): 256}, hint(
        "when no pair repeats, stop the loop (break), do not go on to the next round"
    )
    assert submission.byte_bpe.train_bpe("a", 256 + 10**7) == {}, hint(
        "with no pair at all, stop the loop (break), do not go on to the next round"
    )


@pytest.mark.rules("most_frequent", "new_ids", "at_most", "stops")
@pytest.mark.points(2)
@examples(40)
@given(text=st.text(alphabet="ab é🙂\n", max_size=30), extra=st.integers(0, 8))
def test_hyp_training_is_valid_on_any_text(submission, text, extra):
    """train_bpe makes valid merges on any text"""
    problem = trained_problem(text, 256 + extra, submission.byte_bpe.train_bpe(text, 256 + extra))
    assert problem == "", hint(problem)
