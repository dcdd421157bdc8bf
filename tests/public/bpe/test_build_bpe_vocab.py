"""Public examples for build_bpe_vocab. The answer must be a dict of str to int: the grader checks the type
of each call's answer and says which type it wanted."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint


@pytest.mark.rules("every_token")
@pytest.mark.points(1)
def test_numbers_the_characters_and_each_merged_token(submission):
    """build_bpe_vocab("hohoho", [("h", "o"), ("ho", "ho")]) is {"h": 0, "o": 1, "ho": 2, "hoho": 3}"""
    vocab = submission.bpe.build_bpe_vocab("hohoho", [("h", "o"), ("ho", "ho")])
    if isinstance(vocab, dict) and set(vocab) == {"h", "o", "ho", "hoho"}:
        assert vocab == {"h": 0, "o": 1, "ho": 2, "hoho": 3}, hint(
            "the tokens are right, their ids are not: number them in order of (len(token), token), shortest first",
            fix="length_order",
        )
    assert vocab == {"h": 0, "o": 1, "ho": 2, "hoho": 3}, hint(
        "take the distinct characters of text and a + b for each merge, then number them shortest first"
    )


@pytest.mark.rules("length_order")
@pytest.mark.points(2)
def test_ids_follow_length_then_sorted_order_not_merge_order(submission):
    """build_bpe_vocab numbers tokens by (length, token), whatever order the merges came in"""
    vocab = submission.bpe.build_bpe_vocab("nose", [("s", "e"), ("o", "se"), ("n", "o")])
    assert vocab == {"e": 0, "n": 1, "o": 2, "s": 3, "no": 4, "se": 5, "ose": 6}, hint(
        "gather every token first, then sort them all with key=lambda token: (len(token), token)"
    )


@pytest.mark.rules("made_twice")
@pytest.mark.points(1)
def test_a_token_two_merges_make_gets_one_id(submission):
    """build_bpe_vocab numbers a token once when two merges make it, and ids stay 0..n-1"""
    vocab = submission.bpe.build_bpe_vocab("pqr", [("q", "r"), ("p", "qr"), ("pq", "r"), ("p", "q")])
    assert vocab == {"p": 0, "q": 1, "r": 2, "pq": 3, "qr": 4, "pqr": 5}, hint(
        "collect the tokens in a set before numbering them, so that pqr gets one id and no id is skipped"
    )


@pytest.mark.rules("every_token")
@pytest.mark.points(1)
def test_whitespace_is_numbered_and_empty_text_gives_an_empty_vocabulary(submission):
    """build_bpe_vocab numbers newlines and spaces like any character, and gives {} for "" with no merges"""
    vocab = submission.bpe.build_bpe_vocab("a b\nb", [])
    assert vocab == {"\n": 0, " ": 1, "a": 2, "b": 3}, hint(
        "every distinct character is a token, whitespace too, in code point order for one length"
    )
    assert submission.bpe.build_bpe_vocab("", []) == {}, hint('build_bpe_vocab("", []) must be {}: no token at all')


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_leaves_the_merges_unchanged(submission):
    """build_bpe_vocab answers right and leaves the merges it is given as they were"""
    record = submission.bpe.build_bpe_vocab.call("yxyx", [("y", "x"), ("yx", "yx")])
    assert record.returned == {"x": 0, "y": 1, "yx": 2, "yxyx": 3}, hint(
        "number the characters and merged tokens shortest first"
    )
    assert not record.mutated, hint("read merges as they are; put the tokens in a new set instead of editing merges")
    # Merges out of sorted order, where a sort in place would show.
    unsorted = submission.bpe.build_bpe_vocab.call("zzzyzy", [("z", "z"), ("z", "y")])
    assert not unsorted.mutated, hint("keep the merges in their order: sort a copy (sorted(...)), never merges.sort()")


PIECES = st.sampled_from(["a", "b", " ", "ab", "ba", "b a"])


@pytest.mark.rules("every_token", "length_order", "made_twice")
@pytest.mark.points(2)
@examples(20)
@given(text=st.text(alphabet="ab \n", max_size=20), merges=st.lists(st.tuples(PIECES, PIECES), max_size=6))
def test_hyp_numbers_every_token_once_shortest_first(submission, text, merges):
    """build_bpe_vocab gives each character and merged token one id, 0..n-1, in (length, token) order"""
    vocab = submission.bpe.build_bpe_vocab(text, merges)
    assert set(vocab) == set(text) | {first + second for first, second in merges}, hint(
        "the tokens are the distinct characters of text and a + b for each merge (a, b), nothing else"
    )
    assert sorted(vocab.values()) == list(range(len(vocab))), hint("give the ids 0, 1, ..., n - 1, each once")
    by_id = sorted(vocab, key=vocab.__getitem__)
    assert by_id == sorted(by_id, key=lambda token: (len(token), token)), hint(
        "number shorter tokens first, and tokens of one length in sorted order"
    )
