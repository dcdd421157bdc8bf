import unicodedata

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, raised

# A small training's merges, listed on purpose out of the order they were learned in (their new ids).
MERGES = {(32, 257): 260, (116, 104): 256, (259, 97): 261, (97, 116): 258, (256, 101): 257, (195, 167): 259}
# The bytes each new id stands for, written out by hand.
SPELLING = {256: b"th", 257: b"the", 258: b"at", 259: "ç".encode(), 260: b" the", 261: "ça".encode()}
# One character of each UTF-8 length (1 to 4 bytes), a NUL, a joiner and the last code point there is.
EVERY_KIND = "a \n\x00é€中🙂\u200d\U0010ffff"
# Bytes that make whole characters, and bytes that only start or continue one (or are never UTF-8: 255).
SOME_BYTES = [32, 65, 116, 195, 167, 226, 130, 172, 240, 159, 153, 255]


@pytest.mark.rules("bytes_joined")
@pytest.mark.points(2)
def test_turns_merged_ids_back_into_text(submission):
    """decode([257, 32, 99, 258]) with three merges gives back the text "the cat", as a str"""
    merges = {(116, 104): 256, (256, 101): 257, (97, 116): 258}
    got = submission.byte_bpe.decode([257, 32, 99, 258], merges)
    assert isinstance(got, str), hint('return a str: bytes.decode("utf-8", errors="replace") gives one')
    assert got == "the cat", hint("a merged id stands for the bytes of its two ids; ids below 256 are bytes")


@pytest.mark.rules("bytes_joined")
@pytest.mark.points(2)
def test_builds_merged_ids_in_order_of_their_new_id(submission):
    """decode knows an id built from other merged ids, whatever order the dict lists the merges in"""
    assert submission.byte_bpe.decode([260, 33], MERGES) == " the!", hint(
        "build each new id's bytes in order of the new ids: 260 needs 257, which needs 256"
    )


@pytest.mark.rules("bytes_joined")
@pytest.mark.points(2)
def test_joins_all_bytes_before_decoding(submission):
    """decode joins the bytes of all ids first: a character may be split over two ids"""
    assert submission.byte_bpe.decode([195, 167], {}) == "ç", hint(
        "join the bytes of all ids, then decode once: ç is two bytes, two ids"
    )
    assert submission.byte_bpe.decode([226, 256], {(130, 172): 256}) == "€", hint(
        "join the bytes of every id first, then decode the whole: each id alone is half of €"
    )


@pytest.mark.rules("replaced")
@pytest.mark.points(2)
def test_bytes_that_are_not_utf8_become_the_replacement_character(submission):
    """decode gives U+FFFD for bytes that are not valid UTF-8 (a lone lead byte, 255) instead of raising"""
    crash = raised(submission.byte_bpe.decode, [195], {})
    assert crash is None or crash[0] != "UnicodeDecodeError", hint(
        "decode([195]) raised UnicodeDecodeError, as bytes.decode does by default on half a character: decode with"
        ' errors="replace", which makes it U+FFFD',
        fix="replaced",
    )
    assert submission.byte_bpe.decode([195], {}) == "\ufffd", hint('half a character: decode with errors="replace"')
    assert submission.byte_bpe.decode([79, 75, 255], {}) == "OK\ufffd", hint(
        '255 is never UTF-8: bytes.decode("utf-8", errors="replace") makes it U+FFFD'
    )


@pytest.mark.rules("bytes_joined")
@pytest.mark.points(1)
def test_no_ids_give_the_empty_string(submission):
    """decode([]) is the empty string"""
    assert submission.byte_bpe.decode([], MERGES) == "", hint("no ids, no bytes: return an empty str")


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_leaves_its_arguments_as_they_were(submission):
    """decode leaves the ids and the merges it is given unchanged"""
    record = submission.byte_bpe.decode.call([261, 32, 258], MERGES)
    assert record.returned == "ça at", hint("join each id's bytes, then decode")
    assert not record.mutated, hint("build a table of your own from merges instead of editing ids or merges in place")


@pytest.mark.rules("bytes_joined", "replaced")
@pytest.mark.points(2)
@examples(25)
@given(ids=st.lists(st.sampled_from(SOME_BYTES + sorted(SPELLING)), max_size=12))
def test_hyp_decodes_any_ids_as_their_joined_bytes(submission, ids):
    """decode on any ids: the bytes of all ids, joined, then decoded as UTF-8 with errors="replace" """
    joined = b"".join(SPELLING.get(value) or bytes([value]) for value in ids)
    assert submission.byte_bpe.decode(ids, MERGES) == joined.decode("utf-8", errors="replace"), hint(
        'join the bytes of every id, then decode the whole once with errors="replace"'
    )


@pytest.mark.rules("round_trip")
@pytest.mark.points(1)
@examples(20)
@given(text=st.text(alphabet=EVERY_KIND + "th", max_size=12))
@example(text="cafe\u0301")  # a letter and a combining accent: NFC would join them
def test_hyp_round_trip_gives_back_any_string(submission, text):
    """decode(encode(s)) == s for any string (with your own encode)"""
    ids = submission.byte_bpe.encode(text, MERGES)
    got = submission.byte_bpe.decode(ids, MERGES)
    if isinstance(got, str) and got != text and got == unicodedata.normalize("NFC", text):
        assert got == text, hint(
            "the text came back normalised (an accent joined to its letter): give back the decoded bytes as they"
            " are, with no unicodedata.normalize"
        )
    assert got == text, hint(
        "join the bytes of all ids, then decode them once (this test encodes with your own encode)"
    )
