import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(1)
def test_sorted_words_then_unknown(submission):
    """build_word_vocab numbers sorted words from 0, then gives [UNK] the next id"""
    got = submission.simple_tokenizers.build_word_vocab(["the cat", "the hat"])
    assert got == {"cat": 0, "hat": 1, "the": 2, "[UNK]": 3}, hint('add "[UNK]" after the sorted words')
