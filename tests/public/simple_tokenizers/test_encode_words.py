import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(1)
def test_unknown_words_get_the_unknown_id(submission):
    """encode_words maps a word missing from the vocabulary to the id of [UNK]"""
    got = submission.simple_tokenizers.encode_words("the dog", {"cat": 0, "the": 1, "[UNK]": 2})
    assert got == [1, 2], hint('use vocab["[UNK]"] for unknown words')
