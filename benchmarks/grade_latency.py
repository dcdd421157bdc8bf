"""How long one `grade` run takes, and what the cage costs over plain in-process pytest.

Grades the reference solutions and the untouched stubs several times with the
real CLI, prints the median wall time of each, then times the same hidden
suite run in-process by plain pytest against the reference (no worker), and
prints the ratio. Figures are from one run on this machine: compare ratios.

    python benchmarks/grade_latency.py [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from autograder.engine.runner import GRADING_INI
from autograder.engine.suites import KIT_ROOT as KIT

PLAIN_CONFTEST = """
import copy

import pytest
from autograder.engine.proxy import CallRecord, StudentRaised
from autograder.engine.reference import reference


class _Function:
    def __init__(self, module, name):
        self.module, self.name = module, name
        self.function = getattr(reference(module), name)

    def __call__(self, *args, **kwargs):
        try:
            return self.function(*args, **kwargs)
        except Exception as error:  # as the proxy reports an exception the student's code raised
            raise StudentRaised(str(error), error_type=type(error).__name__, error_message=str(error)) from None

    def call(self, *args, **kwargs):
        after_args, after_kwargs = copy.deepcopy(args), copy.deepcopy(kwargs)
        returned = self.function(*after_args, **after_kwargs)
        return CallRecord(self.module, self.name, args, kwargs, returned, after_args, after_kwargs)


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
"""


def wall(command: list[str], cwd: Path, *, must_pass: bool = False) -> float:
    started = time.perf_counter()
    process = subprocess.run(command, cwd=cwd, capture_output=True, check=False, text=True)
    seconds = time.perf_counter() - started
    if must_pass and process.returncode != 0:
        # A failing test shrinks: the baseline must run the same work as grading the reference.
        raise SystemExit(f"the plain-pytest baseline failed: {process.stdout[-1500:]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    grade = [sys.executable, "-m", "autograder.cli", "--format", "json"]
    solutions = [wall([*grade, str(KIT / "solutions")], KIT) for _ in range(runs)]
    public = [wall([*grade, "--suite", "public", str(KIT / "solutions")], KIT) for _ in range(runs)]
    stubs = [wall([*grade, str(KIT / "student_template")], KIT) for _ in range(runs)]
    # Plain pytest: the same hidden tests, the reference called directly in-process.
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        suite = Path(scratch) / "hidden"
        shutil.copytree(KIT / "tests" / "hidden", suite)
        (suite / "conftest.py").write_text(PLAIN_CONFTEST)
        plain_command = [
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
        plain = [wall(plain_command, KIT, must_pass=True) for _ in range(runs)]
    median_solutions, median_stubs, median_plain = map(statistics.median, (solutions, stubs, plain))
    print(
        f"grade solutions --suite public (what a student runs), median of {runs}: "
        f"{statistics.median(public):.2f} s (target < 1.5 s)"
    )
    print(f"grade solutions (hidden suite, Part 5's recount timed once), median of {runs}: {median_solutions:.2f} s")
    print(f"grade student_template (all not started), median of {runs}: {median_stubs:.2f} s")
    print(f"plain pytest, same tests in-process against the reference: {median_plain:.2f} s")
    print(f"cost of the cage: {median_solutions / median_plain:.2f}x plain pytest (target < 2x)")


if __name__ == "__main__":
    main()
