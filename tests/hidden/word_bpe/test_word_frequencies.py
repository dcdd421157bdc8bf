import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, reference

ref = reference("word_bpe")


@pytest.mark.rules("spelled", "counted")
@pytest.mark.points(2)
def test_counts_each_word_spelled_with_the_marker(submission):
    """word_frequencies counts each word, spelled as its characters plus "</w>\""""
    counted = submission.word_bpe.word_frequencies("to be or not to be")
    expected = {("t", "o", "</w>"): 2, ("b", "e", "</w>"): 2, ("o", "r", "</w>"): 1, ("n", "o", "t", "</w>"): 1}
    if isinstance(counted, dict) and set(counted) == set(expected):
        assert counted == expected, hint(
            "the words are spelled right; the value is how many times each occurs", fix="counted"
        )
    assert counted == expected, hint("key: tuple(word) + ('</w>',), the marker a symbol of its own", fix="spelled")


@pytest.mark.rules("spelled")
@pytest.mark.points(2)
def test_marker_is_one_symbol_after_the_characters(submission):
    """word_frequencies keeps "</w>" a symbol of its own, after single characters"""
    got = submission.word_bpe.word_frequencies("ab")
    assert got == {("a", "b", "</w>"): 1}, hint(
        "add the marker as its own element, do not glue it to the last character"
    )


@pytest.mark.rules("counted")
@pytest.mark.points(1)
def test_punctuation_counts_as_words(submission):
    """word_frequencies counts punctuation pre-tokens too, and of "" is {}"""
    got = submission.word_bpe.word_frequencies("hi, hi!")
    assert got == {("h", "i", "</w>"): 2, (",", "</w>"): 1, ("!", "</w>"): 1}, hint(
        "count every pre-token of pre_tokenize"
    )
    assert submission.word_bpe.word_frequencies("") == {}, hint("no words, no entries")


@pytest.mark.rules("spelled", "counted")
@pytest.mark.points(1)
@examples(40)
@given(text=st.text(alphabet="ab .,\n", max_size=30))
def test_hyp_matches_the_contract(submission, text):
    """word_frequencies is right for any text"""
    assert submission.word_bpe.word_frequencies(text) == ref.word_frequencies(text), hint(
        "count tuple(word) + ('</w>',) for each word of pre_tokenize(text)"
    )
