"""Public examples for decode. The answer must be a str: the grader checks the type of each call's answer
and says which type it wanted (a list of tokens is not a str)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint

HOHO = {"h": 0, "o": 1, "ho": 2, "hoho": 3}


@pytest.mark.rules("joined")
@pytest.mark.points(1)
def test_joins_the_token_of_each_id(submission):
    """decode([3, 2, 3], vocab) joins hoho, ho and hoho"""
    text = submission.bpe.decode([3, 2, 3], HOHO)
    assert text == "hohohohoho", hint("turn vocab around into {id: token}, then join the tokens of ids in order")


@pytest.mark.rules("joined")
@pytest.mark.points(1)
def test_keeps_whitespace_tokens_and_adds_none(submission):
    """decode joins tokens with nothing between them, so spaces and newlines come back as they were"""
    vocab = {"\n": 0, " ": 1, "o": 2, "t": 3, "to": 4, "o ": 5}
    assert submission.bpe.decode([4, 1, 4, 5, 0, 3], vocab) == "to too \nt", hint(
        'join with "", not " ": spaces and newlines are tokens of their own'
    )


@pytest.mark.rules("joined")
@pytest.mark.points(1)
def test_finds_each_id_by_its_value_not_by_its_place(submission):
    """decode looks each id up by value, whatever order the vocabulary lists its tokens in"""
    vocab = {"hoho": 3, "o": 1, "ho": 2, "h": 0}
    assert submission.bpe.decode([3], vocab) == "hoho", hint(
        "build {id: token} from vocab.items(): where a token stands in the dict says nothing about its id"
    )


@pytest.mark.rules("joined")
@pytest.mark.points(1)
def test_no_ids_give_empty_text(submission):
    """decode([]) is "" (and one id, its token)"""
    assert submission.bpe.decode([2], HOHO) == "ho", hint("one id gives its one token")
    assert submission.bpe.decode([], HOHO) == "", hint('decode([], vocab) must be "": no id, no text')


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_leaves_ids_and_vocabulary_unchanged(submission):
    """decode answers right and leaves its ids and vocabulary as they were"""
    record = submission.bpe.decode.call([1, 0, 3], HOHO)
    assert record.returned == "ohhoho", hint("join the token of each id, in order")
    assert not record.mutated, hint("build a new {id: token} dict instead of editing vocab or ids")


@st.composite
def vocabularies_and_tokens(draw):
    """A vocabulary of characters and longer tokens with ids in any order, and a list of its tokens."""
    tokens = sorted(set(draw(st.lists(st.text(alphabet="ab \né🙂", min_size=1, max_size=3), min_size=1, max_size=8))))
    ids = draw(st.permutations(range(len(tokens))))
    chosen = draw(st.lists(st.sampled_from(tokens), max_size=12))
    return dict(zip(tokens, ids, strict=True)), chosen


@pytest.mark.rules("round_trip", "joined")
@pytest.mark.points(2)
@examples(20)
@given(case=vocabularies_and_tokens())
def test_hyp_gives_back_the_text_of_any_ids(submission, case):
    """decode(encode(text)) is the text: the ids of any tokens decode to those tokens joined"""
    vocab, tokens = case
    text = submission.bpe.decode([vocab[token] for token in tokens], vocab)
    assert text == "".join(tokens), hint("each id stands for exactly one token: join the tokens of all the ids")
