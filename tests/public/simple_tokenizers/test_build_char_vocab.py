import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(1)
def test_ids_follow_sorted_character_order(submission):
    """build_char_vocab numbers the distinct characters 0..n-1 in sorted order"""
    got = submission.simple_tokenizers.build_char_vocab(["ba", "ca"])
    assert got == {"a": 0, "b": 1, "c": 2}, hint("sort the distinct characters, then number them from 0")
