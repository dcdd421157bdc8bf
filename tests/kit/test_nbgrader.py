"""The real nbgrader on the exercise course: its release holds no solution or hidden test, its autograde
gives full marks and zero, and the kit's own batch fills the same gradebook with partial credit."""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import full_marks, run_batch

from autograder import exercises
from autograder.release import release_leaks
from autograder.stubs import BEGIN


def _nbgrader(*arguments: str, course: Path) -> subprocess.CompletedProcess[str]:
    process = subprocess.run([sys.executable, "-m", "nbgrader", *arguments], cwd=course,
                             capture_output=True, text=True, timeout=600)
    assert process.returncode == 0, process.stderr[-3000:]
    return process


def test_nbgrader_round_trip(tmp_path):
    """The real nbgrader: release without solutions or hidden tests; autograde gives 100 and 0."""
    api = pytest.importorskip("nbgrader.api", reason="nbgrader is in the dev extra")
    course = tmp_path / "course"
    shutil.copytree(exercises.NBGRADER_COURSE, course)
    _nbgrader("generate_assignment", exercises.NBGRADER_ASSIGNMENT, "--force", course=course)
    release = course / "release" / exercises.NBGRADER_ASSIGNMENT
    released = "".join(path.read_text(encoding="utf-8") for path in release.glob("*.ipynb"))
    assert BEGIN not in released and "HIDDEN TESTS" not in released and 'suite=\\"hidden\\"' not in released
    assert release_leaks(release) == [], "solution code or hidden tests in the release"

    source = course / "source" / exercises.NBGRADER_ASSIGNMENT
    for student, origin in (("alice", source), ("bob", release)):
        shutil.copytree(origin, course / "submitted" / student / exercises.NBGRADER_ASSIGNMENT)
    _nbgrader("autograde", exercises.NBGRADER_ASSIGNMENT, course=course)
    database = f"sqlite:///{course / 'gradebook.db'}"
    with api.Gradebook(database) as book:  # nbgrader's own autograde: a bonus cell is worth 0 there
        assert f"{book.find_submission('bpe', 'alice').score:g}" == full_marks(bonus=False)
        assert book.find_submission("bpe", "bob").score == 0

    # The kit's own path: the same submitted/ folder graded in the cage, partial credit into the same gradebook.
    out = tmp_path / "graded"
    process = run_batch(course, out, "--nbgrader-db", str(course / "gradebook.db"))
    assert process.returncode == 0, process.stderr
    with (out / "gradebook.csv").open(encoding="utf-8") as stream:
        totals = {row["id"]: row["total"] for row in csv.DictReader(stream)}
    assert totals == {"alice": full_marks(), "bob": "0"}
    with api.Gradebook(database) as book:  # the kit's export adds the bonus as nbgrader's extra credit
        assert f"{book.find_submission('bpe', 'alice').score:g}" == full_marks()
        assert book.find_grade("test_merge_pair", "bpe", "bpe", "bob").auto_score == 0
