"""Scoring, in one place and pure: what a test earns, what a function earns, the percentage, the bonus.

Every report, the gradebook and the class summary read their numbers here,
from the grade result, so "full marks" or "a bonus point" means the same
thing everywhere.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from autograder.scoring.grade_result import GradeResult, TestResult
from autograder.testing.outcomes import Outcome, TestOutcome

Key = tuple[str, str]  # (module, function)


def test_score(outcome: TestOutcome) -> float:
    """A test earns all its points or none: a property either holds or it does not."""
    return outcome.points if outcome.outcome is Outcome.PASSED else 0.0


def points_number(value: float) -> str:
    """Points as every report and the gradebook write them: 7, 2.5, never 2.4999999."""
    return f"{round(value, 4):g}"


def percent(result: GradeResult) -> float:
    """The score as a percentage of full marks; bonus points can take it past 100."""
    return 100.0 * result.score / result.max_score if result.max_score else 0.0


def regular_percent(result: GradeResult) -> float:
    """The points that count toward 100% (bonus left out), as a percentage of full marks: what a threshold reads,
    so that bonus earned never hides a point lost."""
    return 100.0 * (result.score - bonus_score(result)) / result.max_score if result.max_score else 0.0


def bonus_score(result: GradeResult) -> float:
    return sum(test.score for test in result.tests if test.bonus)


def full_marks(result: GradeResult) -> bool:
    """Every point that counts toward 100% earned: a bonus never makes up for a lost point."""
    return all(test.passed for test in result.tests if not test.bonus)


def function_scores(result: GradeResult) -> dict[Key, tuple[float, float]]:
    """Per (module, function): the points earned and the points its tests are worth (bonus included)."""
    scores: dict[Key, tuple[float, float]] = {}
    for test in result.tests:
        earned, worth = scores.get((test.module, test.function), (0.0, 0.0))
        scores[(test.module, test.function)] = (earned + test.score, worth + test.points)
    return scores


@dataclass
class FunctionTotal:
    """One function's line in a report: its points, one word for how it did, and its failing tests."""

    part: str
    function: str
    bonus: bool
    score: float = 0.0
    max_score: float = 0.0
    status: Outcome = Outcome.PASSED
    failing: list[TestResult] = field(default_factory=list)


def function_totals(result: GradeResult) -> list[FunctionTotal]:
    """Per part and function, in the result's (contract) order."""
    rows: dict[Key, FunctionTotal] = {}
    counts: dict[Key, dict[Outcome, int]] = defaultdict(lambda: defaultdict(int))
    for test in result.tests:
        key = (test.part, test.function)
        row = rows.get(key)
        if row is None:  # made once a function, not once a test: every report of a class reads these
            row = rows[key] = FunctionTotal(test.part, test.function, test.bonus)
        row.score += test.score
        row.max_score += test.points
        counts[key][test.outcome] += 1
        if not test.passed:
            row.failing.append(test)
    for key, row in rows.items():
        row.status = summarise(counts[key])
    return list(rows.values())


# When every test of a function that did not pass ended one way, that way names the function.
SUMMARY_ORDER = (
    Outcome.GRADER_ERROR,
    Outcome.REFUSED,
    Outcome.NOT_STARTED,
    Outcome.TIMED_OUT,
    Outcome.CRASHED,
    Outcome.ERROR,
)


def summarise(counts: dict[Outcome, int]) -> Outcome:
    """One word for a function: passed, refused, not started, timed out, crashed, error or failed."""
    total = sum(counts.values())
    missed = total - counts.get(Outcome.PASSED, 0)
    if not missed:
        return Outcome.PASSED
    for outcome in SUMMARY_ORDER:
        if counts.get(outcome, 0) == missed:
            return outcome
    return Outcome.FAILED
