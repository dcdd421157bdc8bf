"""A graded suite collected once per grader (``grader.Grader``), its tests run again for each hand-in.

``pytest.main`` reads its configuration, loads its plugins, imports the test modules and collects
them anew on every call: about 30 ms of a correct hand-in's grading, the same work each time. A
batch's grader grades hundreds of hand-ins with one suite, so it keeps one configured pytest
session with its items, and for each hand-in runs every item's test protocol, as pytest's own
run loop does, with that hand-in's ``GradingPlugin`` registered for the run alone. The last item
of a run tears down every fixture (pytest's ``nextitem=None``), so no fixture value outlives its
hand-in: a run starts from what a fresh session starts from.

pytest has no public way to keep a session open, so this takes the steps of ``pytest.main`` itself
(``_prepareconfig``, ``Config._do_configure``), as pytest's own ``pytester`` does; pyproject.toml pins
pytest to the releases they are tested on (tests/kit/testing/test_oldest_pytest.py).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from _pytest.config import _prepareconfig

from autograder.cage.cage import grader_folder
from autograder.testing.plugin import GradingPlugin
from autograder.testing.proxy import SubmissionProxy

GRADING_INI = Path(__file__).parents[1] / "grading.ini"  # package data, beside cli.py
# pytest's own plugins that a grading never uses. Each one's hooks run for every phase of every test (a
# hundred tests, three phases each) and at the session's start: together they were a tenth of a correct
# hand-in's grading. unraisableexception and threadexception also run gc.collect() several times per
# session; capture swaps sys.stdout around every test, when nothing a test prints is kept (the student's
# output is the worker's); warnings, logging and the rest catch what no graded test makes or reports.
# terminal would keep every report of every hand-in a session runs: a failed test's outcome is built
# from its exception (GradingPlugin), and a collection error from its report (_Host).
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
    "terminal",
    "threadexception",
    "tmpdir",
    "unraisableexception",
    "warnings",
)


def session_arguments(suite: Path, only: tuple[Path, ...], *arguments: str) -> list[str]:
    """pytest's arguments for a graded suite (or its files ``only``): nothing from the kit's pyproject.toml,
    a student's folder or other installed plugins applies, and no cache is written."""
    # The root is the folder above the suite: test modules are named after their path from it
    # (hidden.bpe.test_encode), and pytest's importlib mode reuses a module of the same name
    # from an earlier session in this process, so the public suite must never name its files
    # as the hidden one does (a notebook's check runs both, one after the other).
    return [
        *map(str, only or (suite,)),
        "-c",
        str(GRADING_INI),
        "--rootdir",
        str(suite.parent),
        "-p",
        "no:cacheprovider",
        "--import-mode=importlib",
        *arguments,
    ]


@contextlib.contextmanager
def suite_surroundings() -> Iterator[io.StringIO]:
    """What pytest runs in while it loads or runs a graded suite; yields what it printed.

    Compiled tests and reference code go to the grader's own folder, never beside the tests or into a
    worker's view; pytest loads no plugin it was not given (pytest-benchmark, for one, writes a
    .benchmarks folder into the working directory).
    """
    was_prefix = sys.pycache_prefix
    sys.pycache_prefix = str(grader_folder("pycache"))
    log = io.StringIO()
    try:
        with (
            _environment(PYTEST_DISABLE_PLUGIN_AUTOLOAD="1"),
            contextlib.redirect_stdout(log),
            contextlib.redirect_stderr(log),
        ):
            yield log
    finally:
        sys.pycache_prefix = was_prefix


class _Host:
    """The plugin a collected suite keeps for its whole life: the ``submission`` fixture (a fixture is
    bound to the plugin that defined it when the tests are collected) and what collection reported."""

    def __init__(self) -> None:
        self.plugin: GradingPlugin | None = None  # the hand-in's being run
        self.collection_errors: list[str] = []

    @pytest.fixture
    def submission(self) -> SubmissionProxy:
        """The student's code, called through the worker."""
        assert self.plugin is not None, "a test runs only inside CollectedSuite.run"
        return SubmissionProxy(self.plugin.session)

    @pytest.fixture
    def example_seed(self) -> int:
        """The hand-in's draw for inputs a test makes itself, as its properties draw theirs (example_sets):
        a speed test's tables. 0 where the examples are fixed (the public suite)."""
        assert self.plugin is not None, "a test runs only inside CollectedSuite.run"
        return self.plugin.examples[1] if self.plugin.examples is not None else 0

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.collection_errors.append(f"{report.nodeid}: {report.longreprtext[-2000:]}")

    @pytest.hookimpl(wrapper=True)
    def pytest_assertrepr_compare(self) -> Generator[None, list[list[str]], list[list[str]]]:
        """pytest's explanation of a failed comparison, or none where pytest could not make one.

        pytest 8.0 to 9.0 colour the explanation with the terminal reporter's writer, and this session has
        no terminal reporter (UNUSED_PLUGINS): their ``assert terminalreporter is not None`` failed in place
        of the test's own assertion, before its message (the hint) was read, so every failed test lost its
        hint. pytest 9.1 explains in plain text there. No one reads the
        explanation: a failed test's outcome shows the two sides itself (GradingPlugin).
        """
        try:
            return (yield)
        except AssertionError:
            return []

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        # Hypothesis keeps caches under its home folder, by default in the working directory: that
        # would be the student's folder. The grader's own 0700 folder instead, set before any test runs
        # (and only where a test file loaded hypothesis: the public examples do not).
        if "hypothesis" in sys.modules:
            from hypothesis import configuration

            configuration.set_hypothesis_home_dir(str(grader_folder("hypothesis")))
            draw_from_hypothesis_constants_alone()


class CollectedSuite:
    """A suite's tests, collected once for a grader; ``run`` runs them all for one hand-in."""

    def __init__(self, suite: Path, only: tuple[Path, ...]) -> None:
        self.suite = suite
        self._host = _Host()
        arguments = session_arguments(suite, only, *(item for name in UNUSED_PLUGINS for item in ("-p", f"no:{name}")))
        forget_suite_modules(suite, keep_its_own=False)  # a collection imports the suite as it is now
        with suite_surroundings() as log:
            self._config = _prepareconfig(arguments, plugins=[self._host])
            try:
                self._config._do_configure()
                self._session = pytest.Session.from_config(self._config)
                self._config.hook.pytest_sessionstart(session=self._session)
                self._config.hook.pytest_collection(session=self._session)
            except BaseException:  # Ctrl-C while collecting: this half-made session's import hook goes too
                with contextlib.suppress(Exception):
                    self._config._ensure_unconfigure()
                raise
        self.items: list[pytest.Item] = list(self._session.items)
        self.collection_errors = list(self._host.collection_errors)
        if not self.items and not self.collection_errors:
            shown = ", ".join(map(str, only or (suite,)))
            self.collection_errors.append(f"no tests were collected from {shown}:\n{log.getvalue()[-2000:]}")

    def run(self, plugin: GradingPlugin) -> list[str]:
        """Every test, with ``plugin`` registered for this run alone; return collection errors.

        A suite that did not load runs nothing, as pytest would not.
        """
        if self.collection_errors:
            return self.collection_errors
        self._host.plugin = plugin
        manager = self._config.pluginmanager
        manager.register(plugin)
        try:
            with suite_surroundings():
                for index, item in enumerate(self.items):
                    following = self.items[index + 1] if index + 1 < len(self.items) else None
                    item.config.hook.pytest_runtest_protocol(item=item, nextitem=following)
                for item in plugin.decide_again():
                    item.config.hook.pytest_runtest_protocol(item=item, nextitem=None)
        finally:
            manager.unregister(plugin)
            self._host.plugin = None
        return []

    def close(self) -> None:
        """End the session as pytest.main would (its plugins unconfigured: assertion rewriting's import hook)."""
        with suite_surroundings(), contextlib.suppress(Exception):
            self._config.hook.pytest_sessionfinish(session=self._session, exitstatus=pytest.ExitCode.OK)
        with contextlib.suppress(Exception):
            self._config._ensure_unconfigure()


def suite_stamp(suite: Path) -> tuple[tuple[str, int, int], ...]:
    """Each file of the suite, its size and its time of change: a suite edited in a long-lived process
    (a notebook's kernel) is collected again."""
    stamps = []
    for folder, _, names in os.walk(suite):
        for name in names:
            if name.endswith((".py", ".ini", ".json")):
                with contextlib.suppress(OSError):
                    status = os.stat(os.path.join(folder, name))
                    stamps.append((os.path.join(folder, name), status.st_size, status.st_mtime_ns))
    return tuple(sorted(stamps))


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


def forget_suite_modules(suite: Path, *, keep_its_own: bool) -> None:
    """Drop the test modules named as ``suite``'s from this process (with ``keep_its_own``, only those
    loaded from another suite of the same folder name).

    pytest's importlib mode names a test module after its path from the
    root (``hidden.bpe.test_encode``) and reuses a module of that name if one
    is loaded: a second suite called ``hidden`` elsewhere would run the
    first one's tests, and a suite edited since it was imported would run as
    it was.
    """
    for name, module in list(sys.modules.items()):
        if name == suite.name or name.startswith(f"{suite.name}."):
            location = getattr(module, "__file__", None)
            own = location is not None and Path(location).resolve().is_relative_to(suite.resolve())
            if not (keep_its_own and own):
                del sys.modules[name]


def draw_from_hypothesis_constants_alone() -> None:
    """Keep what a hand-in's properties draw from hanging on which of the kit's modules this process has loaded.

    Hypothesis (6.131 and later) now and then draws a literal it found in any module of the process that is
    not a library's: the kit's own, from a clone. A lone `grade` loads other modules than a batch's grader,
    so one hand-in drew other examples in each, and any string edited anywhere in the kit would change them.
    Here it draws only from its own list of constants. Private to hypothesis: where it has no such step (an
    older release), nothing is done, and there is nothing to undo.
    """
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:
        return
    found = getattr(providers, "_get_local_constants", None)
    if found is None or getattr(found, "kit_fixed", False):
        return
    none = type(providers._local_constants)()

    def no_local_constants() -> Any:
        return none

    no_local_constants.kit_fixed = True  # type: ignore[attr-defined]
    providers._get_local_constants = no_local_constants
    providers.CONSTANTS_CACHE.cache.clear()  # allowed values worked out with the local ones, if any
