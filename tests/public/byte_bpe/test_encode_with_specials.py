import pytest

from autograder.testing.rubric import hint

pytestmark = pytest.mark.bonus


@pytest.mark.points(1)
def test_a_special_token_is_one_id(submission):
    """encode_with_specials gives "<|endoftext|>" its one id, not the ids of its bytes"""
    got = submission.byte_bpe.encode_with_specials("a<|endoftext|>b", {}, {"<|endoftext|>": 50256})
    assert got == [97, 50256, 98], hint("split the text on the special tokens first and put each token's id in")
