import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, reference

ref = reference("bpe")


@pytest.mark.rules("joined")
@pytest.mark.points(3)
def test_decodes_ids_to_text(submission):
    """decode joins the tokens of the ids"""
    vocab = {"a": 0, "b": 1, "c": 2, "ab": 3}
    got = submission.bpe.decode([3, 2, 0], vocab)
    assert got == "abca", hint("invert vocab to {id: token}, then join the tokens with no separator")


@pytest.mark.rules("joined")
@pytest.mark.points(1)
def test_no_ids_give_empty_text(submission):
    """decode of [] is the empty string (and of ids, their tokens joined)"""
    assert submission.bpe.decode([1, 0], {"a": 0, "b": 1}) == "ba", hint("join the tokens of the ids, in order")
    assert submission.bpe.decode([], {"a": 0}) == "", hint("no ids, no text")


@pytest.mark.rules("joined")
@pytest.mark.points(2)
def test_keeps_spaces_and_newlines(submission):
    """decode does not add or drop whitespace between tokens"""
    vocab = {"\n": 0, " ": 1, "a": 2, "b": 3, "ab": 4}
    got = submission.bpe.decode([4, 1, 2, 0, 3], vocab)
    assert got == "ab a\nb", hint('join with "", not " ": spaces are tokens of their own')


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_does_not_change_ids_or_vocabulary(submission):
    """decode answers right and leaves its ids and vocabulary unchanged"""
    record = submission.bpe.decode.call([1, 0], {"a": 0, "b": 1})
    assert record.returned == "ba", hint("invert vocab, then join the tokens")
    assert not record.mutated, hint("build a new {id: token} dict instead of editing vocab")


@pytest.mark.rules("round_trip")
@pytest.mark.points(3)
@examples(40)
@given(
    train=st.text(alphabet="ab c\né🙂", min_size=1, max_size=40),
    num_merges=st.integers(0, 8),
    picks=st.lists(st.integers(0, 50), max_size=30),
)
def test_hyp_inverts_encode(submission, train, num_merges, picks):
    """decode(encode(text)) gives back the text, for any text over the training alphabet"""
    _, merges = ref.train_bpe(train, num_merges)
    vocab = ref.build_bpe_vocab(train, merges)
    alphabet = sorted(set(train))
    text = "".join(alphabet[pick % len(alphabet)] for pick in picks)
    ids = ref.encode(text, merges, vocab)
    got = submission.bpe.decode(ids, vocab)
    assert got == text, hint("every id maps back to exactly one token; join them all")


@pytest.mark.rules("joined")
@pytest.mark.points(1)
def test_finds_each_id_whatever_order_the_vocabulary_lists_it_in(submission):
    """decode looks each id up by its value, not by where its token stands in the vocabulary"""
    vocab = {"ba": 4, "\n": 0, "b": 3, " ": 1, "a": 2}
    got = submission.bpe.decode([4, 1, 2, 0, 4], vocab)
    assert got == "ba a\nba", hint("invert vocab to {id: token}: a dict's order says nothing about its ids")
