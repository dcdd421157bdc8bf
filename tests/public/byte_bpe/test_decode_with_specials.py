import pytest

from autograder.testing.rubric import hint

pytestmark = pytest.mark.bonus


@pytest.mark.points(1)
def test_a_special_id_decodes_to_its_token(submission):
    """decode_with_specials turns a special token's id back into its text"""
    got = submission.byte_bpe.decode_with_specials([104, 50256, 256], {(104, 105): 256}, {"<|endoftext|>": 50256})
    assert got == "h<|endoftext|>hi", hint("add the special ids to the {id: bytes} table, as their UTF-8 bytes")
