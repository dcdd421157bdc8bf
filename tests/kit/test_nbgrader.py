"""The real nbgrader on the exercise course: its release holds no solution or hidden test, its autograde
gives full marks and zero, and the kit's own batch grades the notebooks (named after the part modules) as
the modules and fills the same gradebook with partial credit."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from commands import run_batch
from results import full_marks, gradebook_rows

from autograder.authoring import notebooks as exercises
from autograder.authoring.release import release_leaks
from autograder.authoring.stubs import BEGIN

NBGRADER_AUTOGRADED = "simple_tokenizers"


def _nbgrader(*arguments: str, course: Path) -> subprocess.CompletedProcess[str]:
    process = subprocess.run(
        [sys.executable, "-m", "nbgrader", *arguments], cwd=course, capture_output=True, text=True, timeout=600
    )
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
    # nbgrader's own autograde runs every check cell in a kernel, a grader each: one notebook shows that the
    # cells it runs give full marks and zero. All five are run in test_exercises.py (solved) and below (the kit).
    _nbgrader("autograde", exercises.NBGRADER_ASSIGNMENT, f"--notebook={NBGRADER_AUTOGRADED}", course=course)
    database = f"sqlite:///{course / 'gradebook.db'}"
    with api.Gradebook(database) as book:  # a bonus cell is worth 0 in nbgrader's own autograde
        for student, score in (("alice", full_marks(NBGRADER_AUTOGRADED, bonus=False)), ("bob", "0")):
            notebook = book.find_submission_notebook(NBGRADER_AUTOGRADED, exercises.NBGRADER_ASSIGNMENT, student)
            assert f"{notebook.score:g}" == score, student

    # The kit's own path: the same submitted/ folder graded in the cage, partial credit into the same gradebook.
    out = tmp_path / "graded"
    process = run_batch(course, out, "--nbgrader-db", str(course / "gradebook.db"))
    assert process.returncode == 0, process.stderr
    totals = {student: row["total"] for student, row in gradebook_rows(out).items()}
    assert totals == {"alice": full_marks(), "bob": "0"}
    # Notebooks named after the part modules are graded as the modules: alice's (the solved source) load
    # cleanly in the cage, bob's (the release) are stubs, every test not started.
    alice, bob = (
        json.loads((out / student / "results.json").read_text(encoding="utf-8")) for student in ("alice", "bob")
    )
    assert "raised" not in alice["output"], "check cells and explorations load cleanly in the cage"
    assert {test["extra_data"]["outcome"] for test in bob["tests"]} == {"not started"}
    with api.Gradebook(database) as book:  # the kit's export adds the bonus as nbgrader's extra credit
        assert f"{book.find_submission('bpe', 'alice').score:g}" == full_marks()
        assert book.find_grade("test_merge_pair", "bpe", "bpe", "bob").auto_score == 0
