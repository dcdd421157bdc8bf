import pytest

from autograder.testing.author_api import gpt2, hint, raised

VOCAB, _ = gpt2(2000)
VOCAB |= {"<|endoftext|><|endoftext|>": 50257}


@pytest.mark.rules("bytes_back")
@pytest.mark.points(2)
def test_maps_each_character_back_to_its_byte(submission):
    """decode turns "Ġ" back into a space and "Ã©" back into "é\""""
    vocab = {"Ġ": 0, "c": 1, "af": 2, "Ã©": 3}
    assert submission.real_tokenizer.decode([0, 1, 2, 3], vocab) == " café", hint(
        "invert bytes_to_unicode: each character of a token is one byte; bytes(...).decode('utf-8')"
    )


@pytest.mark.rules("bytes_back")
@pytest.mark.points(3)
def test_gives_back_gpt2s_text(submission):
    """decode of GPT-2's ids gives back the text they encode, special tokens included"""
    cases = {
        "Hello world! It's 2025.": [39, 695, 78, 995, 0, 632, 338, 1160, 1495, 13],
        "WE'LL  see\n\n  it": [54, 36, 6, 43, 43, 220, 766, 628, 220, 340],
        "ab<|endoftext|><|endoftext|>c<|endoftext|>": [397, 50257, 66, 50256],
    }
    for text, ids in cases.items():
        assert submission.real_tokenizer.decode(ids, VOCAB) == text, hint(
            "join the ids' tokens, map every character back to its byte, decode once"
        )


@pytest.mark.rules("replaced")
@pytest.mark.points(3)
def test_a_character_split_over_ids_decodes_whole(submission):
    """decode joins all the bytes before decoding: "🙂" in four ids is whole, and its first two are "\ufffd\""""
    smile = [172, 253, 247, 224]
    assert submission.real_tokenizer.decode([1275, 69, 127, 102, 220, *smile], VOCAB) == " café 🙂", hint(
        "bytes of all the ids first, then one .decode('utf-8'): a character may span several ids"
    )
    crash = raised(submission.real_tokenizer.decode, smile[:2], VOCAB)
    assert crash is None or crash[0] != "UnicodeDecodeError", hint(
        "decode of half of 🙂 raised UnicodeDecodeError, as bytes.decode does by default: decode with"
        ' errors="replace", which makes it "\\ufffd"',
        fix="replaced",
    )
    assert submission.real_tokenizer.decode(smile[:2], VOCAB) == "\ufffd", hint(
        'decode with errors="replace": half a character becomes "\\ufffd" instead of raising'
    )
