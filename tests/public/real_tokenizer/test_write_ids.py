"""Token ids on disk as training pipelines store them: unsigned, little-endian, 2 or 4 bytes, no header."""

import pytest

from autograder.testing.author_api import CallFolder, StudentRaised, hint, raised


def written(submission, ids, vocab_size, older=None):
    """The bytes write_ids wrote to out/train.bin, in a folder that holds a readme already (and an older
    train.bin, where ``older`` is given)."""
    files = {"README.md": b"ids", **({"train.bin": older} if older is not None else {})}
    folder = CallFolder("out", files, collect=True)
    files = submission.real_tokenizer.write_ids.in_folder(folder)("out/train.bin", ids, vocab_size).files or {}
    assert "train.bin" in files, hint('write the file at the path given: open(path, "wb")', fix="layout")
    return files["train.bin"]


@pytest.mark.rules("layout")
@pytest.mark.points(1)
def test_writes_each_id_low_byte_first_with_no_header(submission):
    """write_ids writes [1, 258] for GPT-2 as the 4 bytes 01 00 02 01"""
    got = written(submission, [1, 258], 50257)
    assert got == b"\x01\x00\x02\x01", hint(
        f'got {got!r}: each id little-endian (struct.pack with "<"), 2 bytes, nothing before or after'
    )
    again = written(submission, [7], 50257, older=b"\x01\x00\x02\x01")
    assert again == b"\x07\x00", hint(f'got {again!r}: open the file with "wb", which replaces what it held')
    try:
        empty = written(submission, [], 50257)
    except StudentRaised as said:
        raise AssertionError(
            hint(f"no ids raised {said.error_type}: check each id in a loop (min() of no ids raises)", fix="in_range")
        ) from None
    assert empty == b"", hint("no ids: an empty file")


@pytest.mark.rules("width")
@pytest.mark.points(1)
def test_takes_four_bytes_an_id_for_gpt4s_vocabulary(submission):
    """write_ids takes 4 bytes an id for cl100k_base's 100,277 tokens, 2 for 65,536"""
    assert written(submission, [100276, 5], 100277) == b"\xb4\x87\x01\x00\x05\x00\x00\x00", hint(
        "more than 65,536 ids do not fit in 2 bytes: 4 bytes an id (uint32)"
    )
    assert written(submission, [65535], 65536) == b"\xff\xff", hint("65,536 ids fit in 2 bytes: 0 to 65535")
    assert written(submission, [5], 100277) == b"\x05\x00\x00\x00", hint(
        "the width comes from vocab_size, not from the ids written: 4 bytes an id for 100,277 tokens"
    )


@pytest.mark.rules("in_range")
@pytest.mark.points(1)
def test_raises_for_an_id_not_in_the_vocabulary(submission):
    """write_ids raises ValueError for an id of vocab_size or more, or below 0"""
    for ids in ([0, 50257], [-1]):
        what_raised = raised(submission.real_tokenizer.write_ids, "train.bin", ids, 50257)
        assert what_raised is not None and what_raised[0] == "ValueError", hint(
            f"{ids} with vocab_size 50257: raise ValueError for an id not in range(vocab_size)"
        )
