"""The terminal report: a table per part, then what to fix. Colour only on a terminal."""

from __future__ import annotations

import io
from itertools import groupby
from typing import Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from autograder.reports import feedback
from autograder.scoring.grade_result import GradeResult
from autograder.scoring.scoring import (
    bonus_score,
    percent,
    points_number,
)
from autograder.testing.outcomes import Outcome

STYLES = {
    Outcome.PASSED: "green",
    Outcome.FAILED: "red",
    Outcome.ERROR: "red",
    Outcome.CRASHED: "red",
    Outcome.TIMED_OUT: "magenta",
    Outcome.NOT_STARTED: "dim",
    Outcome.GRADER_ERROR: "bold yellow",
    Outcome.REFUSED: "red",
}


def renderables(document: GradeResult, seconds: float | None = None) -> Group:
    """The report as rich renderables; ``seconds`` is the wall time to quote, from the command's start (the
    grading's own time where none is given)."""
    parts: list[Any] = []
    for part, rows in groupby(feedback.rows(document), key=lambda row: row.part):
        parts.append(Text(part, style="bold"))
        table = Table(show_edge=False, expand=False)
        table.add_column("function")
        table.add_column("status")
        table.add_column("points", justify="right")
        for row in rows:
            status = Text(row.status.value, style=STYLES[row.status])
            table.add_row(row.function or "(every function)", status, row.points)
        parts.append(table)
        parts.append(Text(""))
    for entry in feedback.entries(document):
        parts.append(Text(f"✗ {entry.title}", style=STYLES[entry.outcome]))
        parts.append(Text("  " + entry.text.replace("\n", "\n  ")))
    idle = feedback.not_started_line(document)
    if idle:
        parts.append(Text(idle + ".", style="dim"))
    if document.output:
        parts.append(Text(document.output, style="yellow"))
    took = document.execution_time if seconds is None else seconds
    total = Text(f"{score_text(document)}. Took {took:.1f} s.", style="bold")
    parts.append(total)
    return Group(*parts)


def score_text(document: GradeResult) -> str:
    """The score line of every report; bonus points are counted in and named."""
    earned = bonus_score(document)
    worth = sum(test.points for test in document.tests)
    if not document.max_score and worth:  # bonus tests alone, as a notebook's check of a bonus function
        return f"Bonus: {points_number(earned)} / {points_number(worth)} ({100 * earned / worth:.0f}%)"
    bonus = f", {points_number(earned)} of them bonus" if earned else ""
    score, most = points_number(document.score), points_number(document.max_score)
    if document.suite == "public":  # a sample of the tests: say so where the score is
        passed, count = sum(test.passed for test in document.tests), len(document.tests)
        shown = f"{score} / {most} points ({percent(document):.0f}%{bonus})"
        return f"Public checks: {passed} of {count} passed, {shown}; your course grade comes from the hidden tests"
    return f"Score: {score} / {most} ({percent(document):.0f}%{bonus})"


def render(document: GradeResult) -> str:
    buffer = io.StringIO()
    console = Console(file=buffer, width=100, color_system=None, force_terminal=False, highlight=False)
    console.print(renderables(document))
    return buffer.getvalue()
