import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(1)
def test_merges_the_lowest_rank_first(submission):
    """encode_by_rank merges each word's lowest-ranked pair first, until no pair is a merge"""
    merges = [("l", "o"), ("lo", "w"), ("e", "r"), ("er", "</w>")]
    got = submission.word_bpe.encode_by_rank("lower lo", merges)
    assert got == ["low", "er</w>", "lo", "</w>"], hint(
        "per word: take the adjacent pair with the smallest index in merges, merge it, look again"
    )
