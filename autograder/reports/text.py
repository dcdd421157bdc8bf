"""The terminal report: a table per part, then what to fix. Colour only on a terminal."""

from __future__ import annotations

import io
from itertools import groupby
from typing import Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from autograder.engine.document import ResultsDocument
from autograder.engine.outcomes import Outcome
from autograder.engine.scoring import (
    FunctionTotal,
    bonus_score,
    function_totals,
    outcome_of,
    passed,
    percent,
    points_number,
)

STYLES = {
    Outcome.PASSED: "green",
    Outcome.FAILED: "red",
    Outcome.ERROR: "red",
    Outcome.CRASHED: "red",
    Outcome.TIMED_OUT: "magenta",
    Outcome.NOT_STARTED: "dim",
    Outcome.GRADER_ERROR: "bold yellow",
}


def renderables(document: ResultsDocument) -> Group:
    parts: list[Any] = []
    rows = function_totals(document)
    for part, functions in groupby(rows, key=lambda row: row.part):
        parts.append(Text(part, style="bold"))
        table = Table(show_edge=False, expand=False)
        table.add_column("function")
        table.add_column("status")
        table.add_column("points", justify="right")
        for row in functions:
            status = Text(row.status.value, style=STYLES[row.status])
            table.add_row(row.function, status, points_text(row))
        parts.append(table)
        parts.append(Text(""))
    failing = [test for test in document["tests"] if not passed(test)]
    shown = [test for test in failing if outcome_of(test) is not Outcome.NOT_STARTED]
    for test in shown:
        extra = test["extra_data"]
        parts.append(Text(f"✗ {extra['function']}: {extra['doc']}", style=STYLES[outcome_of(test)]))
        parts.append(Text("  " + test["output"].replace("\n", "\n  ")))
    not_started = len(failing) - len(shown)
    if not_started:
        parts.append(
            Text(f"{not_started} test(s) not started: those functions still raise NotImplementedError.", style="dim")
        )
    if document.get("output"):
        parts.append(Text(document["output"], style="yellow"))
    total = Text(f"{score_text(document)}  in {document['execution_time']:.1f} s", style="bold")
    parts.append(total)
    return Group(*parts)


def points_text(row: FunctionTotal) -> str:
    """A function's points as every report shows them: "3 / 5", or "3 / 5 bonus" for extra credit."""
    return f"{points_number(row.score)} / {points_number(row.max_score)}" + (" bonus" if row.bonus else "")


def score_text(document: ResultsDocument) -> str:
    """The score line of every report; bonus points are counted in and named."""
    earned = bonus_score(document)
    worth = sum(test["extra_data"]["points"] for test in document["tests"])
    if not document["max_score"] and worth:  # bonus tests alone, as a notebook's check of a bonus function
        return f"Bonus: {points_number(earned)} / {points_number(worth)} ({100 * earned / worth:.0f}%)"
    bonus = f", {points_number(earned)} of them bonus" if earned else ""
    score, most = points_number(document["score"]), points_number(document["max_score"])
    return f"Score: {score} / {most} ({percent(document):.0f}%{bonus})"


def render(document: ResultsDocument) -> str:
    buffer = io.StringIO()
    console = Console(file=buffer, width=100, color_system=None, force_terminal=False, highlight=False)
    console.print(renderables(document))
    return buffer.getvalue()
