import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, reference

ref = reference("byte_bpe")


@pytest.mark.rules("adjacent_pairs")
@pytest.mark.points(2)
def test_counts_neighbouring_ids(submission):
    """get_pair_counts counts each pair of neighbouring ids"""
    got = submission.byte_bpe.get_pair_counts([104, 105, 104, 105, 33])
    assert got == {(104, 105): 2, (105, 104): 1, (105, 33): 1}, hint("walk over neighbours and count each (id, id)")


@pytest.mark.rules("adjacent_pairs")
@pytest.mark.points(1)
def test_counts_overlapping_pairs(submission):
    """get_pair_counts counts overlapping pairs, and no pair in fewer than two ids"""
    assert submission.byte_bpe.get_pair_counts([7, 7, 7]) == {(7, 7): 2}, hint("7 7 7 holds (7, 7) twice")
    assert submission.byte_bpe.get_pair_counts([7]) == {}, hint("one id has no neighbour")


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_does_not_change_the_ids(submission):
    """get_pair_counts answers right and leaves the list unchanged"""
    record = submission.byte_bpe.get_pair_counts.call([1, 2, 3])
    assert record.returned == {(1, 2): 1, (2, 3): 1}, hint("count each pair")
    assert not record.mutated, hint("read the list; do not change it")


@pytest.mark.rules("adjacent_pairs")
@pytest.mark.points(1)
@examples(40)
@given(ids=st.lists(st.integers(0, 260), max_size=30))
def test_hyp_counts_match_on_any_ids(submission, ids):
    """get_pair_counts is right for any list of ids"""
    assert submission.byte_bpe.get_pair_counts(ids) == ref.get_pair_counts(ids), hint("count every neighbouring pair")
