"""The bug corpus graded in one ``grade batch``: a hand-in per mistake, each holding only the part it breaks
(the reference with the one function replaced), so the other parts are simply not started."""

from __future__ import annotations

from pathlib import Path

from bug_corpus import BUGS
from classroom import SOLUTIONS
from commands import run_batch

NAMES = sorted(BUGS)


def hand_in_id(name: str) -> str:
    return f"bug{NAMES.index(name):02d}"


def hand_in_text(module: str, source: str) -> str:
    """The module a mistake's hand-in holds: the reference's, with the entry's source after it (its ``def``
    replaces the reference's)."""
    return (SOLUTIONS / f"{module}.py").read_text(encoding="utf-8") + "\n\n" + source


def graded_in(root: Path, suite: str = "hidden") -> Path:
    """The whole corpus graded in one batch under ``root`` with ``suite``: its output folder."""
    submissions = root / "submissions"
    for name, (module, _, source) in BUGS.items():
        folder = submissions / hand_in_id(name)
        folder.mkdir(parents=True)
        (folder / f"{module}.py").write_text(hand_in_text(module, source), encoding="utf-8")
    out = root / "out"
    process = run_batch(submissions, out, "--jobs", "2", "--limit", "call_seconds=2", "--suite", suite, timeout=900)
    assert process.returncode == 0, process.stderr
    return out
