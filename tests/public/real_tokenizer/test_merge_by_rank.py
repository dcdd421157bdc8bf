"""Merging one piece by rank: the adjacent pair of lowest rank, everywhere in the piece, until none is a merge."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint

RANKS = {("y", "z"): 0, ("x", "y"): 1, ("x", "yz"): 2, ("Ġ", "xyz"): 3}


@pytest.mark.rules("characters")
@pytest.mark.points(1)
def test_no_merge_leaves_the_characters(submission):
    """merge_by_rank with no pair in ranks gives the piece's characters, one token each"""
    got = submission.real_tokenizer.merge_by_rank("ĠzÃ©", RANKS)
    assert isinstance(got, list), hint("return a list of tokens")
    assert got == ["Ġ", "z", "Ã", "©"], hint("start from list(piece): one token a character")


@pytest.mark.rules("until_none")
@pytest.mark.points(1)
def test_merging_goes_on_until_no_pair_is_a_merge(submission):
    """merge_by_rank keeps merging while a pair is in ranks: Ġ b u g becomes Ġbug"""
    rounds = {("u", "g"): 0, ("b", "ug"): 1, ("Ġ", "bug"): 2}
    assert submission.real_tokenizer.merge_by_rank("Ġbug", rounds) == ["Ġbug"], hint(
        "after each merge look at the new adjacent pairs: stop only when none is in ranks"
    )


@pytest.mark.rules("lowest_rank")
@pytest.mark.points(2)
def test_the_pair_of_lowest_rank_merges_first(submission):
    """merge_by_rank merges ("y", "z"), rank 0, before ("x", "y"), rank 1, though "x y" comes first"""
    assert submission.real_tokenizer.merge_by_rank("xyz", RANKS) == ["xyz"], hint(
        '("y", "z") has the lowest rank: merge it first; then ("x", "yz") gives "xyz"'
    )
    listed_backwards = dict(reversed(list(RANKS.items())))
    assert submission.real_tokenizer.merge_by_rank("xyz", listed_backwards) == ["xyz"], hint(
        "take the pair whose rank value is lowest, whatever order the dict lists the pairs in"
    )


@pytest.mark.rules("everywhere")
@pytest.mark.points(2)
def test_the_pair_merges_at_every_place(submission):
    """merge_by_rank merges the chosen pair wherever it occurs, left to right: x x x gives xx x"""
    assert submission.real_tokenizer.merge_by_rank("xxx", {("x", "x"): 0}) == ["xx", "x"], hint(
        "merge from the left and step past each merged pair: x x x becomes xx x"
    )
    ranks = {("xy", "x"): 0, ("x", "y"): 1}  # a round that merged only the first "x y" would make "xyx" next
    assert submission.real_tokenizer.merge_by_rank("xyxy", ranks) == ["xy", "xy"], hint(
        "in one round merge the pair at every place it occurs, then look at the ranks again"
    )


@pytest.mark.rules("characters", "until_none")
@pytest.mark.points(1)
@examples(30)
@given(piece=st.text(alphabet="xyzĠ", min_size=1, max_size=10))
def test_hyp_the_tokens_give_the_piece_back_and_no_pair_is_left(submission, piece):
    """merge_by_rank on any piece: the tokens joined are the piece, and no adjacent pair is in ranks"""
    got = submission.real_tokenizer.merge_by_rank(piece, RANKS)
    assert "".join(got) == piece, hint("a merge joins two tokens; nothing is lost or added", fix="characters")
    assert not any(pair in RANKS for pair in itertools.pairwise(got)), hint(
        "keep merging while an adjacent pair is in ranks", fix="until_none"
    )
