"""What every feedback report says, in what order: shared by the terminal, Markdown and HTML.

One fix per message: a file that does not load is one entry (its error
once, not once per test of every function in it), and functions not
started yet are one line (a fresh release is not 141 entries). A part whose
functions are all not started is one row of the table.
"""

from __future__ import annotations

from dataclasses import dataclass

from autograder.scoring.grade_result import GradeResult, TestResult
from autograder.scoring.scoring import FunctionTotal, function_totals, points_number
from autograder.testing.outcomes import Outcome


@dataclass(frozen=True)
class Row:
    """A line of the score table: one function, or a whole part not started yet."""

    part: str
    function: str  # "" for a whole part
    status: Outcome
    points: str  # "3 / 5", "0 / 12 bonus"


@dataclass(frozen=True)
class Entry:
    """Something to fix: a title, and the text that explains it."""

    title: str
    text: str
    outcome: Outcome
    module: str = ""
    function: str = ""  # "" for a file that does not load


def rows(result: GradeResult) -> list[Row]:
    totals = function_totals(result)
    found: list[Row] = []
    for part in dict.fromkeys(total.part for total in totals):
        of_part = [total for total in totals if total.part == part]
        if len(of_part) > 1 and all(total.status is Outcome.NOT_STARTED for total in of_part):
            worth = points_number(sum(total.max_score for total in of_part if not total.bonus))
            bonus = sum(total.max_score for total in of_part if total.bonus)
            extra = f" + {points_number(bonus)} bonus" if bonus else ""
            found.append(Row(part, "", Outcome.NOT_STARTED, f"0 / {worth}{extra}"))
        else:
            found += [Row(part, total.function, total.status, points_text(total)) for total in of_part]
    return found


def points_text(row: FunctionTotal) -> str:
    """A function's points as every report shows them: "3 / 5", or "3 / 5 bonus" for extra credit."""
    return f"{points_number(row.score)} / {points_number(row.max_score)}" + (" bonus" if row.bonus else "")


def entries(result: GradeResult) -> list[Entry]:
    """What to fix, in contract order: each failing test, but a file that does not load once."""
    order: list[TestResult | tuple[str, str]] = []  # a test, or (module, error) for a file that does not load
    hit: dict[tuple[str, str], list[str]] = {}
    refused: set[tuple[str, str]] = set()  # files whose code the policy refused: not run at all
    for test in result.tests:
        if test.passed or test.outcome is Outcome.NOT_STARTED:
            continue
        if not test.load_failed:
            order.append(test)
            continue
        key = (test.module, test.detail or test.summary or "")  # in a scores view, the kit's words
        if key not in hit:
            hit[key] = []
            order.append(key)
        if test.outcome is Outcome.REFUSED:
            refused.add(key)
        hit[key].append(test.function)
    found = []
    for item in order:
        if isinstance(item, tuple):
            names = ", ".join(dict.fromkeys(hit[item]))
            if item[1].startswith(("notebook cell ", "a cell of ")):  # the kit's words for a cell that did not run
                text = f"error: {item[1]}\nfix this first: {names} scored 0: not defined, since that cell did not run"
                found.append(Entry(f"{item[0]}: a notebook cell does not run", text, Outcome.ERROR, item[0]))
                continue
            if item in refused:
                text = f"refused: {item[1]}\nfix this first: every test of {names} scores 0 until it is plain Python"
                found.append(Entry(f"{item[0]}: refused by the plain-Python policy", text, Outcome.REFUSED, item[0]))
                continue
            text = f"error: {item[1]}\nfix this first: every test of {names} scores 0 until {item[0]} loads"
            found.append(Entry(f"{item[0]}: does not load", text, Outcome.ERROR, item[0]))
        else:
            title = f"{item.function}: {item.doc}"
            found.append(Entry(title, item.output, item.outcome, item.module, item.function))
    return found


def passing_entries(result: GradeResult) -> list[Entry]:
    """Each passed test with its call: what a batch's ``--feedback full`` shows besides what to fix."""
    found = []
    for test in result.tests:
        if test.passed:
            text = f"call: {test.call}" if test.call else ""
            found.append(Entry(f"{test.function}: {test.doc}", text, Outcome.PASSED, test.module, test.function))
    return found


def adjustment_rows(result: GradeResult) -> list[tuple[str, str, str]]:
    """The instructor's adjustments as (what, points, comment): "+2", "-1.5", or "= 85" for a total set by hand."""
    return [
        (
            entry.target,
            f"= {points_number(entry.points)}"
            if entry.total
            else f"{'+' if entry.points >= 0 else '-'}{points_number(abs(entry.points))}",
            entry.comment,
        )
        for entry in result.adjustments or ()
    ]


def late_line(result: GradeResult) -> str:
    """What handing in late cost, in one sentence; "" for a hand-in that was not late."""
    if result.late is None:
        return ""
    cost = f"-{points_number(result.late.penalty)} points" if result.late.penalty else "no points taken"
    return f"You {result.late.said}: {cost} (the late rule: {result.late.rule})."


def not_started_line(result: GradeResult) -> str:
    """One line for every test not started yet, or "" when there is none."""
    idle = [test for test in result.tests if test.outcome is Outcome.NOT_STARTED]
    if not idle:
        return ""
    functions = set((test.module, test.function) for test in idle)  # Parts 2 to 5 share function names
    tests = f"{len(idle)} test" + ("s" if len(idle) != 1 else "")
    of = f"{len(functions)} function" + ("s" if len(functions) != 1 else "")
    still = "it still raises" if len(functions) == 1 else "they still raise"
    return f"{tests} of {of} not started: {still} NotImplementedError (or are not in your files yet)"
