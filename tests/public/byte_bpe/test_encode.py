import pytest

from autograder.testing.rubric import hint


@pytest.mark.points(1)
def test_starts_from_utf8_bytes(submission):
    """encode starts from the UTF-8 bytes and applies the merges"""
    assert submission.byte_bpe.encode("é!", {(195, 169): 256}) == [256, 33], hint(
        'start from list(text.encode("utf-8"))'
    )
