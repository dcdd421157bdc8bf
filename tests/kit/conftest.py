"""Helpers for the kit's own tests: run the real ``grade`` command, build submissions."""

from __future__ import annotations

import ast
import functools
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from autograder.parts import PARTS
from autograder.suites import KIT_ROOT

SOLUTIONS = KIT_ROOT / "solutions"
SUBMISSIONS = Path(__file__).parent / "submissions"


def grade(path: Path, *arguments: str, timeout: float = 300) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """Run the real CLI on ``path`` and return the process and its results document."""
    process = subprocess.run(
        [sys.executable, "-m", "autograder.cli", str(path), "--format", "json", *arguments],
        capture_output=True, text=True, timeout=timeout, cwd=path.parent,
    )
    document = json.loads(process.stdout) if process.returncode in (0, 1) and process.stdout else {}
    return process, document


@functools.cache
def _points() -> dict[tuple[str, str], float]:
    from autograder.points import points_per_function

    return points_per_function("hidden")


def full_marks(*modules: str) -> str:
    """The hidden suite's points, of the given part modules or of all, as the gradebook writes them."""
    return f"{sum(value for (module, _), value in _points().items() if not modules or module in modules):g}"


def function_scores(document: dict[str, Any]) -> dict[tuple[str, str], tuple[float, float]]:
    scores: dict[tuple[str, str], tuple[float, float]] = {}
    for test in document["tests"]:
        key = (test["extra_data"]["module"], test["extra_data"]["function"])
        score, most = scores.get(key, (0.0, 0.0))
        scores[key] = (score + test["score"], most + test["max_score"])
    return scores


def outcomes(document: dict[str, Any]) -> set[str]:
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

    def build(name: str = "student", **appended: str) -> Path:
        folder = tmp_path / name
        folder.mkdir()
        for part in PARTS:
            text = (SOLUTIONS / f"{part.module}.py").read_text(encoding="utf-8")
            if part.module in appended:
                text += "\n\n" + appended[part.module]
            (folder / f"{part.module}.py").write_text(text, encoding="utf-8")
        return folder

    return build


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its content, to prove nothing changed."""
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}
