"""Special tokens are one id each, and merges stay inside GPT-2's pieces."""

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint

# As the stub has it.
GPT2_SPLIT_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
END = {"<|end|>": 1000}
MERGES = {(104, 105): 256, (32, 116): 257, (195, 167): 258, (256, 33): 259}


@pytest.mark.rules("special_ids")
@pytest.mark.points(1)
def test_a_special_token_is_one_id(submission):
    """encode_with_specials gives "<|end|>" its own id, wherever it stands, not the ids of its bytes"""
    got = submission.byte_bpe.encode_with_specials("ok<|end|>ok", {(111, 107): 256}, END)
    assert isinstance(got, list), hint("return a list of ids")
    assert got == [256, 1000, 256], hint("split the text on the special tokens first and put each token's id in")
    assert submission.byte_bpe.encode_with_specials("<|end|><|end|>", {}, END) == [1000, 1000], hint(
        "two special tokens side by side are two ids; the empty text around them gives no id"
    )


@pytest.mark.rules("longest")
@pytest.mark.points(1)
def test_a_longer_special_token_beats_its_prefix(submission):
    """encode_with_specials takes the longer special token where two start at the same place"""
    specials = {"[A]": 400, "[A][B]": 401}
    got = submission.byte_bpe.encode_with_specials("[A][B]z[A]", {}, specials)
    assert got == [401, 122, 400], hint(
        "try the special tokens longest first (sort them by length, longest first, before joining them with |)"
    )


@pytest.mark.rules("pieces")
@pytest.mark.points(1)
def test_merges_never_reach_into_a_special_token(submission):
    """encode_with_specials never merges the text around a special token with the token's own characters"""
    merges = {(107, 60): 256, (62, 111): 257}  # "k<" and ">o": each would glue text to the token's spelling
    got = submission.byte_bpe.encode_with_specials("ok<|end|>ok", merges, END)
    assert got == [111, 107, 1000, 111, 107], hint("encode only the text between the special tokens")


@pytest.mark.rules("pieces")
@pytest.mark.points(1)
def test_the_text_between_special_tokens_is_split_into_pieces(submission):
    """encode_with_specials splits the text between special tokens into GPT-2's pieces: "i" and " " never merge"""
    merges = {(105, 32): 256, (32, 116): 257}  # "i " spans "hi"|" there"; " t" lies inside " there"
    got = submission.byte_bpe.encode_with_specials("hi there<|end|>hi there", merges, END)
    one = [104, 105, 257, 104, 101, 114, 101]
    assert got == [*one, 1000, *one], hint(
        "split each stretch of text with regex.findall(GPT2_SPLIT_PATTERN, text) and encode every piece on its own"
    )


@pytest.mark.rules("pieces")
@pytest.mark.points(1)
def test_no_special_tokens_means_gpt2_pieces_only(submission):
    """encode_with_specials with no special tokens ({}) encodes GPT-2's pieces of the whole text"""
    merges = {(108, 108): 256, (32, 104): 257}
    got = submission.byte_bpe.encode_with_specials("hello hello", merges, {})
    assert got == [104, 101, 256, 111, 257, 101, 256, 111], hint(
        "with no special tokens, do not split on them at all: an empty pattern splits between every character"
    )
    assert submission.byte_bpe.encode_with_specials("", merges, {}) == [], hint("empty text: return []")


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_leaves_its_arguments_as_they_were(submission):
    """encode_with_specials leaves the merges and the special tokens it is given unchanged"""
    specials = {"<|end|>": 1000, "<|end|>!": 1001}
    record = submission.byte_bpe.encode_with_specials.call("hi<|end|>!", MERGES, specials)
    assert record.returned == [256, 1001], hint("the longer special token wins; merges apply to each piece")
    assert not record.mutated, hint("sort a copy of the special tokens (sorted(...)) instead of editing the dict")
    # Special tokens the text lacks stay in the dict too.
    absent = submission.byte_bpe.encode_with_specials.call("hi", MERGES, specials)
    assert not absent.mutated, hint("read the special tokens; never delete one from the dict, even one the text lacks")


def expected_ids(submission, parts: list[str]) -> list[int]:
    """The ids of "".join(parts): each special token its id, the text between encoded piece by piece."""
    expected: list[int] = []
    text_so_far = ""
    for part in [*parts, None]:
        if part is None or part in END:
            for piece in regex.findall(GPT2_SPLIT_PATTERN, text_so_far):
                expected += submission.byte_bpe.encode(piece, MERGES)
            text_so_far = ""
            if part is not None:
                expected.append(END[part])
        else:
            text_so_far += part
    return expected


@pytest.mark.rules("special_ids", "pieces")
@pytest.mark.points(1)
@examples(20)
@given(parts=st.lists(st.text(alphabet="hi tç!\n", max_size=6) | st.just("<|end|>"), max_size=5))
def test_hyp_equals_the_special_ids_and_each_piece_encoded(submission, parts):
    """encode_with_specials on any text: the special ids, and your encode() of each piece of the rest, in order"""
    got = submission.byte_bpe.encode_with_specials("".join(parts), MERGES, END)
    assert got == expected_ids(submission, parts), hint(
        "cut out the special tokens, split the rest with GPT2_SPLIT_PATTERN, and encode() each piece"
    )
