"""A grading run made into its result (``GradeResult``), which every report is rendered from."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from autograder.parts import PARTS, part_of
from autograder.scoring.call_graph import roots
from autograder.scoring.grade_result import GradeResult, TestResult, TestStatus
from autograder.scoring.scoring import test_score
from autograder.scoring.student_text import visible
from autograder.testing.outcomes import GradingRun, Outcome, TestOutcome
from autograder.testing.own_words import withheld_sentence


def build_result(run: GradingRun) -> GradeResult:
    """The result of one run, in Gradescope's terms with the kit's own beside them.

    Every text that student code or a student's file names can shape is made ``visible`` here, once, so
    no report rendered from the result (terminal, Markdown, HTML, Gradescope's page) can be made to act.
    """
    tests = tuple(_test_result(outcome) for outcome in _with_roots(run, _in_contract_order(run.outcomes)))
    # Gradescope's extra credit: a bonus test is worth 0 and scores above it,
    # so full marks never need it and what it earns comes on top.
    return GradeResult(
        score=round(sum(test.score for test in tests), 4),
        max_score=round(sum(test.max_score for test in tests), 4),
        execution_time=round(run.seconds, 3),
        output=visible("\n".join(run.notes)),
        tests=tests,
        submission=visible(run.submission),
        suite=run.suite,
        notes=tuple(visible(note) for note in run.notes),
        from_code=tuple(visible(note) for note in run.from_code),
        student_seconds=round(run.student_seconds, 3),
        read=None if run.read is None else {part: tuple(names) for part, names in run.read.items()},
    )


def _in_contract_order(outcomes: tuple[TestOutcome, ...]) -> list[TestOutcome]:
    order = {
        (part.module, function): (part.number, index) for part in PARTS for index, function in enumerate(part.functions)
    }
    return sorted(outcomes, key=lambda outcome: order.get((outcome.module, outcome.function), (99, 99)))


# What a function's own failure is, for the purpose of blaming it first (not started is no failure).
FAILING = (Outcome.FAILED, Outcome.ERROR, Outcome.CRASHED, Outcome.TIMED_OUT, Outcome.REFUSED)


def _with_roots(run: GradingRun, outcomes: list[TestOutcome]) -> list[TestOutcome]:
    """Each failing test of a function that calls the student's own failing functions names them."""
    failing = {(outcome.module, outcome.function) for outcome in outcomes if outcome.outcome in FAILING}
    first = roots(run.loaded, failing) if run.loaded is not None else {}
    return [
        replace(outcome, fix_first=", ".join(first[(outcome.module, outcome.function)]))
        if outcome.outcome in FAILING and (outcome.module, outcome.function) in first
        else outcome
        for outcome in outcomes
    ]


def _test_result(outcome: TestOutcome) -> TestResult:
    try:
        part = part_of(outcome.module)
        part_label = f"Part {part.number}: {part.title}"
    except KeyError:
        part_label = "Grader"
    return TestResult(
        name=f"{outcome.function}: {outcome.doc}" if outcome.function else outcome.doc,
        score=test_score(outcome),
        max_score=0.0 if outcome.bonus else outcome.points,
        status=TestStatus.PASSED if outcome.outcome is Outcome.PASSED else TestStatus.FAILED,
        output=visible(feedback_text(outcome)),
        visibility=outcome.visibility,
        tags=(part_label, outcome.function),
        part=part_label,
        module=outcome.module,
        function=outcome.function,
        test=outcome.name,
        points=outcome.points,
        bonus=outcome.bonus,
        doc=outcome.doc,
        outcome=outcome.outcome,
        call=visible(outcome.call),
        expected=visible(outcome.expected),
        got=visible(outcome.got),
        hint=visible(outcome.hint),
        hint_id=outcome.hint_id,
        detail=visible(outcome.detail),
        example=visible(outcome.example),
        load_failed=outcome.load_failed,
        summary=visible(outcome.summary),
        printed=visible(outcome.printed_in_test),
        fix_first=outcome.fix_first,
        withheld=outcome.withheld or None,
    )


def fix_first_sentence(names: list[str], function: str) -> str:
    """Which of the student's own failing functions to fix before ``function``, read right for one or several."""
    if len(names) == 1:
        return f"fix {names[0]}: {function} calls it, and it fails its own tests; this test may pass once it does"
    listed = ", ".join(names[:-1]) + f" and {names[-1]}"
    return f"fix {listed}: {function} calls them, and they fail their own tests; this test may pass once they do"


def feedback_text(outcome: TestOutcome) -> str:
    """What a student reads for one test: the call, expected, got and one hint; of what student code made,
    only what it made on the failing example alone (testing.own_words), the rest said to be withheld."""
    if outcome.outcome is Outcome.PASSED:
        return ""
    if outcome.withheld:
        blank: dict[str, Any] = dict.fromkeys(outcome.withheld, "")
        outcome = replace(outcome, **blank)
    lines = []
    if outcome.call:
        lines.append(f"call:     {outcome.call}")
    if outcome.outcome is Outcome.FAILED:
        if outcome.example:  # a property: the inputs it failed on say more than an expected value
            lines.append(f"example:  {outcome.example}")
        if outcome.expected and not (outcome.example and outcome.expected in ("''", '""')):
            lines.append(f"expected: {outcome.expected}")
        if outcome.got:  # none where the call raised instead of answering (the hint names the error)
            lines.append(f"got:      {outcome.got}")
        if outcome.detail:  # what was seen where no single answer stands for it (two answers to one input)
            lines.append(f"seen:     {outcome.detail}")
        if outcome.hint:
            lines.append(f"hint:     {outcome.hint}")
    elif outcome.outcome is Outcome.GRADER_ERROR:
        lines.append("grader error: this is a bug in the grader, not in your code; tell your instructor")
        lines.append(outcome.detail)
    else:
        lines.append(f"{outcome.outcome.value}: {outcome.detail}" if outcome.detail else outcome.outcome.value)
        if outcome.hint:  # why the call raised, in the student's terms (raised_why)
            lines.append(f"hint:     {outcome.hint}")
    if outcome.fix_first:
        lines.append(f"first:    {fix_first_sentence(outcome.fix_first.split(', '), outcome.function)}")
    if outcome.printed:
        lines.append("your code printed:\n" + outcome.printed.rstrip())
    if outcome.withheld:
        lines.append(f"not shown: {withheld_sentence(outcome.withheld)}")
    return "\n".join(lines)
