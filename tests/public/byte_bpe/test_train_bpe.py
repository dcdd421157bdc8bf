import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(1)
def test_a_well_known_worked_example(submission):
    """train_bpe("aaabdaaabac", 259) learns (97, 97), then (256, 97), then (257, 98)"""
    got = submission.byte_bpe.train_bpe("aaabdaaabac", 259)
    assert got == {(97, 97): 256, (256, 97): 257, (257, 98): 258}, hint(
        "new ids start at 256; recount after each merge"
    )
