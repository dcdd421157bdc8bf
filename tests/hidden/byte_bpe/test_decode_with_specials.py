"""A special token's id decodes to the token's text."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, reference

ref = reference("byte_bpe")
END = {"<|endoftext|>": 50256}


@pytest.mark.rules("special_text", "unchanged")
@pytest.mark.points(1)
def test_a_special_id_decodes_to_its_token(submission):
    """decode_with_specials turns a special token's id back into its text, and merged ids into theirs, leaving its arguments as they were"""
    record = submission.byte_bpe.decode_with_specials.call([104, 50256, 256], {(104, 105): 256}, END)
    got = record.returned
    assert got == "h<|endoftext|>hi", hint(
        "add the special ids to the {id: bytes} table, as their UTF-8 bytes", fix="special_text"
    )
    unordered = {(104, 256): 257, (105, 106): 256}  # merges need not come in id order
    assert submission.byte_bpe.decode_with_specials([257, 50256], unordered, END) == "hij<|endoftext|>", hint(
        "build each merged id's bytes in order of the ids, not in the order the dict lists them"
    )
    assert submission.byte_bpe.decode_with_specials([104, 255, 105], {}, END) == "h\ufffdi", hint(
        'bytes that are not UTF-8 become U+FFFD, as decode("utf-8", errors="replace") does'
    )
    assert not record.mutated, hint("leave the ids, the merges and the special tokens as they were")


@pytest.mark.rules("special_text", "bytes_joined")
@pytest.mark.points(1)
@examples(40)
@given(parts=st.lists(st.one_of(st.text(max_size=8), st.just("<|endoftext|>")), max_size=6))
def test_hyp_round_trip_with_special_tokens(submission, parts):
    """decode_with_specials(encode_with_specials(s)) gives back s, special tokens and all"""
    text = "".join(parts)
    merges = ref.train_bpe("hello world<|endoftext|> hello", 280)
    ids = ref.encode_with_specials(text, merges, END)
    assert submission.byte_bpe.decode_with_specials(ids, merges, END) == text, hint(
        'join all the bytes first, then decode once with errors="replace"'
    )
