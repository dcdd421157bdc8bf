import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint


@pytest.mark.rules("sorted_ids")
@pytest.mark.points(2)
def test_every_character_of_every_text_gets_its_sorted_position(submission):
    """build_char_vocab numbers the distinct characters of all the texts 0..n-1 in sorted order"""
    got = submission.simple_tokenizers.build_char_vocab(["dot", "cod"])
    assert set(got) == {"c", "d", "o", "t"}, hint("take the characters of every text, not only of the first one")
    assert sorted(got.values()) == [0, 1, 2, 3], hint(
        "ids run from 0 to n-1, one per distinct character: start at 0 and count a repeated character once"
    )
    assert got == {"c": 0, "d": 1, "o": 2, "t": 3}, hint(
        "number the characters in sorted order, not in the order they first appear"
    )


@pytest.mark.rules("whitespace_first")
@pytest.mark.points(1)
def test_whitespace_digits_and_capitals_sort_by_code_point(submission):
    """build_char_vocab keeps tabs and spaces and sorts by code point: whitespace, digits, capitals, lowercase"""
    got = submission.simple_tokenizers.build_char_vocab(["Up\tto 9"])
    assert got == {"\t": 0, " ": 1, "9": 2, "U": 3, "o": 4, "p": 5, "t": 6}, hint(
        "keep every character, whitespace too, and sort them as sorted() sorts strings (by code point)"
    )


@pytest.mark.rules("empty")
@pytest.mark.points(1)
def test_no_characters_give_an_empty_vocabulary(submission):
    """build_char_vocab of one character is {it: 0}; of no texts, or of empty texts, it is {}"""
    assert submission.simple_tokenizers.build_char_vocab(["zz"]) == {"z": 0}, hint(
        "one distinct character gets the id 0"
    )
    assert submission.simple_tokenizers.build_char_vocab([]) == {}, hint("no texts, no characters: return {}")
    assert submission.simple_tokenizers.build_char_vocab([""]) == {}, hint("an empty text has no characters: return {}")


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_leaves_the_list_of_texts_as_it_was(submission):
    """build_char_vocab answers right and does not change the list of texts it is given"""
    record = submission.simple_tokenizers.build_char_vocab.call(["yx", "w"])
    assert record.returned == {"w": 0, "x": 1, "y": 2}, hint("number the sorted distinct characters from 0")
    assert not record.mutated, hint("build a new set or list of characters instead of editing texts in place")


@pytest.mark.rules("sorted_ids", "whitespace_first")
@pytest.mark.points(1)
@examples(20)
@given(texts=st.lists(st.text(alphabet="eE7 \nè", max_size=7), max_size=4))
def test_hyp_ids_are_sorted_positions_of_the_distinct_characters(submission, texts):
    """build_char_vocab of any texts has their distinct characters as keys and ids 0..n-1 in sorted order"""
    vocab = submission.simple_tokenizers.build_char_vocab(texts)
    assert set(vocab) == {character for text in texts for character in text}, hint(
        "every character of every text is a key, whitespace too, and nothing else"
    )
    assert sorted(vocab.values()) == list(range(len(vocab))), hint(
        "ids run from 0 to n-1 with no gap: count each distinct character once"
    )
    assert sorted(vocab, key=vocab.__getitem__) == sorted(vocab), hint("a character that sorts first has a smaller id")
