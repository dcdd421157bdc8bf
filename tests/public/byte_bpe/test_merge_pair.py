from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint


@pytest.mark.rules("every_occurrence")
@pytest.mark.points(2)
def test_replaces_every_occurrence_with_the_new_id(submission):
    """merge_pair replaces each occurrence of the pair with new_id, and keeps every other id in its place"""
    got = submission.byte_bpe.merge_pair([1, 7, 8, 2, 7, 8], (7, 8), 300)
    assert isinstance(got, list), hint("return a list of ids")
    if got.count(300) == 2 and len(got) > 4:
        assert got == [1, 300, 2, 300], hint(
            "each 300 is followed by the 8 it replaced: after a merge, move on two places, past both ids",
            fix="left_to_right",
        )
    assert got == [1, 300, 2, 300], hint("where ids[i], ids[i + 1] equal the pair, put new_id instead of both")
    assert submission.byte_bpe.merge_pair([9, 1, 2], (1, 2), 256) == [9, 256], hint(
        "the last two ids can be the pair too: look at every position up to the end of the list"
    )


@pytest.mark.rules("left_to_right")
@pytest.mark.points(2)
def test_does_not_reuse_an_id_it_just_merged(submission):
    """merge_pair scans left to right: 4 4 4 becomes 256 4, and 4 4 4 4 4 becomes 256 256 4"""
    assert submission.byte_bpe.merge_pair([4, 4, 4], (4, 4), 256) == [256, 4], hint(
        "after a merge, continue after both ids: the second 4 is used up"
    )
    assert submission.byte_bpe.merge_pair([4, 4, 4, 4, 4], (4, 4), 256) == [256, 256, 4], hint(
        "after a merge, jump two places; where there is no match, one"
    )


@pytest.mark.rules("every_occurrence")
@pytest.mark.points(1)
def test_matches_the_pair_in_its_order_only(submission):
    """merge_pair merges (1, 2) but not 2 1, and treats a merged id like any other id"""
    assert submission.byte_bpe.merge_pair([2, 1, 2], (1, 2), 256) == [2, 256], hint(
        "compare ids[i] with pair[0] and ids[i + 1] with pair[1]: the order of the pair matters"
    )
    assert submission.byte_bpe.merge_pair([256, 97, 256, 97, 98], (256, 97), 257) == [257, 257, 98], hint(
        "an id made by an earlier merge (256) is matched like a byte"
    )


@pytest.mark.rules("every_occurrence")
@pytest.mark.points(1)
def test_short_lists_and_absent_pairs_come_back_unchanged(submission):
    """merge_pair returns [] for [], a lone id as it is, and the same ids when the pair does not occur"""
    assert submission.byte_bpe.merge_pair([], (3, 4), 256) == [], hint("no ids, nothing to merge: return []")
    assert submission.byte_bpe.merge_pair([3], (3, 3), 256) == [3], hint(
        "a lone id has no neighbour: keep it, without reading past the end"
    )
    assert submission.byte_bpe.merge_pair([3, 5, 4], (3, 4), 256) == [3, 5, 4], hint(
        "the pair must be neighbours; where it does not occur, keep every id"
    )


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_leaves_the_ids_it_is_given_unchanged(submission):
    """merge_pair returns a new list and leaves the one it is given as it was"""
    record = submission.byte_bpe.merge_pair.call([5, 6, 5, 6], (5, 6), 256)
    assert record.returned == [256, 256], hint("merge each occurrence of the pair into new_id")
    assert not record.mutated, hint("build a new list instead of editing ids in place")


@pytest.mark.rules("every_occurrence")
@pytest.mark.points(2)
@examples(25)
@given(
    ids=st.lists(st.sampled_from([1, 2, 3]), max_size=16),
    pair=st.tuples(st.sampled_from([1, 2, 3]), st.sampled_from([1, 2, 3])),
)
def test_hyp_merges_only_the_pair_and_leaves_none_of_it(submission, ids, pair):
    """merge_pair on any ids: spelling new_id out again gives the ids back, and no occurrence of the pair is left"""
    merged = submission.byte_bpe.merge_pair(ids, pair, 300)
    spelled_out = [part for value in merged for part in (pair if value == 300 else (value,))]
    assert spelled_out == ids, hint("replace only a whole pair with new_id; every other id stays, in its order")
    assert pair not in pairwise(merged), hint(
        "scan the whole list: where the two ids of the pair are still neighbours, merge them"
    )
