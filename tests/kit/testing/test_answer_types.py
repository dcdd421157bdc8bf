"""Answers keep their types: a float id, a bool count, a list for a tuple or a str subclass fails its test,
naming the type the contract asks for and the one returned; a correct hand-in is unaffected."""

from __future__ import annotations

from pathlib import Path

import pytest
from classroom import SOLUTIONS
from commands import grade
from results import function_scores

from autograder.authoring.answer_types import GENERATED, expected_module
from autograder.cage.inside import codec
from autograder.testing.answer_types import type_problem


@pytest.mark.unit
def test_the_checked_types_are_the_solutions_annotations():
    assert GENERATED.read_text(encoding="utf-8") == expected_module(), "run `grade make-stubs`: contract_types is stale"


# Each keeps every value right and changes only its type; the first once earned every point.
FLOAT_IDS = """

_build_char_vocab, _build_word_vocab, _encode_words = build_char_vocab, build_word_vocab, encode_words


def build_char_vocab(texts):
    return {token: float(number) for token, number in _build_char_vocab(texts).items()}


def build_word_vocab(texts):
    return {token: number + 0.0 for token, number in _build_word_vocab(texts).items()}


def encode_words(text, vocab):
    return [float(number) for number in _encode_words(text, vocab)]
"""

BOOL_AND_SUBCLASS = """

class Token(str):
    pass


_char_tokenize, _encode_words = char_tokenize, encode_words


def char_tokenize(text):
    return [Token(character) for character in _char_tokenize(text)]


def encode_words(text, vocab):
    return [bool(number) if number in (0, 1) else number for number in _encode_words(text, vocab)]
"""


@pytest.mark.parametrize(
    ("appended", "functions"),
    [(FLOAT_IDS, ("build_char_vocab", "build_word_vocab", "encode_words")), (BOOL_AND_SUBCLASS, ("char_tokenize",))],
    ids=["floats for ints", "bools and a str subclass"],
)
def test_an_answer_of_the_wrong_type_loses_its_points_and_names_both_types(tmp_path: Path, appended, functions):
    (tmp_path / "simple_tokenizers.py").write_text(
        (SOLUTIONS / "simple_tokenizers.py").read_text(encoding="utf-8") + appended, encoding="utf-8"
    )
    process, document = grade(tmp_path / "simple_tokenizers.py", "--no-cache")
    assert process.returncode in (0, 1), process.stderr[-2000:]
    scores = function_scores(document)
    for function in functions:
        assert scores[("simple_tokenizers", function)][0] == 0, function
    failed = [test for test in document["tests"] if test["status"] == "failed"]
    assert failed and all("the contract asks for" in test["output"] for test in failed)
    said = "\n".join(test["output"] for test in failed)
    if appended is FLOAT_IDS:
        assert "expected: a value of type dict[str, int]" in said and "returned a float (0.0)" in said
    else:
        assert "a Token (a subclass of str)" in said


@pytest.mark.unit
def test_the_type_check_names_where_in_the_answer_it_fails():
    assert type_problem("bpe", "encode", [1, 2]) is None
    assert type_problem("bpe", "get_pair_counts", {("a", "b"): 2}) is None
    assert type_problem("bpe", "encode", [1, True]) == ("list[int]", "an int", "a bool (True) at answer[1]")
    listed = type_problem("bpe", "train_bpe", (["a"], [["a", "b"]]))
    assert listed is not None and listed[2] == "a list (['a', 'b']) at answer[1][0]"
    # Pairs are checked at C speed first; a wrong item inside one, or a pair of three, is still found.
    cases = [
        ("word_bpe", [("a", "b"), ("a", 1)], "an int (1) at answer[1][1]"),
        ("word_bpe", [("a", "b"), ("a", "b", "c")], "a tuple of 3 at answer[1]"),
        ("byte_bpe", {(1, 2): 256, (1, True): 257}, "a bool (True) at answer.keys()[1]"),
    ]
    for module, answer, found in cases:
        problem = type_problem(module, "train_bpe", answer)
        assert problem is not None and problem[2] == found
    keyed = type_problem("word_bpe", "word_frequencies", {("a", "b"): 2, "ab": 1})
    assert keyed is not None and keyed[2] == "a str ('ab') at answer.keys()"
    named = codec.from_plain(codec.to_plain({"merges": 1}))
    assert type_problem("bpe", "build_bpe_vocab", named) is None
