"""Helpers for the kit's own tests: run the real ``grade`` command, build submissions."""

from __future__ import annotations

import _posixsubprocess
import ast
import csv
import functools
import json
import os
import site
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from autograder.parts import PARTS
from autograder.scoring import scoring
from autograder.scoring.grade_result import GradeResult
from autograder.scoring.points import SuitePoints, suite_points
from autograder.testing.example_sets import SECRET_VARIABLE
from autograder.testing.suites import KIT_ROOT

SOLUTIONS = KIT_ROOT / "solutions"
# The kit's own tests grade with one fixed secret for the hidden examples (example_sets), and so does every
# `grade` they start: the clone's own secret, if any, is never read or made.
os.environ[SECRET_VARIABLE] = "the kit's own tests"
# Every grading a test starts is a fresh one: the student's cache of unchanged parts (a folder under the
# user's home) is off, except where a test of the cache turns it on with a folder of its own.
os.environ["BPE_KIT_CACHE"] = "off"
SUBMISSIONS = Path(__file__).parent / "submissions"
# A results.json as the kit wrote it, read back as plain JSON: what the tests check is the file itself.
Results = dict[str, Any]


@pytest.fixture(autouse=True)
def _unit_tests_start_no_process(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A test marked ``unit`` (what ``nox -s fast`` runs) fails if it starts a process: a worker, the CLI, an
    outside program. The mark then always means what it says. (A fixture wider than a test runs before this
    one: the tests marked were found by refusing processes from the end of collection on.)"""
    if request.node.get_closest_marker("unit") is None:
        return

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"{request.node.name} is marked unit, and started a process")

    monkeypatch.setattr(subprocess.Popen, "__init__", refused)
    monkeypatch.setattr(_posixsubprocess, "fork_exec", refused)  # what multiprocessing's spawn calls directly
    for name in ("fork", "forkpty", "system", "posix_spawn", "posix_spawnp"):
        monkeypatch.setattr(os, name, refused, raising=False)


def grade(path: Path, *arguments: str, timeout: float = 300) -> tuple[subprocess.CompletedProcess[str], Results]:
    """Run the real CLI on ``path`` and return the process and its results document (empty when it wrote none)."""
    process = subprocess.run(
        [sys.executable, "-m", "autograder.cli", str(path), "--format", "json", *arguments],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=path.parent,
    )
    document: Results = json.loads(process.stdout) if process.returncode in (0, 1) and process.stdout else {}
    return process, document


def function_scores(document: Results) -> dict[tuple[str, str], tuple[float, float]]:
    """The kit's own scoring of a results.json: per (module, function), the points earned and worth."""
    return scoring.function_scores(GradeResult.from_json(document))


def batch_command(submissions: Path, out: Path, *arguments: str, quiet: bool = True) -> list[str]:
    """The real ``grade batch`` of ``submissions`` into ``out``, quiet unless told (the progress bar)."""
    command = [sys.executable, "-m", "autograder.cli", "batch", str(submissions), "-o", str(out), *arguments]
    return [*command, "--quiet"] if quiet else command


def run_batch(submissions: Path, out: Path, *arguments: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run the real ``grade batch`` quietly, from beside the output folder."""
    return subprocess.run(
        batch_command(submissions, out, *arguments), capture_output=True, text=True, timeout=timeout, cwd=out.parent
    )


def gradebook_rows(out: Path) -> dict[str, dict[str, str]]:
    """A batch's gradebook.csv, one row per student id."""
    with (out / "gradebook.csv").open(encoding="utf-8", newline="") as stream:
        return {row["id"]: row for row in csv.DictReader(stream)}


@functools.cache
def hidden_points() -> SuitePoints:
    return suite_points("hidden")


def full_marks(*modules: str, bonus: bool = True) -> str:
    """What a perfect hand-in of these part modules (or of all) scores, as the gradebook writes it.

    Bonus points count unless ``bonus=False`` (the points possible, 100%).
    """
    points = hidden_points()
    chosen = [
        value
        for key, value in points.worth.items()
        if (not modules or key[0] in modules) and (bonus or key not in points.bonus)
    ]
    return f"{sum(chosen):g}"


def outcomes(document: Results) -> set[str]:
    return {test["extra_data"]["outcome"] for test in document["tests"]}


def dependents(module: str, function: str) -> set[tuple[str, str]]:
    """Reference functions that call ``function`` (directly or not): a bug there may cost them too."""
    calls: dict[tuple[str, str], set[str]] = {}
    for part in PARTS:
        tree = ast.parse((SOLUTIONS / f"{part.module}.py").read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                called = {n.func.id for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
                calls[(part.module, node.name)] = called
    found: set[tuple[str, str]] = set()
    frontier = {(module, function)}
    while frontier:
        current = frontier.pop()
        for key, called in calls.items():
            if key[0] == current[0] and current[1] in called and key not in found:
                found.add(key)
                frontier.add(key)
    return found


@pytest.fixture
def reference_with(tmp_path: Path) -> Callable[..., Path]:
    """A submission folder: the reference solutions, with code appended to some modules.

    A later ``def`` replaces an earlier one, so appending a function swaps in
    that one mistake (or cheat) and leaves the rest honest.
    """

    def build(name: str = "student", *, only: tuple[str, ...] = (), **appended: str) -> Path:
        """``only``: just these part modules (the others are then not started)."""
        folder = tmp_path / name
        folder.mkdir()
        for part in PARTS:
            if only and part.module not in only:
                continue
            text = (SOLUTIONS / f"{part.module}.py").read_text(encoding="utf-8")
            if part.module in appended:
                text += "\n\n" + appended[part.module]
            (folder / f"{part.module}.py").write_text(text, encoding="utf-8")
        return folder

    return build


def environment_with_these_packages(folder: Path) -> Path:
    """A new virtual environment that also sees the packages of the one running the tests; its python.

    Offline, so it cannot download what it needs: it reads them where this
    interpreter does. Not ``--system-site-packages``: inside a venv that
    means the base interpreter's packages (an older setuptools, no pytest),
    not this venv's. A ``.pth`` naming this interpreter's site folders works
    the same from a venv and from a plain interpreter; its plain path lines
    add the folders without running their own ``.pth`` files, so the kit's
    editable install does not follow into the new environment.
    """
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    own = subprocess.run(
        [str(python), "-c", "import site; print(site.getsitepackages()[0])"], capture_output=True, text=True, check=True
    ).stdout.strip()
    ours = [path for path in site.getsitepackages() if Path(path).is_dir()]
    (Path(own) / "packages-of-the-test-run.pth").write_text("\n".join(ours) + "\n", encoding="utf-8")
    return python


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its content, to prove nothing changed."""
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}
