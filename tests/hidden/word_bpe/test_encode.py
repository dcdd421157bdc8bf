import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, reference

ref = reference("word_bpe")
MERGES = ref.train_bpe("low lower lowest low newer wider", 10)


@pytest.mark.rules("concatenated", "unchanged")
@pytest.mark.points(3)
def test_encodes_each_word_with_learned_merges(submission):
    """encode spells each word with "</w>" and applies the merges, leaving its arguments as they were"""
    merges = [("l", "o"), ("lo", "w"), ("low", "</w>")]
    record = submission.word_bpe.encode.call("lowly low", merges)
    got = record.returned
    assert got == ["low", "l", "y", "</w>", "low</w>"], hint(
        "each word: list(word) + ['</w>'], then every merge in order"
    )
    assert not record.mutated, hint("leave the list of merges as it was: read it, never pop from it or sort it")


@pytest.mark.rules("learned_order")
@pytest.mark.points(2)
def test_applies_merges_in_learned_order(submission):
    """encode applies merges[0] everywhere first, then merges[1], and so on"""
    got = submission.word_bpe.encode("abc", [("b", "c"), ("a", "b")])
    assert got == ["a", "bc", "</w>"], hint("loop over the merges in the order given")


@pytest.mark.rules("unseen")
@pytest.mark.points(1)
def test_unseen_characters_stay_tokens(submission):
    """encode keeps a character never seen in training as a token of its own"""
    assert submission.word_bpe.encode("zoë!", MERGES) == ["z", "o", "ë", "</w>", "!", "</w>"], hint(
        "nothing is unknown: a symbol no merge touches stays as it is"
    )
    assert submission.word_bpe.encode("", MERGES) == [], hint("no words, no tokens")


@pytest.mark.rules("learned_order", "concatenated", "unseen")
@pytest.mark.points(2)
@examples(40)
@given(text=st.text(alphabet="lowerndi ,.\n", max_size=30))
def test_hyp_matches_the_contract(submission, text):
    """encode gives the same tokens as the contract on any text"""
    assert submission.word_bpe.encode(text, MERGES) == ref.encode(text, MERGES), hint(
        "pre_tokenize, spell each word with '</w>', apply the merges in order, concatenate"
    )
