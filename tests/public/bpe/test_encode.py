"""Public examples for encode. The answer must be a list of int ids: the grader checks the type of each
call's answer and says which type it wanted (a list of tokens is not a list of ids)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint

HOHO = {"h": 0, "o": 1, "ho": 2, "hoho": 3}
ONE = {"e": 0, "n": 1, "o": 2, "ne": 3, "on": 4}


@pytest.mark.rules("ids")
@pytest.mark.points(1)
def test_applies_the_merges_then_looks_the_tokens_up(submission):
    """encode("hohoho", [("h", "o"), ("ho", "ho")], vocab) gives the ids of hoho and ho"""
    ids = submission.bpe.encode("hohoho", [("h", "o"), ("ho", "ho")], HOHO)
    assert ids == [3, 2], hint("merge with each pair in turn, then replace each token by vocab[token]")


@pytest.mark.rules("learned_order")
@pytest.mark.points(2)
def test_applies_the_merges_one_after_the_other_in_the_order_given(submission):
    """encode applies merges[0] everywhere, then merges[1], and never picks tokens by id or by length"""
    assert submission.bpe.encode("one", [("o", "n"), ("n", "e")], ONE) == [4, 0], hint(
        "loop over merges in the order given: o n merges first, so n is taken before n e can merge"
    )
    assert submission.bpe.encode("one", [("n", "e"), ("o", "n")], ONE) == [2, 3], hint(
        "apply the merges one after the other with merge_pair; do not cut the text into the longest tokens of vocab"
    )


@pytest.mark.rules("ids")
@pytest.mark.points(1)
def test_empty_text_gives_no_ids(submission):
    """encode("") is [] (and a text no merge applies to gives the ids of its characters)"""
    assert submission.bpe.encode("neon", [("o", "n")], ONE) == [1, 0, 4], hint("tokens no merge joins stay characters")
    assert submission.bpe.encode("", [("o", "n")], ONE) == [], hint('encode("", merges, vocab) must be []')


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_leaves_merges_and_vocabulary_unchanged(submission):
    """encode answers right and leaves its merges and vocabulary as they were"""
    record = submission.bpe.encode.call("noone", [("o", "n"), ("n", "e")], ONE)
    assert record.returned == [1, 2, 4, 0], hint("apply each merge in the order given, then look tokens up")
    assert not record.mutated, hint("read merges and vocab as they are: do not pop, sort, extend or add to them")


@st.composite
def merges_and_vocabularies(draw):
    """A text over a small alphabet, merges built one on another, and a vocabulary with ids in any order."""
    alphabet = draw(st.lists(st.sampled_from("abc \n"), min_size=1, max_size=4, unique=True))
    text = draw(st.text(alphabet="".join(alphabet), max_size=24))
    tokens = list(alphabet)
    merges = []
    for _ in range(draw(st.integers(0, 6))):
        pair = (draw(st.sampled_from(tokens)), draw(st.sampled_from(tokens)))
        merges.append(pair)
        tokens.append(pair[0] + pair[1])
    distinct = sorted(set(tokens))
    ids = draw(st.permutations(range(len(distinct))))
    return text, merges, dict(zip(distinct, ids, strict=True))


@pytest.mark.rules("ids", "learned_order")
@pytest.mark.points(2)
@examples(25)
@given(case=merges_and_vocabularies())
def test_hyp_one_merge_more_is_merge_pair_on_the_tokens_before(submission, case):
    """encode with no merge gives the characters' ids, and each merge more is merge_pair applied to the tokens"""
    text, merges, vocab = case
    token_of = {number: token for token, number in vocab.items()}
    ids = submission.bpe.encode(text, [], vocab)
    assert ids == [vocab[character] for character in text], hint(
        "start from list(text): with no merges, each character is a token; do not look for longer tokens in vocab"
    )
    for learned in range(1, len(merges) + 1):
        tokens = [token_of.get(number, "") for number in ids]
        expected = [vocab.get(token, -1) for token in submission.bpe.merge_pair(tokens, merges[learned - 1])]
        ids = submission.bpe.encode(text, merges[:learned], vocab)
        assert ids == expected, hint(
            "apply merge_pair once per merge, in the order given, then map each token to its id"
        )
