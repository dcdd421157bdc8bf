"""The one results document (Gradescope's results.json) that every report is rendered from."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from autograder.engine.outcomes import Outcome, TestOutcome
from autograder.engine.parts import PARTS, part_of
from autograder.engine.runner import GradingRun
from autograder.engine.student_text import visible


def build_document(run: GradingRun) -> dict[str, Any]:
    """Gradescope's results.json for one run, with the kit's own fields in ``extra_data``.

    Every text that student code or a student's file names can shape is made ``visible`` here, once, so
    no report rendered from the document (terminal, Markdown, HTML, Gradescope's page) can be made to act.
    """
    tests = [_test_entry(outcome) for outcome in _in_contract_order(run.outcomes)]
    # Gradescope's extra credit: a bonus test is worth 0 and scores above it,
    # so full marks never need it and what it earns comes on top.
    score = sum(test["score"] for test in tests)
    max_score = sum(test["max_score"] for test in tests)
    return {
        "score": round(score, 4),
        "max_score": round(max_score, 4),
        "execution_time": round(run.seconds, 3),
        "output": visible("\n".join(run.notes)),
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
        "extra_data": {"submission": visible(run.submission), "suite": run.suite,
                       "notes": [visible(note) for note in run.notes]},
    }


def _in_contract_order(outcomes: tuple[TestOutcome, ...]) -> list[TestOutcome]:
    order = {
        (part.module, function): (part.number, index)
        for part in PARTS
        for index, function in enumerate(part.functions)
    }
    return sorted(outcomes, key=lambda outcome: order.get((outcome.module, outcome.function), (99, 99)))


def _test_entry(outcome: TestOutcome) -> dict[str, Any]:
    try:
        part = part_of(outcome.module)
        part_label = f"Part {part.number}: {part.title}"
    except KeyError:
        part_label = "Grader"
    return {
        "name": f"{outcome.function}: {outcome.doc}" if outcome.function else outcome.doc,
        "score": outcome.score,
        "max_score": 0.0 if outcome.bonus else outcome.points,
        "status": "passed" if outcome.outcome is Outcome.PASSED else "failed",
        "output": visible(feedback_text(outcome)),
        "visibility": outcome.visibility,
        "tags": [part_label, outcome.function],
        "extra_data": {
            "part": part_label,
            "module": outcome.module,
            "function": outcome.function,
            "test": outcome.name,
            "points": outcome.points,
            "bonus": outcome.bonus,
            "doc": outcome.doc,
            "outcome": outcome.outcome.value,
            "call": visible(outcome.call),
            "expected": visible(outcome.expected),
            "got": visible(outcome.got),
            "hint": visible(outcome.hint),
            "detail": visible(outcome.detail),
        },
    }


def feedback_text(outcome: TestOutcome) -> str:
    """What a student reads for one test: the call, expected, got and one hint."""
    if outcome.outcome is Outcome.PASSED:
        return ""
    lines = []
    if outcome.call:
        lines.append(f"call:     {outcome.call}")
    if outcome.outcome is Outcome.FAILED:
        if outcome.expected:
            lines.append(f"expected: {outcome.expected}")
        if outcome.got or not outcome.detail:
            lines.append(f"got:      {outcome.got}")
        if outcome.detail:  # what was seen where no single answer stands for it (two answers to one input)
            lines.append(f"seen:     {outcome.detail}")
        if outcome.hint:
            lines.append(f"hint:     {outcome.hint}")
    elif outcome.outcome is Outcome.GRADER_ERROR:
        lines.append("grader error: this is a bug in the grader, not in your code; tell your instructor")
        lines.append(outcome.detail)
    else:
        lines.append(f"{outcome.outcome.value}: {outcome.detail}")
    if outcome.printed:
        lines.append("your code printed:\n" + outcome.printed.rstrip())
    return "\n".join(lines)


def points_number(value: float) -> str:
    """Points as every report and the gradebook write them: 7, 2.5, never 2.4999999."""
    return f"{round(value, 4):g}"


def percent(document: dict[str, Any]) -> float:
    """The score as a percentage of full marks; bonus points can take it past 100."""
    return 100.0 * document["score"] / document["max_score"] if document["max_score"] else 0.0


def bonus_score(document: dict[str, Any]) -> float:
    return sum(test["score"] for test in document["tests"] if test["extra_data"]["bonus"])


def function_scores(document: dict[str, Any]) -> dict[tuple[str, str], tuple[float, float]]:
    """Per (module, function): the points earned and the points its tests are worth (bonus included)."""
    scores: dict[tuple[str, str], tuple[float, float]] = {}
    for test in document["tests"]:
        extra = test["extra_data"]
        earned, worth = scores.get((extra["module"], extra["function"]), (0.0, 0.0))
        scores[(extra["module"], extra["function"])] = (earned + test["score"], worth + extra["points"])
    return scores


def function_totals(document: dict[str, Any]) -> list[dict[str, Any]]:
    """Per part and function, in contract order: points, outcome counts, failing tests."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    counts: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for test in document["tests"]:
        extra = test["extra_data"]
        key = (extra["part"], extra["function"])
        row = rows.setdefault(key, {"part": extra["part"], "function": extra["function"],
                                    "score": 0.0, "max_score": 0.0, "bonus": extra["bonus"], "failing": []})
        row["score"] += test["score"]
        row["max_score"] += extra["points"]
        counts[key][extra["outcome"]] += 1
        if test["status"] != "passed":
            row["failing"].append(test)
    for key, row in rows.items():
        row["status"] = summarise(counts[key])
    return list(rows.values())


def summarise(counts: dict[str, int]) -> str:
    """One word for a function: passed, not started, timed out, error or failed."""
    total = sum(counts.values())
    if counts.get(Outcome.PASSED.value, 0) == total:
        return Outcome.PASSED.value
    for outcome in (Outcome.GRADER_ERROR, Outcome.NOT_STARTED, Outcome.TIMED_OUT, Outcome.ERROR):
        if counts.get(outcome.value, 0) == total - counts.get(Outcome.PASSED.value, 0):
            return outcome.value
    return Outcome.FAILED.value
