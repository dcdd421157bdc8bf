"""Reading token ids back from disk: 2 or 4 bytes each as the vocabulary's size says, whole ids only."""

import pytest

from autograder.testing.author_api import CallFolder, StudentRaised, hint


def read(submission, data, vocab_size):
    folder = CallFolder("data", {"train.bin": data})
    return submission.real_tokenizer.read_ids.in_folder(folder)("data/train.bin", vocab_size).returned


def read_whole(submission, data, vocab_size):
    """What read_ids gives for a file of whole ids, where raising is the mistake."""
    try:
        return read(submission, data, vocab_size)
    except StudentRaised as said:
        raise AssertionError(
            hint(f"{len(data)} bytes of whole ids raised {said.error_type}: the file holds the ids alone, no header")
        ) from None


@pytest.mark.rules("reads_back")
@pytest.mark.points(1)
def test_reads_back_gpt2_and_gpt4_ids(submission):
    """read_ids reads 01 00 02 01 as [1, 258] for GPT-2, and 4-byte ids for cl100k_base"""
    assert read_whole(submission, b"\x01\x00\x02\x01", 50257) == [1, 258], hint(
        '2 bytes an id, low byte first: struct.unpack("<" + "H" * count, data)'
    )
    assert read_whole(submission, b"\xb4\x87\x01\x00\x05\x00\x00\x00", 100277) == [100276, 5], hint(
        "more than 65,536 ids: 4 bytes an id"
    )


@pytest.mark.rules("whole_ids")
@pytest.mark.points(1)
def test_raises_for_half_an_id(submission):
    """read_ids raises ValueError for 3 bytes of 2-byte ids, and for 6 bytes of 4-byte ids"""
    for data, vocab_size, width in ((b"\x01\x00\x02", 50257, 2), (b"\x01\x00\x00\x00\x02\x00", 100277, 4)):
        try:
            got = read(submission, data, vocab_size)
        except StudentRaised as error:
            assert error.error_type == "ValueError", hint(
                f"raise ValueError when the length is not a multiple of {width}"
            )
            continue
        raise AssertionError(
            hint(f"{len(data)} bytes are not whole {width}-byte ids: raise ValueError, not return {got!r}")
        )
