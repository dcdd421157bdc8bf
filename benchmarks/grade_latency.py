"""How long one `grade` run takes: the student's loop, and what the cage costs over plain pytest.

The student's loop first, each figure a ratio to a floor measured in the same
run (``python -c "import pytest, hypothesis"``, what any grading must pay):
a release folder graded again with nothing changed (its parts come from the
cache), the same after one module of Parts 1-2 changed (only that part is
graded), and how soon the first line reaches a terminal. Then the reference
solutions and the untouched stubs with the hidden suite, and the same hidden
suite run in-process by plain pytest against the reference (no worker).
Figures are from one run on this machine: compare ratios.

    python benchmarks/grade_latency.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import pty
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from figures import Figures, add_option

from autograder.kit_root import KIT_ROOT as KIT
from autograder.parts import PARTS
from autograder.testing.collected import GRADING_INI

FIGURES = Figures("grade_latency")

PLAIN_CONFTEST = """
import copy
import dataclasses
import os
import shutil

import pytest
from autograder.cage.inside import streams
from autograder.testing.answer_types import returns_iterator
from autograder.testing.memory_growth import growth_of
from autograder.testing.proxy import DEFAULT_STREAM, CallRecord, StudentRaised
from autograder.testing.reference import reference

# The tests' call folders are made in the working folder, as the worker makes them in its copy of the
# hand-in: here, the baseline's scratch folder (this file's folder's parent), whoever started it.
os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class _Function:
    def __init__(self, module, name):
        self.module, self.name = module, name
        self.function = getattr(reference(module), name)

    def __call__(self, *args, **kwargs):
        return self._run(args, kwargs, None)[0]

    def call(self, *args, stream=None, **kwargs):
        after_args, after_kwargs = copy.deepcopy(args), copy.deepcopy(kwargs)
        returned, read, ended = self._run(after_args, after_kwargs, stream)
        return CallRecord(
            self.module, self.name, args, kwargs, returned, after_args, after_kwargs,
            answered=True, read=read, ended=ended,
        )

    def _run(self, args, kwargs, stream):  # the answer, and a streamed call's pieces read at each item and end
        if stream is None and returns_iterator(self.module, self.name):
            stream = DEFAULT_STREAM
        try:
            if stream is None:
                return self.function(*args, **kwargs), None, False
            # As the worker calls a function that returns an iterator (streams): fed, and its items read.
            request = stream.request()
            given, feed = streams.prepared(args, request)
            returned, told = streams.taken(self.function(*given, **kwargs), feed, request)
            return returned, tuple(told["read"]), told["ended"]
        except Exception as error:  # as the proxy reports an exception the student's code raised
            raise StudentRaised(str(error), error_type=type(error).__name__, error_message=str(error)) from None

    def streamed(self, stream):
        return lambda *args, **kwargs: self.call(*args, stream=stream, **kwargs)

    def memory_growth(self, *args, **kwargs):  # as the grader measures the reference's: in a process of its own
        record = self.call(*args, **kwargs)
        grown = growth_of(reference(self.module).__file__, self.name, *args)
        return dataclasses.replace(record, grown_bytes=grown)

    def in_folder(self, folder):  # as the worker's call_folders does, in the working folder
        def call(*args, **kwargs):
            shutil.rmtree(folder.name, ignore_errors=True)
            if folder.files:
                os.makedirs(folder.name)
                for name, content in folder.files.items():
                    with open(os.path.join(folder.name, name), "wb") as file:
                        file.write(content)
            record = self.call(*args, **kwargs)
            if not folder.collect:
                return record
            names = os.listdir(folder.name) if os.path.isdir(folder.name) else []
            files = {}
            for name in names:
                with open(os.path.join(folder.name, name), "rb") as file:
                    files[name] = file.read()
            return dataclasses.replace(record, files=files)

        return call


class _Module:
    def __init__(self, module):
        self.module = module

    def __getattr__(self, name):
        return _Function(self.module, name)


class _Direct:
    def __getattr__(self, module):
        return _Module(module)


@pytest.fixture
def submission():
    return _Direct()


@pytest.fixture
def example_seed():
    return 0  # the fixed draw: the same speed tables for every run
"""


def plain_pytest(scratch: Path) -> list[str]:
    """The command that runs the hidden tests with plain pytest, the reference called in-process (its call
    folders made in ``scratch``, see PLAIN_CONFTEST)."""
    suite = scratch / "hidden"
    shutil.copytree(KIT / "tests" / "hidden", suite)
    (suite / "conftest.py").write_text(PLAIN_CONFTEST)
    return [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--import-mode=importlib",
        "-c",
        str(GRADING_INI),
        "--rootdir",
        str(suite),
        str(suite),
    ]


def wall(command: list[str], cwd: Path, *, must_pass: bool = False) -> float:
    started = time.perf_counter()
    process = subprocess.run(command, cwd=cwd, capture_output=True, check=False, text=True)
    seconds = time.perf_counter() - started
    if must_pass and process.returncode != 0:
        # A failing test shrinks: the baseline must run the same work as grading the reference.
        raise SystemExit(f"the plain-pytest baseline failed: {process.stdout[-1500:]}")
    return seconds


def first_line_seconds(command: list[str], cwd: Path, environment: dict[str, str]) -> float:
    """Seconds until the command writes its first bytes to a terminal (its stderr is a pseudo-terminal)."""
    primary, secondary = pty.openpty()
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, env=environment, stdout=subprocess.DEVNULL, stderr=secondary)
    try:
        os.read(primary, 1)
        return time.perf_counter() - started
    finally:
        process.wait()
        os.close(primary)
        os.close(secondary)


def student_loop(runs: int) -> None:
    """The release as a student has it once every function is written (the reference in modules/, so every
    public test runs): grade again unchanged, after a change to each part's module, and the first line."""
    floor = statistics.median(wall([sys.executable, "-c", "import pytest, hypothesis"], KIT) for _ in range(runs))
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch)
        subprocess.run(
            [sys.executable, "-m", "autograder.cli", "release", str(out / "release")], check=True, capture_output=True
        )
        release = out / "release" / "bpe-kit-student"
        for part in PARTS:
            shutil.copy2(KIT / "solutions" / f"{part.module}.py", release / "modules" / f"{part.module}.py")
        environment = {**os.environ, "BPE_KIT_CACHE": str(out / "cache")}
        grade = [sys.executable, "-m", "autograder.cli", str(release / "modules"), "--suite", "public"]
        grade += ["--format", "json"]

        def timed() -> float:
            started = time.perf_counter()
            subprocess.run(grade, cwd=release, env=environment, capture_output=True, check=True)
            return time.perf_counter() - started

        timed()  # the first grading fills the cache
        unchanged = statistics.median(timed() for _ in range(runs))
        changed = {}
        for part in PARTS:
            module = release / "modules" / f"{part.module}.py"
            written = module.read_text(encoding="utf-8")
            times = []
            for run in range(runs):
                module.write_text(written + f"\n# edit {run}\n", encoding="utf-8")
                times.append(timed())
            changed[part.module] = statistics.median(times)
        first = statistics.median(first_line_seconds(grade[:-2], release, environment) for _ in range(runs))
    FIGURES.say(f"floor, python -c 'import pytest, hypothesis', median of {runs}: {floor:.2f} s")
    FIGURES.say(f"every function written, nothing changed: {unchanged:.2f} s (target <= 0.3 s)")
    for name, seconds in changed.items():
        FIGURES.say(f"modules/{name}.py changed: {seconds:.2f} s (target <= 1 s)")
    slowest = max(changed, key=changed.__getitem__)
    FIGURES.say(f"slowest part: {slowest}, {changed[slowest]:.2f} s")
    FIGURES.say(f"first line on the terminal after: {first:.3f} s (target <= 0.2 s)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    add_option(parser)
    arguments = parser.parse_args()
    runs = arguments.runs
    student_loop(runs)
    grade = [sys.executable, "-m", "autograder.cli", "--format", "json", "--no-cache"]
    solutions = [wall([*grade, str(KIT / "solutions")], KIT) for _ in range(runs)]
    public = [wall([*grade, "--suite", "public", str(KIT / "solutions")], KIT) for _ in range(runs)]
    stubs = [wall([*grade, str(KIT / "student_template")], KIT) for _ in range(runs)]
    # Plain pytest: the same hidden tests, the reference called directly in-process.
    with tempfile.TemporaryDirectory() as scratch:
        plain_command = plain_pytest(Path(scratch))
        plain = [wall(plain_command, KIT, must_pass=True) for _ in range(runs)]
    median_solutions, median_stubs, median_plain = map(statistics.median, (solutions, stubs, plain))
    FIGURES.say(
        f"grade solutions --suite public (what a student runs), median of {runs}: "
        f"{statistics.median(public):.2f} s (target < 1.5 s)"
    )
    FIGURES.say(
        f"grade solutions (hidden suite, Part 5's recount timed once), median of {runs}: {median_solutions:.2f} s"
    )
    FIGURES.say(f"grade student_template (all not started), median of {runs}: {median_stubs:.2f} s")
    FIGURES.say(f"plain pytest, same tests in-process against the reference: {median_plain:.2f} s")
    FIGURES.say(f"cost of the cage: {median_solutions / median_plain:.2f}x plain pytest (target < 2x)")
    if arguments.docs:
        FIGURES.write()


if __name__ == "__main__":
    main()
