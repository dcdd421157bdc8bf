import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, reference

ref = reference("byte_bpe")


@pytest.mark.rules("every_occurrence")
@pytest.mark.points(2)
def test_replaces_each_occurrence_with_the_new_id(submission):
    """merge_pair replaces each occurrence of the pair with the new id"""
    ids, pair = [104, 105, 32, 104, 105], (104, 105)
    got = submission.byte_bpe.merge_pair(ids, pair, 256)
    kept_second = [256 if tuple(ids[i : i + 2]) == pair else each for i, each in enumerate(ids)]
    if got == kept_second:
        assert got == [256, 32, 256], hint(
            "after a merge, jump past both ids: the second is inside new_id", fix="left_to_right"
        )
    assert got == [256, 32, 256], hint("where ids[i], ids[i+1] is the pair, append new_id and skip both")


@pytest.mark.rules("left_to_right")
@pytest.mark.points(2)
def test_scans_left_to_right_without_overlap(submission):
    """merge_pair merges 6 6 6 into 256 6: a merged id is not reused"""
    assert submission.byte_bpe.merge_pair([6, 6, 6], (6, 6), 256) == [256, 6], hint("after a merge, jump past both ids")
    assert submission.byte_bpe.merge_pair([6, 6, 6, 6], (6, 6), 256) == [256, 256], hint("merge 6 6 6 6 into two")


@pytest.mark.rules("every_occurrence")
@pytest.mark.points(1)
def test_missing_pair_changes_nothing(submission):
    """merge_pair returns the same ids when the pair does not occur, and [] for []"""
    assert submission.byte_bpe.merge_pair([1, 2, 3], (3, 1), 256) == [1, 2, 3], hint("no match, no change")
    assert submission.byte_bpe.merge_pair([], (1, 2), 256) == [], hint("an empty list stays empty")


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_does_not_change_the_ids(submission):
    """merge_pair answers right with a new list and leaves the one it is given unchanged"""
    record = submission.byte_bpe.merge_pair.call([1, 2, 3], (1, 2), 256)
    assert record.returned == [256, 3], hint("merge the pair into the new id")
    assert not record.mutated, hint("build and return a new list instead of editing ids in place")


@pytest.mark.rules("every_occurrence", "left_to_right")
@pytest.mark.points(2)
@examples(50)
@given(
    ids=st.lists(st.sampled_from([1, 2, 3, 256]), max_size=16),
    pair=st.tuples(st.sampled_from([1, 2, 256]), st.sampled_from([1, 2, 3])),
)
def test_hyp_merges_like_the_contract(submission, ids, pair):
    """merge_pair scans left to right and never makes the list longer, for any ids"""
    got = submission.byte_bpe.merge_pair(ids, pair, 300)
    assert got == ref.merge_pair(ids, pair, 300), hint("scan left to right; after a merge skip both ids")
