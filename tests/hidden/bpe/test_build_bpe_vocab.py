import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, reference

ref = reference("bpe")


@pytest.mark.rules("every_token")
@pytest.mark.points(3)
def test_characters_and_merged_tokens_get_ids(submission):
    """build_bpe_vocab numbers the characters and every merged token"""
    got = submission.bpe.build_bpe_vocab("abab", [("a", "b")])
    # Which tokens first, then their ids: a vocabulary of the right tokens in another order breaks the next
    # test's rule, not this one.
    assert isinstance(got, dict) and set(got) == {"a", "b", "ab"}, hint(
        "start from set(text), add a + b for each merge"
    )
    assert got == {"a": 0, "b": 1, "ab": 2}, hint(
        "the tokens are right, their ids are not: sort with key=lambda t: (len(t), t)", fix="length_order"
    )


@pytest.mark.rules("length_order")
@pytest.mark.points(2)
def test_ids_follow_length_then_sorted_order(submission):
    """build_bpe_vocab orders tokens by (length, token)"""
    got = submission.bpe.build_bpe_vocab("cba", [("c", "b"), ("cb", "a"), ("b", "a")])
    assert got == {"a": 0, "b": 1, "c": 2, "ba": 3, "cb": 4, "cba": 5}, hint("sort with key=lambda t: (len(t), t)")


@pytest.mark.rules("made_twice", "unchanged")
@pytest.mark.points(1)
def test_a_token_made_twice_gets_one_id(submission):
    """build_bpe_vocab gives a token one id even when two merges make it, leaving its arguments as they were"""
    record = submission.bpe.build_bpe_vocab.call("abc", [("a", "b"), ("ab", "c"), ("a", "bc")])
    got = record.returned
    assert got == {"a": 0, "b": 1, "c": 2, "ab": 3, "abc": 4}, hint("collect tokens in a set so ids stay 0..n-1")
    assert record.mutated is False, hint(
        "leave the merges as they were: build the vocabulary in a dict of your own", fix="unchanged"
    )
    # Merges out of sorted order: a sort in place shows only here.
    unsorted = submission.bpe.build_bpe_vocab.call("bbbaba", [("b", "b"), ("b", "a")])
    assert not unsorted.mutated, hint(
        "leave the merges in the order given: sort a copy (sorted(...)), never merges.sort()", fix="unchanged"
    )


@pytest.mark.rules("every_token", "length_order", "made_twice")
@pytest.mark.points(2)
@examples(40)
@given(text=st.text(alphabet="ab \né", max_size=30), num_merges=st.integers(0, 6))
def test_hyp_matches_the_contract(submission, text, num_merges):
    """build_bpe_vocab is right for any text and its trained merges"""
    _, merges = ref.train_bpe(text, num_merges)
    got = submission.bpe.build_bpe_vocab(text, merges)
    assert got == ref.build_bpe_vocab(text, merges), hint("characters plus merged tokens, ordered by (len, token)")
