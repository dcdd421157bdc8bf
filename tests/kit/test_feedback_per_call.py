"""A failing test shows its failing call's own words only: nothing student code made during the property's
other examples (a message built from the inputs it recorded, what it printed, the repr of an answer, what it
wrote past ``print``) reaches a student's feedback or Gradescope's visible results.

The hand-ins here answer Part 1's ``char_tokenize`` right and record every input; from the twelfth call of a
process on, they show what they recorded (raised, or printed, written past ``print`` and returned), marked
with ``TAG``, leaving out the call at hand, whose input the student may see. The kit's own tests draw the
examples with a fixed secret (conftest), so eleven is always within ``char_tokenize``'s property of forty.
An honest hand-in whose ``char_tokenize`` drops spaces and prints shows its failing call, expected, got,
hint and what that call printed, as before.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from classroom import SOLUTIONS
from commands import run_batch

# An attack: CI's second step runs it (shared/decisions.md), with the other slow tests.
pytestmark = pytest.mark.slow

TAG = "SEEN" + "EXAMPLE"  # never whole in the hand-ins' source, which a feedback page may quote
ANSWERS_AFTER = 11  # calls a process answers right before it starts to show them

RECORDS = f"""
import os

TAG = "SEEN" + "EXAMPLE"
RECORDED = []
_char_tokenize = char_tokenize


def _earlier(text):
    earlier = list(RECORDED)
    RECORDED.append(text)
    return earlier if len(earlier) >= {ANSWERS_AFTER} else None
"""
RAISES = (
    RECORDS
    + """

def char_tokenize(text):
    earlier = _earlier(text)
    if earlier is not None:
        raise ValueError(TAG + repr(earlier))
    return _char_tokenize(text)
"""
)
PRINTS = (
    RECORDS
    + """

def char_tokenize(text):
    earlier = _earlier(text)
    if earlier is not None:
        print(TAG + repr(earlier))
        os.write(2, (TAG + repr(earlier) + "\\n").encode())
        return [TAG + repr(earlier)] + [TAG + repr(one) for one in earlier]
    return _char_tokenize(text)
"""
)
# An honest mistake: the last character of a longer text dropped, and what it was given printed, in every call.
DROPS_THE_LAST = """

def char_tokenize(text):
    print("tokenizing", repr(text))
    return list(text) if len(text) < 2 else list(text)[:-1]
"""


@pytest.fixture(scope="module")
def hand_ins(tmp_path_factory: pytest.TempPathFactory) -> Path:
    solution = (SOLUTIONS / "simple_tokenizers.py").read_text(encoding="utf-8")
    course = tmp_path_factory.mktemp("per-call") / "class"
    for student, appended in (("raiser", RAISES), ("printer", PRINTS), ("honest", DROPS_THE_LAST)):
        (course / student).mkdir(parents=True)
        (course / student / "simple_tokenizers.py").write_text(solution + appended, encoding="utf-8")
    return course


@pytest.fixture(scope="module")
def batch(hand_ins: Path) -> Path:
    out = hand_ins.parent / "out"
    process = run_batch(hand_ins, out, "--feedback", "failures", "--part", "simple_tokenizers")
    assert process.returncode == 0, process.stderr[-2000:]
    return out


def received(folder: Path) -> dict[str, str]:
    """Every file of a student's OUT folder that the student is given (all but the instructor's results)."""
    return {
        path.name: path.read_text(encoding="utf-8", errors="replace")
        for path in folder.iterdir()
        if path.is_file() and path.name != "results.json"
    }


def char_tokenize_property(folder: Path) -> dict[str, Any]:
    """The instructor's record of ``char_tokenize``'s property, the test the hand-ins fail."""
    document = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    (found,) = [
        test
        for test in document["tests"]
        if test["extra_data"]["function"] == "char_tokenize" and "join back" in test["name"]
    ]
    return found


@pytest.mark.parametrize("student", ["raiser", "printer"])
def test_a_failing_property_shows_nothing_of_its_other_examples(batch, student):
    files = received(batch / student)
    assert "feedback.md" in files
    for name, text in files.items():
        assert TAG not in text, f"{student}'s {name} shows inputs of the property's other examples"
    lost = char_tokenize_property(batch / student)
    assert lost["score"] == 0, "the property failed: its point is lost"
    assert "alone" in lost["output"], "the feedback says the call, made alone, answered right"


@pytest.mark.parametrize("student", ["raiser", "printer"])
def test_gradescope_results_show_nothing_of_a_propertys_other_examples(hand_ins, tmp_path, student):
    tree = tmp_path / "autograder"
    (tree / "submission").mkdir(parents=True)
    for path in (hand_ins / student).iterdir():
        (tree / "submission" / path.name).write_bytes(path.read_bytes())
    environment = {**os.environ, "AUTOGRADER_ROOT": str(tree)}
    command = [sys.executable, "-c", "from autograder.course.gradescope import main; main()"]
    process = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=600)
    assert process.returncode == 0, process.stderr[-2000:]
    results = (tree / "results" / "results.json").read_text(encoding="utf-8")
    assert '"tests"' in results, "the grader's results"
    assert TAG not in results, "results.json shows inputs of the property's other examples"


def test_an_honest_failure_still_shows_its_call_expected_got_hint_and_output(batch):
    markdown = received(batch / "honest")["feedback.md"]
    failed = char_tokenize_property(batch / "honest")
    assert failed["score"] == 0
    extra = failed["extra_data"]
    assert extra["call"].startswith("char_tokenize("), extra
    assert extra["expected"] and extra["got"] and extra["expected"] != extra["got"], extra
    assert extra["hint"] == "return a list with one entry per character", extra
    assert "your code printed:\ntokenizing " in failed["output"], "what the failing call printed"
    assert extra["call"] in markdown and extra["hint"] in markdown
