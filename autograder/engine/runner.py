"""Grade one submission: copy it into a cage, start its worker, run the suite in-process."""

from __future__ import annotations

import contextlib
import io
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from autograder.engine.call_graph import student_calls
from autograder.engine.outcomes import GradingRun, Outcome, TestOutcome
from autograder.engine.plugin import GradingPlugin
from autograder.engine.proxy import GradingSession
from autograder.engine.submission import LoadedSubmission
from autograder.engine.worker import protocol
from autograder.engine.worker.cage import grader_folder
from autograder.engine.worker.client import Worker, WorkerCouldNotStart, WorkerGone, WorkerTimedOut
from autograder.engine.worker.isolation import isolation_notice
from autograder.engine.worker.limits import Limits
from autograder.engine.worker.starting import StartedWorker, start_worker

GRADING_INI = Path(__file__).parents[1] / "grading.ini"  # package data, beside cli.py
# pytest's own plugins that a grading never uses. Each one's hooks run for every phase of every test (a
# hundred tests, three phases each) and at the session's start: together they were a tenth of a correct
# hand-in's grading. unraisableexception and threadexception also run gc.collect() several times per
# session; capture swaps sys.stdout around every test, when nothing a test prints is kept (the student's
# output is the worker's, and run_suite_session keeps what pytest prints); warnings, logging and the rest
# catch what no graded test makes or reports.
UNUSED_PLUGINS = (
    "capture",
    "debugging",
    "doctest",
    "faulthandler",
    "junitxml",
    "legacypath",
    "logging",
    "monkeypatch",
    "pastebin",
    "python_path",
    "recwarn",
    "setuponly",
    "setupplan",
    "stepwise",
    "threadexception",
    "tmpdir",
    "unraisableexception",
    "warnings",
)


def grade_submission(
    submission: LoadedSubmission, suite: Path, *, limits: Limits, only: tuple[Path, ...] = ()
) -> GradingRun:
    """Grade with every test of ``suite``, or with only the test files ``only`` (a notebook's check of one function)."""
    return grade_started(start_worker(submission, limits), suite, only=only)


def grade_started(started: StartedWorker, suite: Path, *, only: tuple[Path, ...] = ()) -> GradingRun:
    """Run the suite against a worker that ``start_worker`` set booting (before pytest was imported)."""
    submission, cage, worker, limits = started.submission, started.cage, started.worker, started.limits
    notes = list(submission.notes)
    notice = isolation_notice()
    if notice:
        notes.append(notice)
    notes.extend(cage.notices)
    try:
        plugin = GradingPlugin(GradingSession(worker, limits))
        errors = run_pytest(suite, plugin, only)
        notes.extend(_load_report(worker))
        notes.extend(worker.notices)
        stray = b"".join(worker.stray_output).decode("utf-8", "replace").strip()
        if stray:
            notes.append("your code wrote this outside of any call:\n" + stray[-2000:])
    finally:
        worker.stop()
        cage.remove()
    outcomes = list(plugin.outcomes)
    for error in errors:
        outcomes.append(
            TestOutcome(
                name="collection",
                doc="the grader could not load its tests",
                module="",
                function="",
                points=0.0,
                visibility="visible",
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
        calls=student_calls(submission),
    )


def run_pytest(suite: Path, plugin: GradingPlugin, only: tuple[Path, ...] = ()) -> list[str]:
    """Run a graded suite (or some of its files) in this process; return collection errors (ours)."""
    code, log = run_suite_session(
        suite,
        plugin,
        "--tb=line",
        *(argument for plugin_name in UNUSED_PLUGINS for argument in ("-p", f"no:{plugin_name}")),
        only=only,
    )
    if plugin.interrupted:
        raise KeyboardInterrupt  # Ctrl-C: no report at all rather than one of a half-run
    errors = list(plugin.collection_errors)
    if code not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED) and not errors:
        errors.append(f"pytest ended with {code!r}:\n{log[-2000:]}")
    return errors


def run_suite_session(
    suite: Path, plugin: object, *arguments: str, only: tuple[Path, ...] = ()
) -> tuple[int | pytest.ExitCode, str]:
    """One quiet in-process pytest session over a graded suite (or its files ``only``), with only ``plugin`` added.

    Returns pytest's exit code and what it printed. Nothing from the kit's
    pyproject.toml, a student's folder or other installed pytest plugins
    applies (pytest-benchmark, for one, writes a .benchmarks folder into the
    working directory), and rewritten test modules are cached under the
    temp folder, never beside the tests or the submission.
    """
    # The root is the folder above the suite: test modules are named after their path from it
    # (hidden.bpe.test_encode), and pytest's importlib mode reuses a module of the same name
    # from an earlier session in this process, so the public suite must never name its files
    # as the hidden one does (a notebook's check runs both, one after the other).
    command = [
        *map(str, only or (suite,)),
        "-c",
        str(GRADING_INI),
        "--rootdir",
        str(suite.parent),
        "-q",
        "-p",
        "no:cacheprovider",
        "--import-mode=importlib",
        *arguments,
    ]
    _forget_modules_of_another(suite)
    was_prefix = sys.pycache_prefix
    sys.pycache_prefix = str(grader_folder("pycache"))  # the compiled tests and reference: never in a worker's view
    log = io.StringIO()
    try:
        with (
            _environment(PYTEST_DISABLE_PLUGIN_AUTOLOAD="1"),
            contextlib.redirect_stdout(log),
            contextlib.redirect_stderr(log),
        ):
            code = pytest.main(command, plugins=[plugin])
    finally:
        sys.pycache_prefix = was_prefix
    return code, log.getvalue()


@contextlib.contextmanager
def _environment(**values: str) -> Iterator[None]:
    """These environment variables set for the block, as they were after it (unittest.mock's patch.dict
    would do, but importing it costs a student's every grade a tenth of its floor)."""
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _forget_modules_of_another(suite: Path) -> None:
    """Drop test modules a session of another suite of the same folder name left in this process.

    pytest's importlib mode names a test module after its path from the
    root (``hidden.bpe.test_encode``) and reuses a module of that name if one
    is loaded: a second suite called ``hidden`` elsewhere would run the
    first one's tests.
    """
    for name, module in list(sys.modules.items()):
        if name == suite.name or name.startswith(f"{suite.name}."):
            location = getattr(module, "__file__", None)
            if location is None or not Path(location).resolve().is_relative_to(suite.resolve()):
                del sys.modules[name]


def _load_report(worker: Worker) -> list[str]:
    """What the worker noticed while loading: modules that failed, notebook cells that raised."""
    try:
        reply = worker.request({"op": protocol.DESCRIBE}, timeout=10)
    except (WorkerGone, WorkerTimedOut, WorkerCouldNotStart):
        return []
    notes = []
    for cell in reply.message.get("cells", []):
        notes.append(f"notebook cell {cell.get('cell')} raised {cell.get('type')}: {cell.get('message')}")
    return notes
