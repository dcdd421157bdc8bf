import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, reference

ref = reference("byte_bpe")
MERGES = ref.train_bpe("the theme then; ça et là, ça! 🙂🙂 the end\n", 280)


@pytest.mark.rules("bytes_joined", "unchanged")
@pytest.mark.points(3)
def test_decodes_merged_ids_to_their_bytes(submission):
    """decode turns merged ids back into their bytes and the bytes into text, leaving its arguments as they were"""
    merges = {(97, 97): 256, (256, 97): 257, (257, 98): 258}
    record = submission.byte_bpe.decode.call([258, 100, 258, 97, 99], merges)
    got = record.returned
    assert got == "aaabdaaabac", hint("a merged id stands for the bytes of its two ids, built up in id order")
    unordered = {(97, 256): 257, (98, 99): 256}  # a dict need not list its merges in id order
    assert submission.byte_bpe.decode([257], unordered) == "abc", hint(
        "build each id's bytes in order of the ids, not in the order the dict lists them"
    )
    kept = "leave the ids and the merges as they were: build the bytes of each id in a dict of your own"
    assert not record.mutated, hint(kept)


@pytest.mark.rules("replaced")
@pytest.mark.points(2)
def test_invalid_utf8_becomes_the_replacement_character(submission):
    """decode gives U+FFFD for bytes that are not valid UTF-8, instead of raising"""
    got = submission.byte_bpe.decode([226, 130], {})
    if got == "\ufffd\ufffd":
        assert got == "\ufffd", hint(
            "each id was decoded on its own: join all the ids' bytes first, then decode them once", fix="bytes_joined"
        )
    assert got == "\ufffd", hint('decode with errors="replace"')
    assert submission.byte_bpe.decode([104, 255, 105], {}) == "h\ufffdi", hint('decode with errors="replace"')


@pytest.mark.rules("bytes_joined")
@pytest.mark.points(1)
def test_no_ids_give_empty_text(submission):
    """decode of [] is the empty string (and of byte ids, their text)"""
    assert submission.byte_bpe.decode([104, 105], MERGES) == "hi", hint("ids below 256 are bytes: decode them as UTF-8")
    assert submission.byte_bpe.decode([], MERGES) == "", hint("no ids, no bytes, no text")


@pytest.mark.rules("round_trip")
@pytest.mark.points(1)
@pytest.mark.parametrize("text", ["naïve café, e\u0301", "日本語 שלום مرحبا", "a\x00b\n\n \r\n", "🙂👍🏽🇫🇷"])
def test_round_trips_every_kind_of_text(submission, text):
    """decode(encode(text)) gives back the text: accents, CJK, right-to-left, emoji, NUL, newlines"""
    decoded = submission.byte_bpe.decode(ref.encode(text, MERGES), MERGES)
    if isinstance(decoded, str) and decoded != text and decoded == unicodedata.normalize("NFC", text):
        assert decoded == text, hint(
            "the text came back normalised (an accent joined to its letter): give back the decoded bytes as they are"
        )
    assert decoded == text, hint(
        "join the bytes of all ids first, then decode once: a character's bytes may span several ids"
    )


@pytest.mark.rules("round_trip")
@pytest.mark.points(2)
@examples(50)
@given(text=st.text(max_size=20))
def test_hyp_inverts_encode_on_any_string(submission, text):
    """decode(encode(s)) == s for any string"""
    assert submission.byte_bpe.decode(ref.encode(text, MERGES), MERGES) == text, hint(
        'join the bytes of every id, then bytes.decode("utf-8", errors="replace")'
    )
