"""How much of the hidden tests a student's feedback shows: ``grade batch --feedback``, and Gradescope's.

- ``full``: every test, passed ones too, with its call; a failing one with what was expected and what came
  back. The instructor's explicit choice (self-check work): it shows the hidden inputs.
- ``failures`` (the default, and the Gradescope package's): what a student needs to fix each lost point (the
  failing call, expected, got and the hint), what that call printed (student_output's bounds) and nothing of
  the tests they passed. Each hidden test that a student fails becomes known to that student; the ones they
  pass stay hidden.
- ``scores``: the points per function and which checks failed, in words; no call, no expected value, no
  answer, no hint, and not one character student code produced (printed output, exception messages, a load
  failure's beyond its file, line and kind). For hand-ins that can be handed in again, where a known hidden
  call could be fitted to.

This view is the student's result, made once from the grader's; the renderers only render it. The
instructor's own ``results.json`` keeps everything: the class summary reads its wrong answers there.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from autograder.scoring.grade_result import GradeResult, TestResult
from autograder.testing.outcomes import Outcome

FULL, FAILURES, SCORES = "full", "failures", "scores"
MODES = (FULL, FAILURES, SCORES)
DEFAULT = FAILURES
# In a Gradescope package's kit folder: the mode ``grade gradescope --feedback`` chose for it.
PACKAGE_FILE = "gradescope-feedback.txt"


def package_mode(kit: Path) -> str:
    """The feedback a Gradescope package was built with; the default where it says none (an older one)."""
    try:
        mode = (kit / PACKAGE_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return DEFAULT
    return mode if mode in MODES else DEFAULT


def view(result: GradeResult, mode: str) -> GradeResult:
    """``result`` holding only what ``mode`` shows (the renderers read the mode from it)."""
    if mode not in MODES:
        raise ValueError(f"feedback {mode!r}: choose one of {', '.join(MODES)}")
    if mode == FULL:
        tests = tuple(test.changed(**_withheld(test)) if test.withheld else test for test in result.tests)
        return replace(result, feedback=mode, tests=tests)
    # How long the hand-in's code ran is the code's to choose, and so a way to tell something: to a tenth of a
    # minute only (the platform's own clock still says roughly as much).
    seconds = result.student_seconds
    shown = replace(
        result,
        feedback=mode,
        tests=tuple(_test_view(test, mode) for test in result.tests),
        execution_time=float(round(result.execution_time, -1)),
        student_seconds=None if seconds is None else float(round(seconds, -1)),
    )
    if mode == SCORES:
        said_by_code = set(result.from_code or ())
        notes = tuple(note for note in result.notes or () if note not in said_by_code)
        shown = replace(shown, notes=notes, from_code=(), output="\n".join(notes))
    return shown


def _test_view(test: TestResult, mode: str) -> TestResult:
    """``test`` as ``mode`` shows it, made in one copy: a class's feedback makes one for each of its tests."""
    hidden: dict[str, Any] = {"printed": None}  # the instructor's: a failing test's output shows its failing call's
    if test.passed or mode == SCORES:
        # pytest names a parametrized test after its inputs ("test_round_trips[naïve café]"): its function alone.
        hidden |= {"call": "", "expected": "", "got": "", "hint": "", "hint_id": "", "example": "", "detail": ""}
        hidden["test"] = test.test.split("[", 1)[0]
    if mode == SCORES and not test.passed:
        load_failure = (test.summary or "") if test.load_failed else ""
        hidden |= {"output": load_failure or _in_words(test.outcome), "summary": load_failure}
    elif test.withheld:
        hidden |= _withheld(test)
    return test.changed(**hidden)


def _withheld(test: TestResult) -> dict[str, Any]:
    """The fields of a failure that its run alone did not make the same (testing.own_words), left out; its
    ``output`` says so already. The instructor's record keeps them."""
    return {field: "" for field in test.withheld or () if field != "printed"} | {"printed": None}


def shows_passing(result: GradeResult) -> bool:
    return result.feedback == FULL


def _in_words(outcome: Outcome) -> str:
    """What a scores-only feedback says of a lost test (its title already says what it checks)."""
    return {
        Outcome.FAILED: "this check failed",
        Outcome.ERROR: "your function raised an error on this check",
        Outcome.TIMED_OUT: "your function ran past its time limit on this check",
        Outcome.CRASHED: "your code stopped the worker on this check",
        Outcome.GRADER_ERROR: "the grader failed on this check: your instructor will look at it",
        Outcome.NOT_STARTED: "not started",
        Outcome.REFUSED: "your code is outside the plain-Python policy: the grader did not run it",
    }.get(outcome, outcome.value)
