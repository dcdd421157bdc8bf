import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(1)
def test_decodes_merged_ids(submission):
    """decode turns ids back into text"""
    assert submission.byte_bpe.decode([256, 33], {(195, 169): 256}) == "é!", hint(
        "join the bytes, then decode as UTF-8"
    )
