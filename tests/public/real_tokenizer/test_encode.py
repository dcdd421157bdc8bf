import pytest

from autograder.testing.author_api import END_OF_TEXT, GPT4_SPLIT, gpt2, hint, raised, saw

# GPT-2's first 2,000 merges, its <|endoftext|> and two special tokens added after it that overlap it.
VOCAB, MERGES = gpt2(2000)
SPECIALS = {"<|endoftext|><|endoftext|>": 50257, "<|end": 50258}
VOCAB |= SPECIALS
# tiktoken's ids for these texts with the same merges, written out when the test was made.
GPT2_IDS = {
    "Hello world! It's 2025.": [39, 695, 78, 995, 0, 632, 338, 1160, 1495, 13],
    " café 🙂": [1275, 69, 127, 102, 220, 172, 253, 247, 224],
    "WE'LL  see\n\n  it": [54, 36, 6, 43, 43, 220, 766, 628, 220, 340],
}


@pytest.mark.rules("lowest_rank", "spelled", "ids")
@pytest.mark.points(2)
def test_merges_by_lowest_rank(submission):
    """encode merges the adjacent pair of lowest rank first, in every piece, with the vocab of each call"""
    vocab = {"x": 0, "y": 1, "z": 2, "xy": 3, "yz": 4, "xyz": 5, "Ġ": 6, "<|q|>": 7}
    merges = [("y", "z"), ("x", "y"), ("x", "yz")]
    got = submission.real_tokenizer.encode("xyz", vocab, merges)
    if got == [0, 1, 2] and submission.real_tokenizer.encode("xyz", vocab, merges, special_tokens=["<|q|>"]) == [5]:
        # A special token the text lacks changes nothing in the contract: the way without any is what differs.
        assert got == [5], hint(
            "with a special token given (not in the text) xyz merges to xyz, with none it stays x y z: with no"
            " special tokens the whole text is one stretch to split with the pattern; an empty alternation of"
            " special tokens cuts it between every character",
            fix="specials",
        )
    assert submission.real_tokenizer.encode("xyz", vocab, merges) == [5], hint(
        '("y", "z") is rank 0: merge it before ("x", "y"), then ("x", "yz") gives "xyz"', fix="lowest_rank"
    )
    assert submission.real_tokenizer.encode("xyxyz", vocab, merges) == [3, 5], hint(
        "merge the lowest-ranked pair wherever it occurs, then look again", fix="lowest_rank"
    )
    assert submission.real_tokenizer.encode("xxx", {"x": 0, "xx": 1}, [("x", "x")]) == [1, 0], hint(
        "where the pair of lowest rank occurs more than once, merge its first occurrence first, left to right: "
        "x x x becomes xx x, not x xx",
        fix="lowest_rank",
    )
    other = {"x": 7, "y": 8, "z": 9}
    assert submission.real_tokenizer.encode("xyz", other, []) == [7, 8, 9], hint(
        "encode with the vocab and merges of this call: a cache of pieces kept from a call with other ones gives "
        "their ids; key it by the vocab and merges, or keep it inside the call",
        fix="ids",
    )


@pytest.mark.rules("ids")
@pytest.mark.points(5)
def test_gives_gpt2s_ids(submission):
    """encode with GPT-2's first 2,000 merges gives GPT-2's own ids (tiktoken's)"""
    wrong = [text for text, ids in GPT2_IDS.items() if submission.real_tokenizer.encode(text, VOCAB, MERGES) != ids]
    if wrong and all(not text.isascii() for text in wrong) and any(text.isascii() for text in GPT2_IDS):
        # Only texts with characters beyond ASCII come out wrong: one character is one byte only below 128.
        assert not wrong, hint(
            f"the ASCII texts come out right, {wrong[0]!r} does not: spell each piece's UTF-8 bytes"
            " (piece.encode('utf-8')) through bytes_to_unicode, one character a byte, not its characters",
            fix="spelled",
        )
    for text, ids in GPT2_IDS.items():
        answer = submission.real_tokenizer.encode(text, VOCAB, MERGES)
        # Any step of encode can make these ids differ: the test shows where they do, not a guess at why.
        assert answer == ids, saw(ids, answer)


@pytest.mark.rules("specials")
@pytest.mark.points(2)
def test_special_tokens_are_one_id_and_the_longest_wins(submission):
    """encode cuts out special tokens first, the longer where two start at one place"""
    crash = raised(submission.real_tokenizer.encode, "x<|endoftext|>y", VOCAB, MERGES, special_tokens=[END_OF_TEXT])
    if crash is not None and crash[0] == "KeyError":
        key = crash[1].strip("'\"")
        # The key encode could not find is a piece of the special token: the split cut the token apart.
        assert not (key and key in END_OF_TEXT), hint(
            "encode raised KeyError looking up a piece of <|endoftext|> in vocab: the split cut the special token"
            ' apart, because "|" inside it means "or" in a pattern; regex.escape each special token before joining'
            " them with |",
            fix="specials",
        )
    assert submission.real_tokenizer.encode("x<|endoftext|>y", VOCAB, MERGES, special_tokens=[END_OF_TEXT]) == [
        87,
        50256,
        88,
    ], hint("split on the special tokens first and look each one up whole in vocab")
    specials = [END_OF_TEXT, *SPECIALS]
    got = submission.real_tokenizer.encode("ab<|endoftext|><|endoftext|>c<|end", VOCAB, MERGES, special_tokens=specials)
    assert got == [397, 50257, 66, 50258], hint("try the special tokens longest first (sorted by length, reversed)")
    assert submission.real_tokenizer.encode("a b", VOCAB, MERGES, special_tokens=[]) == [64, 275], hint(
        "with no special tokens, encode the whole text: an empty alternation would split it everywhere"
    )


@pytest.mark.rules("pattern")
@pytest.mark.points(2)
def test_uses_the_pattern_given(submission):
    """encode with pattern=GPT4_SPLIT splits digits three at a time, as GPT-4 does"""
    got = submission.real_tokenizer.encode("Hello world! It's 2025.", VOCAB, MERGES, pattern=GPT4_SPLIT)
    assert got == [39, 695, 78, 995, 0, 632, 338, 220, 1238, 17, 20, 13], hint(
        "split with the pattern argument (its default is GPT2_SPLIT)"
    )
