from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint


@pytest.mark.rules("adjacent_pairs")
@pytest.mark.points(2)
def test_counts_each_pair_of_neighbours(submission):
    """get_pair_counts counts every pair of neighbouring ids, the last pair included"""
    got = submission.byte_bpe.get_pair_counts([10, 20, 30, 10, 20])
    assert isinstance(got, dict), hint("return a dict (a Counter is one) of {(id, id): count}")
    assert got == {(10, 20): 2, (20, 30): 1, (30, 10): 1}, hint(
        "look at every index i up to len(ids) - 2 and count (ids[i], ids[i + 1]): the last pair counts too"
    )


@pytest.mark.rules("adjacent_pairs")
@pytest.mark.points(1)
def test_overlapping_pairs_are_each_counted(submission):
    """get_pair_counts counts overlapping pairs: 9 9 9 9 holds (9, 9) three times"""
    assert submission.byte_bpe.get_pair_counts([9, 9, 9, 9]) == {(9, 9): 3}, hint(
        "move on by one id at a time, not by two: each id starts a pair with the next"
    )
    assert submission.byte_bpe.get_pair_counts([300, 256, 300, 256]) == {(300, 256): 2, (256, 300): 1}, hint(
        "ids from 256 up are merged ids: count their pairs like any other"
    )


@pytest.mark.rules("adjacent_pairs")
@pytest.mark.points(1)
def test_fewer_than_two_ids_have_no_pairs(submission):
    """get_pair_counts gives an empty count for [] and for a single id"""
    assert submission.byte_bpe.get_pair_counts([]) == {}, hint("an empty list has no pairs: return an empty Counter")
    assert submission.byte_bpe.get_pair_counts([42]) == {}, hint(
        "one id has no neighbour: return an empty Counter, without reading ids[1]"
    )


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_leaves_the_ids_as_they_were(submission):
    """get_pair_counts reads the list it is given and leaves it unchanged"""
    record = submission.byte_bpe.get_pair_counts.call([4, 5, 4, 5])
    assert record.returned == {(4, 5): 2, (5, 4): 1}, hint("count each pair of neighbouring ids")
    assert not record.mutated, hint("only read ids: do not sort, pop or change it while counting")


@pytest.mark.rules("adjacent_pairs")
@pytest.mark.points(1)
@examples(25)
@given(ids=st.lists(st.sampled_from([0, 1, 2, 256]), max_size=20))
def test_hyp_counts_add_up_to_the_pairs_of_any_list(submission, ids):
    """get_pair_counts on any list: exactly its neighbouring pairs, len(ids) - 1 of them in all"""
    counts = submission.byte_bpe.get_pair_counts(ids)
    assert set(counts) == set(pairwise(ids)), hint(
        "the keys are exactly the pairs (ids[i], ids[i + 1]) that occur, no others"
    )
    assert sum(counts.values()) == max(len(ids) - 1, 0), hint(
        "a list of n ids holds n - 1 neighbouring pairs: count each position once"
    )
