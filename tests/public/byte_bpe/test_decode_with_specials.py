"""A special token's id decodes to the token's text."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint

END = {"<|end|>": 1000}
MERGES = {(256, 122): 257, (120, 121): 256}  # listed out of the order they were learned in
SPELLING = {256: b"xy", 257: b"xyz", 1000: b"<|end|>"}
SOME_BYTES = [32, 65, 120, 195, 167, 226, 130, 172, 255]


@pytest.mark.rules("special_text")
@pytest.mark.points(1)
def test_a_special_id_decodes_to_its_token(submission):
    """decode_with_specials turns a special token's id into its text, and merged ids into their bytes"""
    got = submission.byte_bpe.decode_with_specials([256, 1000, 33], {(111, 107): 256}, END)
    assert isinstance(got, str), hint("return a str")
    assert got == "ok<|end|>!", hint("add each special id to the {id: bytes} table, as its token's UTF-8 bytes")
    assert submission.byte_bpe.decode_with_specials([257, 1000], MERGES, END) == "xyz<|end|>", hint(
        "build each merged id's bytes in order of the new ids, not in the order the dict lists them"
    )
    assert submission.byte_bpe.decode_with_specials([2000], {}, {"«fin»": 2000}) == "«fin»", hint(
        'a special token may hold any character: use token.encode("utf-8")'
    )


@pytest.mark.rules("bytes_joined")
@pytest.mark.points(1)
def test_joins_all_bytes_before_decoding(submission):
    """decode_with_specials joins the bytes of all ids first: a character may be split over two ids"""
    got = submission.byte_bpe.decode_with_specials([195, 167, 1000, 226, 256], {(130, 172): 256}, END)
    assert got == "ç<|end|>€", hint("join the bytes of all ids (special ones too), then decode once")
    assert submission.byte_bpe.decode_with_specials([65, 255, 195, 1000], {}, END) == "A\ufffd\ufffd<|end|>", hint(
        'bytes that are not UTF-8 become U+FFFD: decode("utf-8", errors="replace")'
    )
    assert submission.byte_bpe.decode_with_specials([], MERGES, END) == "", hint("no ids: return an empty str")


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_leaves_its_arguments_as_they_were(submission):
    """decode_with_specials leaves the ids, the merges and the special tokens it is given unchanged"""
    record = submission.byte_bpe.decode_with_specials.call([1000, 257], MERGES, END)
    assert record.returned == "<|end|>xyz", hint("a special id is its token's text, a merged id its bytes")
    assert not record.mutated, hint("build a table of your own instead of editing merges or special_tokens")


@pytest.mark.rules("special_text", "bytes_joined")
@pytest.mark.points(1)
@examples(25)
@given(ids=st.lists(st.sampled_from(SOME_BYTES + sorted(SPELLING)), max_size=10))
def test_hyp_decodes_any_ids_as_their_joined_bytes(submission, ids):
    """decode_with_specials on any ids: the bytes of all ids (a special id its token's), joined, then decoded"""
    joined = b"".join(SPELLING.get(value) or bytes([value]) for value in ids)
    assert submission.byte_bpe.decode_with_specials(ids, MERGES, END) == joined.decode("utf-8", errors="replace"), hint(
        'join every id\'s bytes, then decode the whole once with errors="replace"'
    )
