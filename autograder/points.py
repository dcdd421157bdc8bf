"""Points per function, read off the graded suite itself (the points live on the tests)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from autograder.parts import PARTS
from autograder.plugin import test_location
from autograder.suites import suite_path


class _Collector:
    def __init__(self) -> None:
        self.points: dict[tuple[str, str], float] = defaultdict(float)

    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        for item in items:
            marker = item.get_closest_marker("points")
            self.points[test_location(Path(str(item.path)))] += float(marker.args[0]) if marker else 0.0


def points_per_function(suite: str = "hidden") -> dict[tuple[str, str], float]:
    from autograder.runner import run_suite_session

    collector = _Collector()
    run_suite_session(suite_path(suite), collector, "--collect-only")
    return dict(collector.points)


def points_table(suite: str = "hidden") -> str:
    """A Markdown table of points per part and function, for the README."""
    points = points_per_function(suite)
    lines = ["| part | function | points |", "| --- | --- | ---: |"]
    for part in PARTS:
        for function in part.functions:
            lines.append(f"| {part.number}. {part.title} | `{function}` | {points.get((part.module, function), 0):g} |")
    lines.append(f"| | **total** | **{sum(points.values()):g}** |")
    return "\n".join(lines)
