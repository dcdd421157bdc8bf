"""Merging one piece by rank: the adjacent pair of lowest rank, everywhere in the piece, until none is a merge."""

import itertools

import pytest
from hypothesis import given

from autograder.testing.author_api import domains, examples, hint, reference

ref = reference("real_tokenizer")


@pytest.mark.rules("characters")
@pytest.mark.points(1)
def test_starts_from_the_pieces_characters(submission):
    """merge_by_rank starts from one token a character: with no pair in ranks, the characters are the tokens"""
    assert submission.real_tokenizer.merge_by_rank("Ã©Ġa", {}) == ["Ã", "©", "Ġ", "a"], hint(
        "start from list(piece): each character (each byte, as bytes_to_unicode spells it) is a token"
    )
    assert submission.real_tokenizer.merge_by_rank("x", {("x", "x"): 0}) == ["x"], hint(
        "a piece of one character is that one token"
    )


@pytest.mark.rules("until_none")
@pytest.mark.points(1)
def test_merges_until_no_pair_is_a_merge(submission):
    """merge_by_rank repeats until no adjacent pair is in ranks: a merged token pairs again"""
    ranks = {("u", "g"): 0, ("h", "ug"): 1, ("Ġ", "hug"): 2}
    assert submission.real_tokenizer.merge_by_rank("Ġhug", ranks) == ["Ġhug"], hint(
        "after a merge, look at the new adjacent pairs again: stop only when none of them is in ranks"
    )


def _one_place_a_round(piece, ranks):
    """A merge of the lowest pair at its first place only, each round: what merge_by_rank must not do."""
    tokens = list(piece)
    while True:
        ranked = [(ranks[pair], at) for at, pair in enumerate(itertools.pairwise(tokens)) if pair in ranks]
        if not ranked:
            return tokens
        at = min(ranked)[1]
        tokens[at : at + 2] = [tokens[at] + tokens[at + 1]]


@pytest.mark.rules("lowest_rank")
@pytest.mark.points(2)
def test_merges_the_pair_of_lowest_rank_first(submission):
    """merge_by_rank merges the pair of lowest rank first, not the first pair in the piece or in ranks"""
    ranks = {("a", "b"): 1, ("b", "c"): 0, ("a", "bc"): 2}
    assert submission.real_tokenizer.merge_by_rank("abc", ranks) == ["abc"], hint(
        '("b", "c") has rank 0, so "bc" is made before "ab" could be; then ("a", "bc") makes "abc"'
    )
    gaps = {("b", "c"): 30, ("a", "b"): 7}
    assert submission.real_tokenizer.merge_by_rank("abc", gaps) == ["ab", "c"], hint(
        "compare the ranks' values (7 is lower than 30), whatever order the dict lists the pairs in"
    )


@pytest.mark.rules("everywhere")
@pytest.mark.points(2)
def test_merges_the_pair_at_every_place_left_to_right(submission):
    """merge_by_rank merges the chosen pair at every place it occurs, left to right, before looking again"""
    assert submission.real_tokenizer.merge_by_rank("aaa", {("a", "a"): 0}) == ["aa", "a"], hint(
        "merge from the left and step past each merged pair: a a a becomes aa a, not a aa"
    )
    # ("ab", "a") ranks below ("a", "b"): merging one place a round would make "aba" before the second "ab".
    ranks = {("ab", "a"): 0, ("a", "b"): 1}
    assert submission.real_tokenizer.merge_by_rank("abab", ranks) == ["ab", "ab"], hint(
        "merge the pair of lowest rank at every place it occurs in one round, then look at the ranks again"
    )


@pytest.mark.rules("characters", "lowest_rank", "everywhere", "until_none")
@pytest.mark.points(1)
@examples(40)
@given(inputs=domains.strategy("piece_and_ranks"))
def test_hyp_same_tokens_as_the_reference(submission, inputs):
    """merge_by_rank gives the reference's tokens for any piece and any ranks"""
    piece, ranks = inputs["piece"], inputs["ranks"]
    got = submission.real_tokenizer.merge_by_rank(piece, ranks)
    reference_tokens = ref.merge_by_rank(piece, ranks)
    assert isinstance(got, list) and "".join(map(str, got)) == piece, hint(
        "return a list of tokens that joined give the piece: start from its characters, and a merge joins two",
        fix="characters",
    )
    assert not any(pair in ranks for pair in itertools.pairwise(got)), hint(
        "keep merging while any adjacent pair is in ranks", fix="until_none"
    )
    if got != reference_tokens and got == _one_place_a_round(piece, ranks):
        assert got == reference_tokens, hint(
            "merge the pair of lowest rank at every place it occurs, left to right, before looking again",
            fix="everywhere",
        )
    assert got == reference_tokens, hint(
        "each round, merge the adjacent pair whose rank is lowest (compare the values), not the first one found",
        fix="lowest_rank",
    )
