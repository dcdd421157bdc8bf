import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import domains, examples, hint, reference

ref = reference("byte_bpe")
MERGES = ref.train_bpe("the theme then; ça et là, ça! 🙂🙂 the end\n", 280)


@pytest.mark.rules("by_new_id")
@pytest.mark.points(3)
def test_encodes_a_well_known_worked_example(submission):
    """encode("aaabdaaabac") with its three merges gives [258, 100, 258, 97, 99]"""
    merges = {(97, 97): 256, (256, 97): 257, (257, 98): 258}
    got = submission.byte_bpe.encode("aaabdaaabac", merges)
    assert got == [258, 100, 258, 97, 99], hint("start from the UTF-8 bytes, then apply every merge with merge_pair")


@pytest.mark.rules("by_new_id", "unchanged")
@pytest.mark.points(3)
def test_applies_merges_in_order_of_their_new_id(submission):
    """encode applies merges by increasing new id, whatever the dict's order or the pairs' values, leaving its arguments as they were"""
    merges = {(97, 256): 257, (98, 99): 256}
    record = submission.byte_bpe.encode.call("abc", merges)
    got = record.returned
    assert got == [257], hint(
        "sort the merges by their new id (the order they were learned), not by pair", fix="by_new_id"
    )
    trained = ref.train_bpe("ab ab bcbcbc", 270)  # (b, c) -> 256 first, then (a, b) -> 257
    assert submission.byte_bpe.encode("abc", trained) == [97, 256], hint(
        "apply each merge, in order of its new id, everywhere before the next: not the longest token, nor the "
        "merge whose pair is most frequent in the text",
        fix="by_new_id",
    )
    assert record.mutated is False, hint(
        "leave the merges dict as it was: sort a copy of its items, never pop from it", fix="unchanged"
    )


@pytest.mark.rules("utf8_bytes")
@pytest.mark.points(2)
def test_starts_from_utf8_bytes(submission):
    """encode starts from the UTF-8 bytes: é is two ids, 🙂 is four"""
    assert submission.byte_bpe.encode("é🙂", {}) == [195, 169, 240, 159, 153, 130], hint(
        'use list(text.encode("utf-8")), not ord() of each character'
    )
    assert submission.byte_bpe.encode("", MERGES) == [], hint("no bytes, no ids")


@pytest.mark.rules("utf8_bytes", "by_new_id")
@pytest.mark.points(3)
@examples(50)
@given(
    text=st.one_of(domains.strategy("any_text"), st.text(alphabet="abc ", max_size=16)),
    training=st.one_of(st.just(""), domains.strategy("any_text"), st.text(alphabet="abc ", min_size=8, max_size=40)),
    room=st.integers(0, 12),
)
def test_hyp_matches_the_contract_on_any_text(submission, text, training, room):
    """encode gives the same ids as the contract on any text, with fixed merges and with merges trained on any text"""
    trained = ref.train_bpe(training, 256 + room)
    for merges in (MERGES, trained):
        got = submission.byte_bpe.encode(text, merges)
        known = set(range(256)) | set(merges.values())
        assert isinstance(got, list) and all(value in known for value in got), hint(
            "every id must be a byte (0-255) or one of the merges' new ids"
        )
        assert got == ref.encode(text, merges), hint(
            "UTF-8 bytes, then each merge in order of its new id, everywhere before the next"
        )
