"""Grade one submission: copy it into a cage, start its worker, run the suite in-process."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from autograder.cage.cage_limits import CageLimits
from autograder.cage.client import Worker
from autograder.cage.isolation import isolation_notice
from autograder.cage.starting import StartedWorker, discard, start_worker
from autograder.hand_in.loaded import LoadedHandIn, hand_in_hash
from autograder.testing.collected import forget_suite_modules, session_arguments, suite_surroundings
from autograder.testing.example_sets import course_secret, example_set, seed
from autograder.testing.grader import Grader
from autograder.testing.outcomes import GradingRun, Outcome, TestOutcome, Visibility
from autograder.testing.plugin import GradingPlugin
from autograder.testing.proxy import GradingSession
from autograder.testing.student_output import (
    CELL_RAISED,
    MESSAGE_PER_TEST,
    PRINTED_PER_TEST,
    PRINTED_WHILE_LOADING,
    WROTE_OUTSIDE_CALLS,
    cut,
)


def grade_hand_in(
    submission: LoadedHandIn, suite: Path, *, limits: CageLimits, grader: Grader, only: tuple[Path, ...] = ()
) -> GradingRun:
    """Grade with every test of ``suite``, or with only the test files ``only`` (a notebook's check of one function)."""
    return grade_started(start_worker(submission, limits, grader=grader), suite, grader, only=only)


def grade_started(started: StartedWorker, suite: Path, grader: Grader, *, only: tuple[Path, ...] = ()) -> GradingRun:
    """Run the suite against a worker that ``start_worker`` set booting (before pytest was imported), with what
    ``grader`` keeps from the hand-ins it graded before (the suite collected, the examples, the call plans)."""
    submission, cage, worker, limits = started.submission, started.cage, started.worker, started.limits
    notes = list(submission.notes)
    notice = isolation_notice()
    if notice:
        notes.append(notice)
    notes.extend(cage.notices)
    try:
        examples = _examples(submission, suite)
        # The hidden suite's feedback shows no call of a test the student passed: what student code made in a
        # process that served such a test is dropped, and a test that fails there runs again apart.
        hidden = examples is not None
        worker.guarding = hidden
        session = GradingSession(worker, limits, plans=grader.plans)
        plugin = GradingPlugin(session, examples=examples, isolate_failures=hidden, recorded=grader.examples)
        errors = grader.run(suite, plugin, only)
        worker.end_process()  # the last part's process: what it wrote past its calls is then passed on
        report, read = _load_report(worker)
        from_code = [*report, *worker.notices]  # the worker's words: student code can shape any of them
    finally:
        discard(worker)
    # Read once the worker is gone: all it wrote is in by then. Not in the hidden suite: a process writes it
    # whenever it likes, after the examples of a property it then fails, whose words are shown only where
    # they are that failing example's own (own_words); what a call prints is its output, compared there.
    stray = "" if hidden else worker.stray_text()
    if stray:
        from_code.append(f"{WROTE_OUTSIDE_CALLS}\n" + cut(stray, PRINTED_PER_TEST))
    outcomes = list(plugin.outcomes)
    # A cell whose failure is a test's error (the functions it defines) is said there: once is enough.
    said = {outcome.detail for outcome in outcomes if outcome.outcome is Outcome.ERROR}
    from_code = [note for note in from_code if note not in said]
    notes.extend(from_code)
    for error in errors:
        outcomes.append(
            TestOutcome(
                name="collection",
                doc="the grader could not load its tests",
                module="",
                function="",
                points=0.0,
                visibility=Visibility.VISIBLE,
                outcome=Outcome.GRADER_ERROR,
                detail=error,
            )
        )
    return GradingRun(
        submission=submission.name,
        suite=suite.name,
        outcomes=tuple(outcomes),
        notes=tuple(notes),
        seconds=time.monotonic() - started.since,
        student_seconds=plugin.session.used,
        read=read,
        from_code=tuple(from_code),
        loaded=submission,
    )


def _examples(submission: LoadedHandIn, suite: Path) -> tuple[int, int] | None:
    """The hidden suite's example set for this hand-in and its seed (example_sets); the public suite's are fixed."""
    if suite.name != "hidden":
        return None
    secret = course_secret()
    chosen = example_set(secret, hand_in_hash(submission))
    return chosen, seed(secret, chosen)


def run_suite_session(
    suite: Path, plugin: object, *arguments: str, only: tuple[Path, ...] = ()
) -> tuple[int | pytest.ExitCode, str]:
    """One quiet in-process ``pytest.main`` over a graded suite (or its files ``only``), with only ``plugin``
    added (for a look at the suite without grading, such as its points); pytest's exit code, what it printed."""
    forget_suite_modules(suite, keep_its_own=True)
    with suite_surroundings() as log:
        code = pytest.main(session_arguments(suite, only, "-q", *arguments), plugins=[plugin])
    return code, log.getvalue()


def _load_report(worker: Worker) -> tuple[list[str], dict[str, tuple[str, ...]] | None]:
    """What the worker's processes said as they loaded the hand-in, before any call (printed output,
    notebook cells that raised); and the hand-in's files read, by the part whose call read them: None where
    that is not known whole (a worker that ended took the reads it had not yet reported along)."""
    notes = [f"{PRINTED_WHILE_LOADING}\n" + cut(printed, PRINTED_PER_TEST) for printed in worker.printed_while_loading]
    for cell in worker.cell_reports:
        raised = CELL_RAISED.format(cell=cut(str(cell.get("cell")), 100), type=cut(str(cell.get("type")), 100))
        notes.append(f"{raised}: {cut(str(cell.get('message')), MESSAGE_PER_TEST)}")
    if worker.starts != 1:
        return notes, None
    return notes, {module: tuple(sorted(names)) for module, names in worker.read.items()}
