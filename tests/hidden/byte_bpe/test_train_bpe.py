"""Training is judged by property: any most-frequent pair at each step is right."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.engine.reference import reference
from autograder.engine.rubric import examples, hint, raised

ref = reference("byte_bpe")


def training_problem(text: str, vocab_size: int, merges: object) -> str:
    """What is wrong with ``merges`` as a training on ``text``, or "" when nothing is."""
    if not isinstance(merges, dict):
        return "merges must be a dict {(id, id): new_id}"
    ids = list(text.encode("utf-8"))
    ordered = sorted(merges.items(), key=lambda item: item[1] if isinstance(item[1], int) else -1)
    if [new_id for _, new_id in ordered] != list(range(256, 256 + len(ordered))):
        return "the new ids must be 256, 257, ... in the order the merges were made"
    if 256 + len(ordered) > vocab_size:
        return f"made {len(ordered)} merges, but vocab_size {vocab_size} leaves room for {vocab_size - 256}"
    for pair, new_id in ordered:
        counts = ref.get_pair_counts(ids)
        best = max(counts.values(), default=0)
        if counts.get(pair, 0) != best:
            return (
                f"merge {pair!r} -> {new_id} is seen {counts.get(pair, 0)} times in the UTF-8 bytes, "
                f"but the most frequent pair is seen {best} times"
            )
        if best < 2:
            return f"merge {pair!r} -> {new_id} is seen only once: training must stop when no pair repeats"
        ids = ref.merge_pair(ids, pair, new_id)
    if 256 + len(ordered) < vocab_size and max(ref.get_pair_counts(ids).values(), default=0) >= 2:
        return f"stopped after {len(ordered)} merges although a pair still occurs twice or more"
    return ""


@pytest.mark.points(2)
def test_returns_pairs_with_new_ids_from_256(submission):
    """train_bpe returns {(id, id): new_id}, the first merge getting 256"""
    assert submission.byte_bpe.train_bpe("abab", 300) == {(97, 98): 256}, hint(
        "key: the pair of ids; value: 256 + the number of merges made before it"
    )


@pytest.mark.points(2)
def test_a_well_known_worked_example(submission):
    """train_bpe("aaabdaaabac", 259) learns (97, 97), then (256, 97), then (257, 98)"""
    got = submission.byte_bpe.train_bpe("aaabdaaabac", 259)
    assert got == {(97, 97): 256, (256, 97): 257, (257, 98): 258}, hint(
        "recount the pairs after every merge; the merged ids take part in later pairs"
    )


@pytest.mark.points(1)
@pytest.mark.parametrize(
    ("text", "vocab_size"),
    [("low lower lowest", 262), ("ééé éé é", 260), ("🙂🙂 ok 🙂🙂", 262), ("日本語 日本語 日本", 264)],
)
def test_every_merge_was_a_most_frequent_pair_of_bytes(submission, text, vocab_size):
    """train_bpe counts pairs of UTF-8 bytes (not characters) and takes a most frequent one each step"""
    problem = training_problem(text, vocab_size, submission.byte_bpe.train_bpe(text, vocab_size))
    assert problem == "", hint(problem + '; start from list(text.encode("utf-8")), not ord() of each character')


@pytest.mark.points(2)
def test_a_vocabulary_below_256_is_refused_with_a_reason(submission):
    """train_bpe raises ValueError, with a message, for vocab_size below 256"""
    outcome = raised(submission.byte_bpe.train_bpe, "abab", 255)
    assert outcome is not None and outcome[0] == "ValueError", hint("raise ValueError when vocab_size < 256")
    assert outcome[1].strip(), hint("say why in the message: ValueError('vocab_size must be at least 256')")
    assert submission.byte_bpe.train_bpe("abab", 256) == {}, hint("256 ids hold the bytes and nothing more: no merge")


@pytest.mark.points(2)
def test_stops_when_no_pair_repeats(submission):
    """train_bpe stops early when the best pair occurs fewer than two times"""
    assert submission.byte_bpe.train_bpe("abcdef", 300) == {}, hint("every pair is seen once: stop at once")
    assert submission.byte_bpe.train_bpe("", 300) == {}, hint("no bytes, no pairs")


@pytest.mark.points(2)
@examples(40)
@given(text=st.text(alphabet="ab é🙂\n", max_size=30), extra=st.integers(0, 8))
def test_hyp_training_is_valid_on_any_text(submission, text, extra):
    """train_bpe makes valid merges on any text"""
    problem = training_problem(text, 256 + extra, submission.byte_bpe.train_bpe(text, 256 + extra))
    assert problem == "", hint(problem)
