import json
import random
from pathlib import Path

import pytest

from autograder.testing.author_api import gpt2, hint, reference

STORED = json.loads(Path(__file__).with_name("tiktoken_ids.json").read_text(encoding="utf-8"))
VOCAB, _ = gpt2(STORED["merges"])
VOCAB |= STORED["special_ids"]
_TOKEN_OF = {token_id: token for token, token_id in VOCAB.items()}
_BYTE_OF = {character: byte for byte, character in reference("real_tokenizer").bytes_to_unicode().items()}


def one_by_one(ids: list[int]) -> str:
    """The text of ``ids`` decoded an id at a time (a known mistake's answer), special tokens as they are."""
    pieces = []
    for token_id in ids:
        token = _TOKEN_OF[token_id]
        if token in STORED["special_ids"]:
            pieces.append(token)
        else:
            pieces.append(bytes(_BYTE_OF[character] for character in token).decode("utf-8", errors="replace"))
    return "".join(pieces)


@pytest.mark.rules("bytes_back")
@pytest.mark.points(2)
def test_decodes_a_small_worked_example(submission):
    """decode([3, 4]) gives "hi hi": "Ġ" is a space"""
    got = submission.real_tokenizer.decode([3, 4], {"h": 0, "i": 1, "Ġ": 2, "hi": 3, "Ġhi": 4})
    assert got == "hi hi", hint("map every character of the tokens back to its byte (invert bytes_to_unicode)")


@pytest.mark.rules("bytes_back")
@pytest.mark.points(3)
def test_gives_back_the_text_of_gpt2s_ids(submission, example_seed):
    """decode of tiktoken's GPT-2 ids gives back the held-out text, special tokens and all"""
    for case in random.Random(example_seed).sample(STORED["cases"], 6):
        got = submission.real_tokenizer.decode(case["cut"], VOCAB)
        if got == one_by_one(case["cut"]) != case["text"]:
            assert got == case["text"], hint(
                "each id's bytes were decoded on their own, so a character over two ids broke: join the bytes of"
                " all ids, then decode once with errors='replace'",
                fix="replaced",
            )
        assert got == case["text"], hint(
            "join the tokens, turn each character into its byte, then decode the bytes once, as UTF-8"
        )


@pytest.mark.rules("replaced")
@pytest.mark.points(2)
def test_joins_the_bytes_before_decoding_them(submission):
    """decode joins the bytes of all ids first: "🙂" spread over four ids decodes whole, and half of it is "\ufffd\""""
    vocab = {"ð": 0, "Ł": 1, "Ļ": 2, "Ĥ": 3, "a": 4}
    assert submission.real_tokenizer.decode([0, 1, 2, 3], vocab) == "🙂", hint(
        "bytes(...) of every id's characters together, then .decode('utf-8'): a character may span several ids"
    )
    assert submission.real_tokenizer.decode([4, 0, 1], vocab) == "a\ufffd", hint(
        'decode with errors="replace": ids that end inside a character give "\\ufffd" instead of raising'
    )


@pytest.mark.rules("bytes_back")
@pytest.mark.points(1)
def test_decodes_with_gpt2s_whole_vocabulary(submission):
    """decode with GPT-2's whole vocabulary gives back the text of its ids"""
    vocab, _ = gpt2()
    case = STORED["cases"][6]
    record = submission.real_tokenizer.decode.call(case["whole"], vocab)
    assert record.returned == case["text"], hint("invert the whole vocab: every id has its token")
    assert not record.mutated, hint("read vocab; never change it")
