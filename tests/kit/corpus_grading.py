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


def graded_in(root: Path, suite: str = "hidden") -> Path:
    """The whole corpus graded in one batch under ``root`` with ``suite``: its output folder."""
    submissions = root / "submissions"
    for name, (module, _, source) in BUGS.items():
        folder = submissions / hand_in_id(name)
        folder.mkdir(parents=True)
        text = (SOLUTIONS / f"{module}.py").read_text(encoding="utf-8") + "\n\n" + source
        (folder / f"{module}.py").write_text(text, encoding="utf-8")
    out = root / "out"
    process = run_batch(submissions, out, "--jobs", "2", "--limit", "call_seconds=2", "--suite", suite, timeout=900)
    assert process.returncode == 0, process.stderr
    return out
