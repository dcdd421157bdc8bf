"""A call's memory, measured by the kernel for a process of its own (Part 6's training bonus): a trainer that
holds much more than the reference loses the memory points and only those, and one that reaches the worker's
own functions and replaces what once measured it and judged its arguments (tracemalloc's, ``_unchanged``)
loses them all the same, and the points of a test of its arguments too."""

from __future__ import annotations

import pytest
from classroom import SOLUTIONS
from commands import grade

# Its hand-ins step outside the plain-Python policy on purpose, to test the worker and the cage.
pytestmark = pytest.mark.without_policy

MEMORY_TEST = "grows its memory at most 4 times as far as the reference's"
ARGUMENTS_TEST = "decode with GPT-2's whole vocabulary gives back the text of its ids"

# The reference's trainer, holding 400 MB for a moment: the same merges, as fast, many times the memory.
HOLDS_MUCH = """

_train_bytes = train_bytes


def train_bytes(text, vocab_size, special_tokens=()):
    held = bytearray(400 * 1024 * 1024)
    del held
    return _train_bytes(text, vocab_size, special_tokens)
"""

# The reference's trainer holding 200 MiB, and a decode that empties vocab, in a module that replaces, from its
# frames, the worker's functions that once measured the peak and judged "unchanged" (main before the fix
# passed both tests with it).
REACHES = """

import sys as _sys


def _reach():
    frame = _sys._getframe()
    while frame is not None:
        if "_unchanged" in frame.f_globals or "get_traced_memory" in frame.f_globals:
            frame.f_globals["_unchanged"] = lambda *arguments: True
            frame.f_globals["get_traced_memory"] = lambda: (0, 0)
        frame = frame.f_back


_reach()
_decode = decode
_train_bytes = train_bytes


def decode(ids, vocab):
    _reach()
    text = _decode(ids, vocab)
    vocab.clear()
    return text


def train_bytes(text, vocab_size, special_tokens=()):
    _reach()
    held = bytearray(200 * 1024 * 1024)
    answer = _train_bytes(text, vocab_size, special_tokens)
    del held
    return answer
"""


def graded_with(tmp_path, extra):
    source = (SOLUTIONS / "real_tokenizer.py").read_text(encoding="utf-8") + extra
    (tmp_path / "real_tokenizer.py").write_text(source, encoding="utf-8")
    process, document = grade(tmp_path, "--part", "real_tokenizer", "--no-cache")
    assert process.returncode in (0, 1), process.stderr
    return {test["name"]: test["output"] for test in document["tests"] if test["status"] != "passed"}


@pytest.mark.slow
def test_a_trainer_that_holds_much_loses_the_memory_points_only(tmp_path):
    failed = graded_with(tmp_path, HOLDS_MUCH)
    assert len(failed) == 1, list(failed)
    (name, output), *_ = failed.items()
    assert MEMORY_TEST in name and "your call grew its memory by" in output, output


def test_replacing_the_workers_functions_changes_no_verdict(tmp_path):
    failed = graded_with(tmp_path, REACHES)
    assert len(failed) == 2, list(failed)
    memory = next(output for name, output in failed.items() if MEMORY_TEST in name)
    assert "your call grew its memory by" in memory, memory
    arguments = next(output for name, output in failed.items() if ARGUMENTS_TEST in name)
    assert "read vocab; never change it" in arguments, arguments
