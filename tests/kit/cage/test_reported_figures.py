"""No verdict on a call depends on code a student can reach, graded through the real CLI with no policy in
front of the worker: the cage layer alone must hold. Each hand-in reaches the worker's own functions (through
its frames, a generator, the collector, or another module's attribute) and replaces what once judged a call in
the process the call ran in; each earned the points of the test it aims at before the grader judged the
arguments and the kernel measured the memory.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from classroom import SOLUTIONS
from commands import grade
from policy_attacks import ATTACKS, write_attack

# Its hand-ins reach into the worker on purpose: the layer below the plain-Python policy is under test.
pytestmark = [pytest.mark.without_policy, pytest.mark.attack]

FAST = ("--limit", "call_seconds=5", "--limit", "test_seconds=30", "--limit", "submission_seconds=300")
UNCHANGED_TEST = "merge_pair answers right with a new list and leaves the one it is given unchanged"
MEMORY_TEST = "grows its memory at most 4 times as far as the reference's"
ARGUMENTS_TEST = "decode with GPT-2's whole vocabulary gives back the text of its ids"
# The attacks that hide an edit of merge_pair's list from what judged "unchanged" in the worker.
HIDES_A_CHANGE = sorted(name for name, files in ATTACKS.items() if "bpe.py" in files)


def failed_tests(hand_in: Path, part: str) -> dict[str, str]:
    process, document = grade(hand_in, "--no-cache", "--part", part, *FAST)
    assert process.returncode in (0, 1), process.stderr[-2000:]
    assert document["tests"], process.stderr[-2000:]
    return {test["name"]: test["output"] for test in document["tests"] if test["status"] != "passed"}


@pytest.mark.parametrize("name", HIDES_A_CHANGE)
def test_a_list_edited_in_place_is_seen_whatever_the_call_replaced_in_its_process(name: str, tmp_path: Path):
    failed = failed_tests(write_attack(tmp_path / "hand_in", name), "bpe")
    said = next((output for test, output in failed.items() if UNCHANGED_TEST in test), None)
    assert said is not None, f"the edit went unseen; failed: {list(failed)}"
    assert "instead of editing tokens in place" in said, said


# The reference's trainer holding 96 MiB in its call on the memory test's text (8 times the reference's growth),
# and a decode that empties vocab, in a module that replaces, from its frames at import and in each call,
# whatever judged "unchanged" and measured a call's memory in its process, and anything named like them.
REACHES_THE_MEASURE = """

import sys as _sys


def _replace(frame):
    while frame is not None:
        found = frame.f_globals
        for name in ("_unchanged", "_arguments_unchanged"):
            if name in found:
                found[name] = lambda *arguments: True
        for name in ("get_traced_memory", "growth", "resident_bytes"):
            if name in found:
                found[name] = lambda *arguments: (0, 0)
        frame = frame.f_back


_replace(_sys._getframe())
_decode = decode
_train_bytes = train_bytes


def decode(ids, vocab):
    _replace(_sys._getframe())
    text = _decode(ids, vocab)
    vocab.clear()
    return text


def train_bytes(text, vocab_size, special_tokens=()):
    _replace(_sys._getframe())
    held = bytearray(96 * 2**20 if len(text) > 100_000 else 0)
    answer = _train_bytes(text, vocab_size, special_tokens)
    del held
    return answer
"""

# The reference's trainer with 96 MiB held from import and let go as its call begins: measured from the call's
# start, a call that then holds 80 MiB on the memory test's text shows no growth at all.
HOLDS_FROM_IMPORT = """

_ballast = bytearray(96 * 2**20)
_train_bytes = train_bytes


def train_bytes(text, vocab_size, special_tokens=()):
    global _ballast
    _ballast = None
    held = bytearray(80 * 2**20 if len(text) > 100_000 else 0)
    answer = _train_bytes(text, vocab_size, special_tokens)
    del held
    return answer
"""


def graded_part_6(tmp_path: Path, extra: str) -> dict[str, str]:
    hand_in = tmp_path / "hand_in"
    hand_in.mkdir()
    source = (SOLUTIONS / "real_tokenizer.py").read_text(encoding="utf-8") + extra
    (hand_in / "real_tokenizer.py").write_text(source, encoding="utf-8")
    return failed_tests(hand_in, "real_tokenizer")


def test_replacing_the_workers_functions_changes_no_verdict_of_part_6(tmp_path: Path):
    failed = graded_part_6(tmp_path, REACHES_THE_MEASURE)
    assert len(failed) == 2, list(failed)
    memory = next(output for name, output in failed.items() if MEMORY_TEST in name)
    assert "your call grew its memory by" in memory, memory
    arguments = next(output for name, output in failed.items() if ARGUMENTS_TEST in name)
    assert "read vocab; never change it" in arguments, arguments


def test_memory_held_from_import_counts_against_the_call(tmp_path: Path):
    failed = graded_part_6(tmp_path, HOLDS_FROM_IMPORT)
    assert len(failed) == 1, list(failed)
    (name, output), *_ = failed.items()
    assert MEMORY_TEST in name and "your call grew its memory by" in output, output
