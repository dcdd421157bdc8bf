"""Read back what a grading wrote (a results.json, a batch's gradebook), and what a perfect hand-in scores."""

from __future__ import annotations

import csv
import functools
import re
from pathlib import Path
from typing import Any

from autograder.scoring import scoring
from autograder.scoring.grade_result import GradeResult
from autograder.scoring.points import SuitePoints, suite_points

# A results.json as the kit wrote it, read back as plain JSON: what the tests check is the file itself.
Results = dict[str, Any]


def function_scores(document: Results) -> dict[tuple[str, str], tuple[float, float]]:
    """The kit's own scoring of a results.json: per (module, function), the points earned and worth."""
    return scoring.function_scores(GradeResult.from_json(document))


# A test timed against the reference in the same run: on a loaded machine the timing harness's own steps (how
# often it timed, which call it kept) and, near the bound, its verdict vary from run to run.
TIMED = re.compile(r"times faster than|the reference's time|timed in this run")


def timed(test: dict[str, Any]) -> bool:
    """Whether a results.json's test is timed against the reference in the same run (TIMED)."""
    return bool(TIMED.search(test["extra_data"].get("doc", "")))


def outcomes(document: Results) -> set[str]:
    return {test["extra_data"]["outcome"] for test in document["tests"]}


def gradebook_rows(out: Path) -> dict[str, dict[str, str]]:
    """A batch's gradebook.csv, one row per student id."""
    with (out / "gradebook.csv").open(encoding="utf-8", newline="") as stream:
        return {row["id"]: row for row in csv.DictReader(stream)}


@functools.cache
def hidden_points() -> SuitePoints:
    return suite_points("hidden")


@functools.cache
def public_points() -> SuitePoints:
    return suite_points("public")


def full_marks(*modules: str, bonus: bool = True, suite: str = "hidden") -> str:
    """What a perfect hand-in of these part modules (or of all) scores with ``suite``, as the gradebook writes it.

    Bonus points count unless ``bonus=False`` (the points possible, 100%).
    """
    points = hidden_points() if suite == "hidden" else public_points()
    chosen = [
        value
        for key, value in points.worth.items()
        if (not modules or key[0] in modules) and (bonus or key not in points.bonus)
    ]
    return f"{sum(chosen):g}"
