import pytest

from autograder.testing.rubric import hint

pytestmark = pytest.mark.bonus


@pytest.mark.points(1)
def test_a_worked_example(submission):
    """train_bpe learns the merges of a small table, largest (count, pair) first"""
    got = submission.fast_bpe.train_bpe({"low": 5, "lower": 2, "newest": 6, "widest": 3}, 4)
    assert got == [("t", "</w>"), ("s", "t</w>"), ("e", "st</w>"), ("o", "w")], hint(
        "spell each word as its characters plus '</w>' and weight each pair by the word's count"
    )
