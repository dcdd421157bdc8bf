"""The course file's points: what it changes of the tests' own ``@pytest.mark.points``, and nothing else.

A function given points is worth that many, split evenly over its tests (each case of a parametrized test
is a test), or in the proportions its tests' weights give; a test given points is worth that many (each
case). Every test the course file does not name keeps its mark, so the tests stay the one source of the
points the course does not change.

Applied to a graded result (``repointed``) as to a collected suite (``points.suite_points``): a test earns
all its points or none, so a result is re-pointed from its outcomes alone, without grading again.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from autograder.scoring.grade_result import GradeResult, TestResult

Key = tuple[str, str]  # (module, function)
TestKey = tuple[str, str, str]  # (module, function, test function): every case of a parametrized test


def test_function(test: str) -> str:
    """pytest's name for a test without a parametrized case's ``[id]``: ``test_x[a-b]`` is ``test_x``."""
    return test.split("[", 1)[0]


@dataclass(frozen=True)
class CoursePoints:
    """Points the course file gives: per function (``functions``), per test (``tests``), and how a function's
    points are split over its tests (``weights``, relative, 1 where not given)."""

    functions: Mapping[Key, float] = field(default_factory=dict)
    tests: Mapping[TestKey, float] = field(default_factory=dict)
    weights: Mapping[TestKey, float] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.functions or self.tests)

    def digest(self) -> str:
        """What these points are, as a digest: a result graded under other points is graded again."""
        if not self:
            return ""
        settings = {
            "functions": sorted([*key, value] for key, value in self.functions.items()),
            "tests": sorted([*key, value] for key, value in self.tests.items()),
            "weights": sorted([*key, value] for key, value in self.weights.items()),
        }
        return hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()

    def worth(self, tests: Sequence[tuple[str, str, str, float]]) -> list[float]:
        """The points of each of ``tests`` as (module, function, pytest's test name, its mark's points), in order."""
        worth = [marked for *_, marked in tests]
        by_function: dict[Key, list[int]] = defaultdict(list)
        for index, (module, function, _, _) in enumerate(tests):
            by_function[(module, function)].append(index)
        for (module, function), indices in by_function.items():
            total = self.functions.get((module, function))
            if total is None:
                for index in indices:
                    worth[index] = self.tests.get((module, function, test_function(tests[index][2])), worth[index])
                continue
            weights = [self.weights.get((module, function, test_function(tests[index][2])), 1.0) for index in indices]
            whole = sum(weights)
            for index, weight in zip(indices, weights, strict=True):
                worth[index] = total * weight / whole if whole else 0.0
        return worth

    def unmatched(self, tests: Iterable[tuple[str, str, str]]) -> list[str]:
        """The test keys (points or weights) that name no test of ``tests`` (module, function, pytest's name)."""
        present = {(module, function, test_function(test)) for module, function, test in tests}
        named = [*self.tests, *self.weights]
        return sorted({f"{module}.{function}::{test}" for module, function, test in named} - _spelled(present))


def _spelled(keys: set[TestKey]) -> set[str]:
    return {f"{module}.{function}::{test}" for module, function, test in keys}


def repointed(result: GradeResult, points: CoursePoints) -> GradeResult:
    """``result`` with each test worth what ``points`` says: its score all or nothing by its outcome, a bonus
    test's max_score 0 as ever, and the totals summed again."""
    if not points:
        return result
    tests = repointed_tests(result.tests, points)
    return replace(
        result,
        tests=tests,
        score=round(sum(test.score for test in tests), 4),
        max_score=round(sum(test.max_score for test in tests), 4),
    )


def repointed_tests(tests: Sequence[TestResult], points: CoursePoints) -> tuple[TestResult, ...]:
    if not points:
        return tuple(tests)
    worth = points.worth([(test.module, test.function, test.test, test.points) for test in tests])
    return tuple(
        replace(
            test,
            points=value,
            score=value if test.passed else 0.0,
            max_score=0.0 if test.bonus else value,
        )
        for test, value in zip(tests, worth, strict=True)
    )
