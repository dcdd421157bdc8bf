"""Points per function, read off the graded suite itself (the points live on the tests)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from autograder.atomic_files import write_atomically
from autograder.parts import PARTS, Part
from autograder.run_errors import RunError
from autograder.scoring import points_cache
from autograder.scoring.course_points import CoursePoints
from autograder.testing.suites import suite_path

if TYPE_CHECKING:  # pytest and the plugin only where the suite is collected: a merge reads its points kept
    import pytest

Key = tuple[str, str]  # (module, function)
TABLE_HEADER = "| part | function | points |"  # the first line of the points table, in the README too


@dataclass(frozen=True)
class SuitePoints:
    """What each function's tests are worth, and which functions are extra credit."""

    worth: dict[Key, float]
    bonus: frozenset[Key]

    def of(self, key: Key) -> float:
        return self.worth.get(key, 0.0)

    def counted(self, key: Key) -> float:
        """What the function counts toward full marks: its worth, or 0 for a bonus (as an nbgrader cell has it)."""
        return 0.0 if key in self.bonus else self.of(key)

    @property
    def full_marks(self) -> float:
        """The most a submission can score without bonus: 100%."""
        return sum(self.counted(key) for key in self.worth)

    @property
    def bonus_total(self) -> float:
        return sum(value for key, value in self.worth.items() if key in self.bonus)

    @property
    def parts(self) -> list[Part]:
        """The parts these points cover, in contract order."""
        modules = {module for module, _ in self.worth}
        return [part for part in PARTS if part.module in modules]

    def of_parts(self, modules: tuple[str, ...]) -> SuitePoints:
        """The points of these part modules only (an assignment of some parts); all of them for ()."""
        if not modules:
            return self
        return SuitePoints(
            {key: value for key, value in self.worth.items() if key[0] in modules},
            frozenset(key for key in self.bonus if key[0] in modules),
        )


class CoursePointsError(RunError, ValueError):
    """The course file names a test the suite does not have; the message names it and the fix."""


class PointsTableMissing(RunError, ValueError):
    """The Markdown file ``grade points --update`` rewrites holds no points table, or more than one."""


class _Collector:
    def __init__(self) -> None:
        self.tests: list[tuple[str, str, str, float]] = []  # (module, function, test, its mark's points)
        self.bonus: set[Key] = set()

    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        from autograder.testing.plugin import test_location

        for item in items:
            module, function = test_location(Path(str(item.path)))
            marker = item.get_closest_marker("points")
            self.tests.append((module, function, item.name, float(marker.args[0]) if marker else 0.0))
            if item.get_closest_marker("bonus") is not None:
                self.bonus.add((module, function))


def suite_points(suite: str = "hidden", course: CoursePoints | None = None) -> SuitePoints:
    """What each function of ``suite`` is worth: its tests' marks, or what the ``course`` file gives instead.

    CoursePointsError where the course file names a test of the hidden suite that it does not have (the public
    suite's tests are others: a hidden test's name means nothing there)."""
    course = course or CoursePoints()
    tests, bonus = suite_tests(suite)
    unknown = course.unmatched((module, function, test) for module, function, test, _ in tests)
    if unknown and suite == "hidden":
        raise CoursePointsError(
            f"no such test in the hidden suite: {', '.join(unknown)}; name a test as module.function::test_name, "
            "as a course file made by `grade make-course` lists them"
        )
    worth: dict[Key, float] = defaultdict(float)
    for (module, function, _, _), value in zip(tests, course.worth(tests), strict=True):
        worth[(module, function)] += value
    return SuitePoints(dict(worth), bonus)


def suite_tests(suite: str = "hidden") -> tuple[list[tuple[str, str, str, float]], frozenset[Key]]:
    """Every test of ``suite`` as (module, function, pytest's name, its mark's points), in the suite's order,
    and the bonus functions: as the suite was collected last time it was as it is now (points_cache), else
    collected now."""
    folder = suite_path(suite)
    kept = points_cache.load(folder)
    if kept is not None:
        return kept
    tests, bonus = _collect_tests(folder)
    points_cache.save(folder, tests, bonus)
    return tests, bonus


def _collect_tests(folder: Path) -> tuple[list[tuple[str, str, str, float]], frozenset[Key]]:
    from autograder.testing.collected import forget_suite_modules
    from autograder.testing.runner import run_suite_session

    collector = _Collector()
    # Collected only, so with plain asserts: rewriting them was a third of the time. The modules loaded so
    # are dropped after, so that a grading later in this process loads its tests with their asserts rewritten.
    run_suite_session(folder, collector, "--collect-only", "--assert=plain")
    forget_suite_modules(folder, keep_its_own=False)
    return collector.tests, frozenset(collector.bonus)


def points_table(suite: str = "hidden", course: CoursePoints | None = None) -> str:
    """A Markdown table of points per part and function, for the README."""
    points = suite_points(suite, course)
    lines = [TABLE_HEADER, "| --- | --- | ---: |"]
    for part in PARTS:
        for function in part.functions:
            key = (part.module, function)
            worth = f"{points.of(key):g}" + (" bonus" if key in points.bonus else "")
            lines.append(f"| {part.number}. {part.title} | `{function}` | {worth} |")
    bonus = f" + {points.bonus_total:g} bonus" if points.bonus_total else ""
    lines.append(f"| | **total** | **{points.full_marks:g}**{bonus} |")
    return "\n".join(lines)


def update_points_table(document: Path, suite: str = "hidden", course: CoursePoints | None = None) -> bool:
    """Replace the points table in ``document`` (a Markdown file) with the suite's; True if it changed.

    The table is the block of ``|`` lines that starts with ``TABLE_HEADER``.
    """
    lines = document.read_text(encoding="utf-8").splitlines(keepends=True)
    starts = [index for index, line in enumerate(lines) if line.rstrip("\n") == TABLE_HEADER]
    if len(starts) != 1:
        raise PointsTableMissing(
            f"{document}: expected one line {TABLE_HEADER!r} to start the points table, found {len(starts)}"
        )
    end = starts[0]
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    table = points_table(suite, course) + "\n"
    if "".join(lines[starts[0] : end]) == table:
        return False
    write_atomically(document, "".join([*lines[: starts[0]], table, *lines[end:]]))
    return True
