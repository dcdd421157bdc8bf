"""The student's loop and the cage on every Python the kit allows (``requires-python``): this one and pyenv's.

Each Python grades through a venv of its own with the kit in it (tests/kit/support/pythons.py); where one is
missing the test skips with one line, and fails in CI's second step (BPE_KIT_REQUIRE_ENGINES=1).
"""

from __future__ import annotations

import re
import sys
import tomllib

import pytest
from classroom import SOLUTIONS
from commands import grade
from pythons import OTHER_PYTHONS, interpreter, python_versions
from results import function_scores, timed

from autograder.kit_root import KIT_ROOT

# Its hand-ins step outside the plain-Python policy on purpose, to test the worker and the cage.
pytestmark = pytest.mark.without_policy

STUBS = SOLUTIONS.parent / "student_template"
TOOK = re.compile(r"Took [0-9.]+ s")
# The score lines: a test timed in the run (results.timed) may tip either way on a loaded machine.
TOTALS = re.compile(r"^(Score|Public checks): .*$", flags=re.MULTILINE)
# What a cheat tries that each Python's interpreter does its own way: crash itself, flood the pipe.
CRASH = (
    "import sys\nsys.setrecursionlimit(10 ** 7)\n\ndef merge_pair(tokens, pair):\n    return merge_pair(tokens, pair)\n"
)
FLOOD = (
    "def merge_pair(tokens, pair):\n    for _ in range(100000):\n        print('spam ' * 20)\n    return ['cheat']\n"
)


def _words(document: dict) -> tuple[str, list[tuple[str, float | None, str]]]:
    """What a student reads: the output (timing and totals aside) and each test's name, score and feedback;
    a timed test by its name alone."""
    tests = [
        (test["name"], None, "")
        if timed(test)
        else (test["name"], test["score"], TOOK.sub("Took _ s", test.get("output", "")))
        for test in document["tests"]
    ]
    return TOTALS.sub("", TOOK.sub("Took _ s", document["output"])), tests


def test_requires_python_is_the_range_the_kit_tests():
    allowed = tomllib.loads((KIT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["requires-python"]
    tested = sorted({f"{sys.version_info.major}.{sys.version_info.minor}", *OTHER_PYTHONS})
    assert allowed == f">={tested[0]},<3.{int(tested[-1].split('.')[1]) + 1}", (allowed, tested)


@pytest.mark.slow
@pytest.mark.parametrize("version", python_versions())
def test_stubs_and_reference_read_the_same_on_each_python(version, tmp_path):
    python = interpreter(version)
    for folder, expected in ((STUBS, "none"), (SOLUTIONS, "full")):
        here = grade(folder, "--no-cache", timeout=900)
        there = grade(folder, "--no-cache", timeout=900, python=python)
        assert there[0].returncode == here[0].returncode == 0, there[0].stderr[-2000:]
        assert _words(there[1]) == _words(here[1]), f"Python {version} reads otherwise on {folder.name}"
        scores = [(test["score"], test["max_score"]) for test in there[1]["tests"] if not timed(test)]
        if expected == "none":
            assert all(score == 0 for score, _ in scores)
        else:
            assert all(score >= most for score, most in scores)


@pytest.mark.slow
@pytest.mark.parametrize("cheat", ["crash", "flood"])
@pytest.mark.parametrize("version", python_versions())
def test_a_cheat_earns_nothing_in_the_cage_of_each_python(version, cheat, reference_with):
    python = interpreter(version)
    folder = reference_with(only=("simple_tokenizers", "bpe"), bpe=CRASH if cheat == "crash" else FLOOD)
    process, document = grade(folder, "--no-cache", "--part", "simple_tokenizers", "--part", "bpe", python=python)
    assert process.returncode == 0, process.stderr[-2000:]
    scores = function_scores(document)
    assert scores[("bpe", "merge_pair")][0] == 0, f"{cheat} earned points on Python {version}"
    assert all(score == most for (module, _), (score, most) in scores.items() if module == "simple_tokenizers")
    assert "grader error" not in {test["extra_data"]["outcome"] for test in document["tests"]}
