from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint

# A small training's merges, listed on purpose out of the order they were learned in (their new ids).
MERGES = {(32, 257): 260, (116, 104): 256, (259, 97): 261, (97, 116): 258, (256, 101): 257, (195, 167): 259}
# The bytes each new id stands for, written out by hand.
SPELLING = {256: b"th", 257: b"the", 258: b"at", 259: "ç".encode(), 260: b" the", 261: "ça".encode()}


@pytest.mark.rules("by_new_id")
@pytest.mark.points(2)
def test_applies_every_merge_to_the_bytes(submission):
    """encode("the cat") with three merges gives [257, 32, 99, 258]"""
    merges = {(116, 104): 256, (256, 101): 257, (97, 116): 258}
    got = submission.byte_bpe.encode("the cat", merges)
    assert isinstance(got, list), hint("return a list of ids")
    assert got == [257, 32, 99, 258], hint("start from the UTF-8 bytes, then apply every merge with merge_pair")


@pytest.mark.rules("by_new_id")
@pytest.mark.points(3)
def test_applies_merges_by_new_id_whatever_the_dicts_order(submission):
    """encode applies the merges by increasing new id, not in the dict's order or by pair"""
    assert submission.byte_bpe.encode(" the", MERGES) == [260], hint(
        "sort merges.items() by the new id (the value): a merge can only join ids made by earlier merges"
    )
    assert submission.byte_bpe.encode("xyz", {(120, 256): 257, (121, 122): 256}) == [257], hint(
        "(121, 122) -> 256 must come before (120, 256) -> 257, although the dict lists it second"
    )
    # As train_bpe("pq pq qrqrqr", 270) learns them: (q, r) first, then (p, q), then (pq, " "), then (qr, qr).
    learned = {(113, 114): 256, (112, 113): 257, (257, 32): 258, (256, 256): 259}
    assert submission.byte_bpe.encode("pqr", learned) == [112, 256], hint(
        "apply each merge, by increasing new id, everywhere before the next: (q, r) was learned before (p, q), so "
        "pqr is p qr, whichever token is longer or pair more frequent"
    )


@pytest.mark.rules("utf8_bytes")
@pytest.mark.points(2)
def test_starts_from_the_utf8_bytes(submission):
    """encode starts from the UTF-8 bytes: "ç" is two ids, "🙂" four, and "" none"""
    assert submission.byte_bpe.encode("ça", {}) == [195, 167, 97], hint(
        'start from the UTF-8 bytes, list(text.encode("utf-8")): ord() gives one id per character'
    )
    assert submission.byte_bpe.encode("🙂", {}) == [240, 159, 153, 130], hint("an emoji is four UTF-8 bytes")
    assert submission.byte_bpe.encode("ça", MERGES) == [261], hint("merges join bytes: (195, 167) is ç, 259")
    assert submission.byte_bpe.encode("", MERGES) == [], hint("empty text has no bytes: return []")


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_leaves_the_merges_as_they_were(submission):
    """encode reads the merges it is given and leaves the dict unchanged"""
    record = submission.byte_bpe.encode.call("that", MERGES)
    assert record.returned == [256, 258], hint("apply every merge in order of its new id")
    assert not record.mutated, hint("sort a copy (sorted(merges.items(), ...)) instead of emptying or editing merges")


@pytest.mark.rules("utf8_bytes")
@pytest.mark.points(2)
@examples(25)
@given(text=st.text(alphabet="the aç\x00中🙂\U0010ffff", max_size=20))
def test_hyp_spells_the_text_with_no_merge_left_to_apply(submission, text):
    """encode on any text: ids that spell its UTF-8 bytes, with no two neighbours a merge still joins"""
    ids = submission.byte_bpe.encode(text, MERGES)
    assert all(0 <= value < 256 or value in SPELLING for value in ids), hint(
        "each id is a byte (0-255) or a merge's new id: start from the UTF-8 bytes, not ord()"
    )
    spelled = b"".join(SPELLING.get(value) or bytes([value]) for value in ids)
    assert spelled == text.encode("utf-8"), hint("a merge replaces two ids with one: no byte is lost or added")
    assert not set(pairwise(ids)) & set(MERGES), hint(
        "apply every merge, each once, in order of its new id: then no two neighbours are a pair of the merges"
    )
