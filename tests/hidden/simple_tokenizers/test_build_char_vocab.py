import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, reference

ref = reference("simple_tokenizers")


@pytest.mark.rules("sorted_ids")
@pytest.mark.points(3)
def test_ids_follow_sorted_character_order(submission):
    """build_char_vocab numbers the distinct characters 0..n-1 in sorted order"""
    got = submission.simple_tokenizers.build_char_vocab(["ba", "ca"])
    assert got == {"a": 0, "b": 1, "c": 2}, hint("sort the distinct characters, then number them from 0")


@pytest.mark.rules("whitespace_first")
@pytest.mark.points(1)
def test_spaces_and_newlines_are_in_the_vocabulary(submission):
    """build_char_vocab includes spaces and newlines, which sort before letters"""
    got = submission.simple_tokenizers.build_char_vocab(["a b\nc"])
    assert got == {"\n": 0, " ": 1, "a": 2, "b": 3, "c": 4}, hint(
        "keep whitespace characters; sorted() puts them first"
    )


@pytest.mark.rules("empty")
@pytest.mark.points(1)
def test_no_text_gives_empty_vocabulary(submission):
    """build_char_vocab of no texts, or of empty texts, is {} (and of "ba", {a: 0, b: 1})"""
    assert submission.simple_tokenizers.build_char_vocab(["ba"]) == {"a": 0, "b": 1}, hint(
        "every distinct character, numbered in sorted order"
    )
    assert submission.simple_tokenizers.build_char_vocab([]) == {}, hint("no characters means an empty dict")
    assert submission.simple_tokenizers.build_char_vocab(["", ""]) == {}, hint("no characters means an empty dict")


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_does_not_change_the_texts(submission):
    """build_char_vocab answers right and leaves the list of texts it is given unchanged"""
    record = submission.simple_tokenizers.build_char_vocab.call(["b", "a"])
    assert record.returned == {"a": 0, "b": 1}, hint("number the sorted characters from 0")
    assert not record.mutated, hint("read the texts; do not sort or empty the list you were given")


@pytest.mark.rules("sorted_ids", "whitespace_first", "empty")
@pytest.mark.points(1)
@examples(40)
@given(texts=st.lists(st.text(max_size=12), max_size=4))
def test_hyp_matches_the_contract_on_any_texts(submission, texts):
    """build_char_vocab gives every distinct character its sorted position as id"""
    got = submission.simple_tokenizers.build_char_vocab(texts)
    assert got == ref.build_char_vocab(texts), hint("ids are positions in sorted(set of all characters))")
