"""Reading token ids back from disk: 2 or 4 bytes each as the vocabulary's size says, whole ids only."""

import struct

import pytest
from hypothesis import given

from autograder.testing.author_api import CallFolder, StudentRaised, domains, examples, hint

FOLDER = "ids"


def read(submission, data, vocab_size):
    """What the student's read_ids gives for a file holding ``data``: the record, to read its answer or error."""
    folder = CallFolder(FOLDER, {"train.bin": data})
    return submission.real_tokenizer.read_ids.in_folder(folder)(f"{FOLDER}/train.bin", vocab_size)


def packed(ids, vocab_size):
    return struct.pack(f"<{len(ids)}{'H' if vocab_size <= 65536 else 'I'}", *ids)


@pytest.mark.rules("reads_back")
@pytest.mark.points(1)
def test_reads_back_ids_of_both_widths(submission):
    """read_ids reads 2-byte ids for 65,536 tokens, 4-byte ids for 65,537, low byte first, and [] from no bytes"""
    for vocab_size, ids in ((50257, [0, 258, 50256, 13]), (65536, [65535, 1]), (65537, [65536, 2, 0]), (50257, [])):
        try:
            got = read(submission, packed(ids, vocab_size), vocab_size).returned
        except StudentRaised as complaint:
            width = 2 if vocab_size <= 65536 else 4
            why = f"{len(ids)} ids of {width} bytes each raised {complaint.error_type}: the file is the ids alone"
            raise AssertionError(hint(f"{why}, no header: read len(data) // width of them")) from None
        assert got == ids, hint(
            f"vocab_size {vocab_size}: {2 if vocab_size <= 65536 else 4} bytes an id, unsigned and little-endian "
            '(struct.unpack with "<")'
        )


@pytest.mark.rules("whole_ids")
@pytest.mark.points(1)
def test_raises_for_a_file_of_part_of_an_id(submission):
    """read_ids raises ValueError for a file whose length is not a whole number of ids"""
    for data, vocab_size in ((b"\x01\x00\x02", 50257), (b"\x01\x00\x00\x00\x02\x00", 100277), (b"\x05", 256)):
        try:
            answer = read(submission, data, vocab_size).returned
        except StudentRaised as refusal:
            assert refusal.error_type == "ValueError", hint(
                f"{len(data)} bytes are not whole ids: raise ValueError yourself (struct raises struct.error)"
            )
            continue
        problem = f"{len(data)} bytes for vocab_size {vocab_size} are not whole ids: raise ValueError, not {answer!r}"
        raise AssertionError(hint(problem))


@pytest.mark.rules("reads_back")
@pytest.mark.points(1)
@examples(20)
@given(inputs=domains.strategy("ids_and_vocab_size"))
def test_hyp_reads_back_what_write_ids_writes(submission, inputs):
    """read_ids gives back any ids of any vocabulary size"""
    ids, vocab_size = inputs["ids"], inputs["vocab_size"]
    assert read(submission, packed(ids, vocab_size), vocab_size).returned == ids, hint(
        f"vocab_size {vocab_size}: {2 if vocab_size <= 65536 else 4} bytes an id, little-endian"
    )
