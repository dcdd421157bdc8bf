"""Special tokens are one id each, and merges stay inside GPT-2's pieces."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, reference

ref = reference("byte_bpe")
END = {"<|endoftext|>": 50256}


@pytest.mark.rules("special_ids")
@pytest.mark.points(1)
def test_a_special_token_is_one_id(submission):
    """encode_with_specials gives "<|endoftext|>" its one id, not the ids of its bytes"""
    got = submission.byte_bpe.encode_with_specials("a<|endoftext|>b", {}, END)
    assert got == [97, 50256, 98], hint("split the text on the special tokens first and put each token's id in")


@pytest.mark.rules("pieces", "unchanged")
@pytest.mark.points(1)
def test_no_merge_touches_a_special_token(submission):
    """encode_with_specials never merges a special token's characters with the text around it, leaving its arguments as they were"""
    merges = {(62, 98): 256, (97, 60): 257}  # ">b" and "a<": both would glue text to the token's spelling
    record = submission.byte_bpe.encode_with_specials.call("a<|endoftext|>b", merges, END)
    got = record.returned
    assert got == [97, 50256, 98], hint("encode the text between special tokens on its own")
    assert not record.mutated, hint("leave the merges and the special tokens as they were", fix="unchanged")
    # A special token the text lacks: code that drops it from the dict shows only here.
    absent = submission.byte_bpe.encode_with_specials.call("ab", merges, {**END, "<|end|>": 50257})
    assert absent.returned == [97, 98], hint("with no special token in the text, encode the text as it is")
    assert not absent.mutated, hint(
        "leave the special tokens as they were, those the text lacks too: read the dict, never delete from it",
        fix="unchanged",
    )


@pytest.mark.rules("pieces")
@pytest.mark.points(1)
def test_no_merge_crosses_two_pieces(submission):
    """encode_with_specials encodes each of GPT-2's pieces on its own: "o" and the space after it never merge"""
    merges = {(111, 32): 256, (32, 119): 257}  # "o " spans "hello"|" world"; " w" lies inside " world"
    got = submission.byte_bpe.encode_with_specials("hello world", merges, {})
    assert got == [104, 101, 108, 108, 111, 257, 111, 114, 108, 100], hint(
        "split with regex.findall(GPT2_SPLIT_PATTERN, text) and encode every piece separately"
    )


@pytest.mark.rules("longest")
@pytest.mark.points(1)
def test_the_longest_special_token_wins(submission):
    """encode_with_specials prefers the longer special token where two start at the same place"""
    specials = {"<|a|>": 300, "<|a|><|b|>": 301}
    got = submission.byte_bpe.encode_with_specials("x<|a|><|b|>y<|a|>", {}, specials)
    assert got == [120, 301, 121, 300], hint("try the special tokens longest first")


@pytest.mark.rules("special_ids", "pieces")
@pytest.mark.points(1)
@examples(40)
@given(parts=st.lists(st.one_of(st.text(max_size=8), st.just("<|endoftext|>")), max_size=6))
def test_hyp_encoding_matches_the_pieces_one_by_one(submission, parts):
    """encode_with_specials equals: the special ids, and encode() of each piece of the rest, in order"""
    text = "".join(parts)
    merges = ref.train_bpe("hello world<|endoftext|> hello", 280)
    expected = ref.encode_with_specials(text, merges, END)
    got = submission.byte_bpe.encode_with_specials(text, merges, END)
    assert got == expected, hint("special tokens first, then GPT-2's pieces, then encode() on each piece")
