"""Token ids on disk as training pipelines store them: unsigned, little-endian, 2 or 4 bytes, no header."""

import struct

import pytest
from hypothesis import given

from autograder.testing.author_api import CallFolder, StudentRaised, domains, examples, hint, raised

FOLDER = "ids"
# The folder holds notes already: a call's folder with no files is no folder at all, and write_ids makes none.
NOTES = {"notes.txt": b"token arrays"}


def written(submission, ids, vocab_size, older=None):
    """The bytes the student's write_ids wrote to ids/train.bin (None where it wrote no such file)."""
    files = dict(NOTES, **({"train.bin": older} if older is not None else {}))
    record = submission.real_tokenizer.write_ids.in_folder(CallFolder(FOLDER, files, collect=True))(
        f"{FOLDER}/train.bin", ids, vocab_size
    )
    assert not record.mutated, hint("read ids; never change the list", fix="layout")
    return (record.files or {}).get("train.bin")


def packed(ids, vocab_size):
    return struct.pack(f"<{len(ids)}{'H' if vocab_size <= 65536 else 'I'}", *ids)


@pytest.mark.rules("layout", "width")
@pytest.mark.points(1)
def test_writes_uint16_little_endian_with_no_header(submission):
    """write_ids writes GPT-2's ids 2 bytes each, low byte first, and nothing else, replacing an older file"""
    ids = [0, 1, 255, 256, 50256, 13, 198]
    got = written(submission, ids, 50257, older=b"an older, longer array of ids" * 4)
    assert got is not None, hint('open(path, "wb") and write the bytes to the path given', fix="layout")
    assert got == packed(ids, 50257) or not got.endswith(packed(ids, 50257)), hint(
        'nothing goes before the ids: no header, and open with "wb", which replaces an older file\'s bytes',
        fix="layout",
    )
    assert len(got) == 2 * len(ids), hint(
        f"{len(got)} bytes for {len(ids)} ids: 2 bytes an id when vocab_size <= 65536", fix="width"
    )
    if got == struct.pack(f">{len(ids)}H", *ids):
        raise AssertionError(hint('the bytes are big-endian: pack with "<", low byte first', fix="layout"))
    assert got == packed(ids, 50257), hint(
        'struct.pack("<" + "H" * len(ids), *ids): unsigned, little-endian, one after another', fix="layout"
    )


@pytest.mark.rules("width")
@pytest.mark.points(1)
def test_takes_four_bytes_an_id_past_65536_tokens(submission):
    """write_ids takes 2 bytes an id for 65,536 tokens and 4 for 65,537 and for cl100k_base's 100,277, whatever the ids"""
    cases = ((65536, [65535, 0, 7]), (65537, [65536, 1]), (100277, [100276, 70000, 3]), (100277, [13, 50256, 3]))
    for vocab_size, ids in cases:
        got = written(submission, ids, vocab_size)
        width = 2 if vocab_size <= 65536 else 4
        assert got is not None and len(got) == width * len(ids), hint(
            f"vocab_size {vocab_size}: {width} bytes an id (uint16 holds ids up to 65535, so 65,536 ids fit in "
            "2 bytes, and more need 4)",
        )
        assert got == packed(ids, vocab_size), hint(
            f'vocab_size {vocab_size}: each id little-endian, low byte first (struct.pack with "<")', fix="layout"
        )


@pytest.mark.rules("in_range")
@pytest.mark.points(1)
def test_raises_for_an_id_outside_the_vocabulary(submission):
    """write_ids raises ValueError for an id equal to vocab_size, for a negative one, and for one uint16 cannot hold"""
    for ids, vocab_size in (([1, 50257], 50257), ([3, -1], 50257), ([65536], 65536), ([2], 2)):
        raised_for_it = raised(submission.real_tokenizer.write_ids, f"{FOLDER}-{len(ids)}.bin", ids, vocab_size)
        assert raised_for_it is not None and raised_for_it[0] == "ValueError", hint(
            f"write_ids({ids}, vocab_size={vocab_size}) must raise ValueError: check 0 <= id < vocab_size for "
            "each id before writing (struct raises struct.error, not ValueError)"
        )


@pytest.mark.rules("layout", "width")
@pytest.mark.points(1)
@examples(30)
@given(inputs=domains.strategy("ids_and_vocab_size"))
def test_hyp_writes_the_bytes_the_reference_writes(submission, inputs):
    """write_ids writes the reference's bytes for any ids of any vocabulary size"""
    ids, vocab_size = inputs["ids"], inputs["vocab_size"]
    try:
        got = written(submission, ids, vocab_size)
    except StudentRaised as objection:
        why = f"{ids} are all in range({vocab_size}), yet write_ids raised {objection.error_type}"
        raise AssertionError(hint(why, fix="in_range")) from None
    width = 2 if vocab_size <= 65536 else 4
    assert got is not None and len(got) == width * len(ids), hint(
        f"vocab_size {vocab_size}: {width} bytes an id, and no header", fix="width"
    )
    assert got == packed(ids, vocab_size), hint(
        f'vocab_size {vocab_size}: each id unsigned and little-endian (struct.pack with "<")', fix="layout"
    )
