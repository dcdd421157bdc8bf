"""Issue 49's whole term, end to end: the class of term_class (Canvas, Moodle and nbgrader, every oddity of names,
uploads and time) graded from its zips and unzipped in two zones with the same results; every export read as
the platform's importer reads it (canvas_importer, moodle_importer, Moodle's feedback zip reader, nbgrader's own
API); formgrader's page in Chromium showing the kit's grades; and the manual grades beside course.toml kept
through a Slurm run into a fresh OUT, its totals the local run's."""

from __future__ import annotations

import csv
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import canvas_importer
import moodle_importer
import pytest
import slurm_cluster
import term_class
from browser import driven
from engines import require, unavailable
from formgrader import logged_in, rows, served
from results import full_marks
from test_feedback_return import moodle_reads

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.slurm]

ZONES = ("UTC", "Asia/Tokyo")
FULL = full_marks("simple_tokenizers")
WITHOUT_CHAR = "25"  # OLDER: Part 1 less char_tokenize's points
JOBS = ("grade", "jobs", "slurm", "--shards", "2", "--jobs", "1", "-o", "term.sbatch")
SLURM_WITHIN = 900  # seconds for the array and its merge, on a busy 2-core machine


def _same_every_way(term: term_class.Term, archive: Path, roster: Path, name: str) -> Path:
    """The download graded as its zip, then unzipped and graded in each of ZONES: every student's status, total,
    lateness and penalty the same. The zip's OUT."""
    as_zip = term.root / f"out-{name}"
    term_class.grade(archive, as_zip, roster, term, "--return-feedback")
    expected = term_class.standing(as_zip)
    for zone in ZONES:
        label = zone.replace("/", "-")
        folder = term_class.unzipped(archive, term.root / f"{name}-unzipped-{label}", zone)
        out = term.root / f"out-{name}-{label}"
        term_class.grade(folder, out, roster, term, "--return-feedback", zone=zone)
        assert term_class.standing(out) == expected, f"{name} unzipped under TZ={zone}"
    return as_zip


def _canvas_checked(out: Path) -> None:
    standing = term_class.standing(out)
    totals = {student: total for student, (status, total, _, _) in standing.items()}
    assert totals == {
        "100101": FULL,
        "100102": FULL,  # 6 minutes late: within the grace period
        "100103": f"{float(FULL) * 0.9:g}",  # 1 h 6 min late: one day's 10%
        "100104": FULL,  # right to left, a notebook
        "100105": FULL,  # the resubmission's simple_tokenizers-1.py
        "100106": FULL,  # the conflict, settled in choices.csv for the module over the older zip
        "100107": "0",  # the empty upload
        "100108": f"{float(WITHOUT_CHAR) + 4:g}",  # a zip, late within an extension, and an adjustment
    }, standing
    assert standing["100103"][2].startswith("1 h 6 min late") and standing["100102"][2].startswith("on time")
    assert "extended to 2026-11-23 12:00" in standing["100108"][2] and standing["100108"][3] == ""
    students = tuple(
        canvas_importer.Student(str(user), name, name, f"s{user}", f"login{user}")
        for user, (name, _) in term_class.CANVAS.items()
    )
    for custom in ((), ("Notes",)):
        course = canvas_importer.Course(students, {term_class.CANVAS_ASSIGNMENT_ID: term_class.TITLE}, custom)
        imported = canvas_importer.upload((out / "canvas.csv").read_text(encoding="utf-8"), course)
        assert imported.new_assignments == [] and imported.custom == {} and imported.unknown_students == []
        assert imported.grades == {term_class.CANVAS_ASSIGNMENT_ID: totals}, imported
    summary = (out / "summary.md").read_text(encoding="utf-8")
    help_first = summary.split("## Needs help first\n", 1)[1].split("\n## ", 1)[0]
    (empty,) = [line for line in help_first.splitlines() if "100107 (शर्मा, राम)" in line]
    assert "empty" in empty, empty


def _moodle_checked(out: Path) -> None:
    standing = term_class.standing(out)
    assert {student: row[:2] for student, row in standing.items()} == {
        "201": ("graded", FULL),
        "202": ("graded", f"{float(FULL) * 0.9:g}"),  # the look-alike name is its own student, 31 min late
        "203": ("graded", "1.5"),  # the stubs, and an adjustment
        "204": ("graded by hand", "18"),
    }, standing
    moodle = moodle_importer.Moodle(participants=frozenset(str(id) for id in term_class.MOODLE), maximum=100.0)
    imported = moodle_importer.upload((out / "moodle.csv").read_text(encoding="utf-8"), moodle)
    percents = {student: float(total) / float(FULL) * 100 for student, (_, total, _, _) in standing.items()}
    assert imported.grades == pytest.approx(percents) and not imported.skipped, imported
    assert set(imported.feedback) == set(percents), "each student's comment goes back in Feedback comments"
    assert imported.feedback["204"]["Feedback comments"].startswith("Graded by hand: 18 of"), imported.feedback
    with zipfile.ZipFile(out / "moodle-feedback.zip") as archive:
        read = {member: moodle_reads(member, set(percents)) for member in archive.namelist()}
        for member, found in read.items():
            assert found is not None, f"Moodle's zip importer skips {member}"
            assert archive.read(member) == (out / found[0] / "feedback.html").read_bytes()
    assert {found[0] for found in read.values() if found} == set(percents), read


def _nbgrader_checked(term: term_class.Term, out: Path) -> dict[str, str]:
    """nbgrader's gradebook as its API reads it holds the kit's totals, and each hand-in's feedback folder is laid
    out as generate_feedback lays it out; the totals."""
    try:
        from nbgrader.api import Gradebook
    except ImportError:
        unavailable('needs nbgrader: pip install -e ".[dev]"')
    standing = term_class.standing(out)
    assert {student: row[:2] for student, row in standing.items()} == {
        "alice": ("graded", FULL),
        "bob": ("graded", f"{float(WITHOUT_CHAR) - 3:g}"),  # 4 h 1 min late in Berlin: 10% of full marks
        "carol": ("no submission", ""),
    }, standing
    with Gradebook(f"sqlite:///{term.nbgrader_course / 'gradebook.db'}") as book:
        scores = {}
        for entry in book.submission_dicts(term_class.ASSIGNMENT):
            submission = book.find_submission(term_class.ASSIGNMENT, entry["student"])
            penalty = sum(notebook.late_submission_penalty or 0 for notebook in submission.notebooks)
            scores[entry["student"]] = f"{entry['score'] - penalty:g}"
            assert not entry["needs_manual_grade"], entry
        assert {student.id for student in book.students} == {"alice", "bob", "carol"}
    assert scores == {"alice": FULL, "bob": standing["bob"][1]}, scores
    for student in ("alice", "bob"):
        folder = term.nbgrader_course / "feedback" / student / term_class.ASSIGNMENT
        assert sorted(path.name for path in folder.iterdir()) == [
            "simple_tokenizers.html",
            "submission_secret.txt",
            "timestamp.txt",
        ]
        assert (folder / "simple_tokenizers.html").read_bytes() == (out / student / "feedback.html").read_bytes()
    return {student: row[1] for student, row in standing.items() if row[1]}


def _formgrader_shows(term: term_class.Term, totals: dict[str, str]) -> None:
    """formgrader's submissions page, in Chromium: each hand-in autograded with the kit's score before the late
    penalty nbgrader shows apart (its score), out of Part 1's points."""
    with served(term.nbgrader_course, term.root) as formgrader, driven() as driver:
        logged_in(driver, formgrader)
        listed = rows(driver, f"manage_submissions/{term_class.ASSIGNMENT}", formgrader)
        possible = full_marks("simple_tokenizers", bonus=False)
        scores = {"alice": FULL, "bob": WITHOUT_CHAR}  # formgrader's score is before nbgrader's late penalty
        for student, (first, last, _, _) in term_class.NBGRADER.items():
            (row,) = [row for row in listed if student in row]
            assert f"{last}, {first}" in row and f"{scores[student]} / {possible}" in row, listed
            assert "needs autograding" not in row, listed
        assert set(totals) == set(scores)


def _slurm_keeps_every_manual_grade(term: term_class.Term, local: Path) -> None:
    """The Canvas section as a Slurm array of two shards and a merge, into a fresh OUT: the manual files beside
    course.toml (an adjustment, a choice, an extension) reach it, and every total is the local run's."""
    with slurm_cluster.one_node_cluster(cpus=3) as cluster:
        bin_folder = term.root / "bin"
        bin_folder.mkdir()
        (bin_folder / "grade").write_text(
            f'#!/bin/sh\nexec "{sys.executable}" -m autograder.cli "$@"\n', encoding="utf-8"
        )
        (bin_folder / "grade").chmod(0o755)
        environment = cluster.environment(term_class.environment(term_class.ZONE))
        environment["PATH"] = f"{bin_folder}:{environment['PATH']}"
        batch = ["--roster", term.canvas_roster.name, "--course", str(term.course), "--title", term_class.TITLE]
        written = subprocess.run(
            [
                *JOBS,
                "--submissions",
                term.canvas_zip.name,
                "--batch-out",
                "out-slurm",
                "--",
                *batch,
                *term_class.OPTIONS,
            ],
            cwd=term.root,
            env=environment,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert written.returncode == 0, written.stderr
        submitted = subprocess.run(
            ["bash", "term.sbatch"], cwd=term.root, env=environment, capture_output=True, text=True, timeout=120
        )
        assert submitted.returncode == 0, submitted.stderr
        ids = re.search(r"job array (\d+), and the merge as job (\d+)", submitted.stdout)
        assert ids is not None, submitted.stdout
        array, merge = ids.groups()
        states = cluster.wait([array, merge], timeout=SLURM_WITHIN)
        logs = "\n".join(path.read_text() for path in sorted(term.root.glob("grade-class-*.log")))
        assert set(states.values()) == {"COMPLETED"}, f"{states}\n{logs}"
    fresh = term.root / "out-slurm"
    assert not any((fresh / name).exists() for name in ("adjustments.csv", "choices.csv", "extensions.csv"))
    assert term_class.standing(fresh) == term_class.standing(local), logs
    with (fresh / "gradebook.csv").open(encoding="utf-8", newline="") as stream:
        adjusted = {
            row["id"]: row["adjustment"] for row in csv.DictReader(stream) if row["adjustment"] not in ("", "0")
        }
    assert adjusted == {"100108": "4"}, adjusted


def test_a_whole_term_is_graded_alike_every_way_imports_shows_in_formgrader_and_keeps_its_manual_grades(tmp_path):
    require("unzip", install="apt-get install unzip")
    term = term_class.build(tmp_path)
    canvas = _same_every_way(term, term.canvas_zip, term.canvas_roster, "canvas")
    _canvas_checked(canvas)
    moodle = _same_every_way(term, term.moodle_zip, term.moodle_worksheet, "moodle")
    _moodle_checked(moodle)
    nbgrader_out = tmp_path / "out-nbgrader"
    term_class.grade_nbgrader(term, nbgrader_out)
    totals = _nbgrader_checked(term, nbgrader_out)
    _formgrader_shows(term, totals)
    _slurm_keeps_every_manual_grade(term, canvas)
