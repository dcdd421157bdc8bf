"""A whole term's class in the three shapes courses download it in, every oddity of issue 49 among its fourteen
students, and the kit's real batch on it: what test_whole_term walks end to end and term_pictures shows.

- Canvas, "Download Submissions" (``canvas.zip``) with the gradebook's export as its roster: names in Unicode,
  with digits and in a right-to-left script (lms_names spells them as Canvas does), a resubmission (Canvas's
  ``-1``), an upload conflict settled in choices.csv, an empty upload, late work on either side of the grace
  period (the zip's times are Berlin wall-clock readings), an extension, a notebook and a zip;
- Moodle, "Download all submissions" (``moodle.zip``) with its grading worksheet: a full name that reads like
  a classmate's folder (``Eve_201_assignsubmission_file``), late work, the stubs, a student with nothing;
- nbgrader, a course folder as ``nbgrader collect`` leaves it (notebooks, timestamp.txt, submission_secret.txt)
  with nbgrader's own roster headers.

One course file serves the three sections, its manual files (adjustments, choices, extensions) beside it.
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

from lms_names import canvas_name, moodle_folder

from autograder.kit_root import KIT_ROOT

SOLUTION = (KIT_ROOT / "solutions" / "simple_tokenizers.py").read_text(encoding="utf-8")
STUBS = (KIT_ROOT / "student_template" / "simple_tokenizers.py").read_text(encoding="utf-8")
# A try with char_tokenize not started: Part 1's full marks less that function's points.
OLDER = SOLUTION + "\n\ndef char_tokenize(text):\n    raise NotImplementedError\n"
ZONE = "Europe/Berlin"
ASSIGNMENT = "ps1"
TITLE = "BPE exercises"
CANVAS_ASSIGNMENT_ID = "4242"
# Part 1 only, and the cage's limits cut down: every hand-in here is quick, and the walk grades it many times.
OPTIONS = (
    "--part",
    "simple_tokenizers",
    "--limit",
    "call_seconds=2",
    "--limit",
    "test_seconds=20",
    "--limit",
    "submission_seconds=120",
)
COURSE_TOML = f"""\
[assignment]
name = "{TITLE}"

[late]
due = 2026-11-20T23:59:00
time_zone = "{ZONE}"
grace_minutes = 10
percent = 10
floor = 50
extensions = "extensions.csv"
"""


@dataclass(frozen=True)
class Upload:
    name: str  # as the platform names it in its download
    content: bytes
    when: tuple[int, int, int, int, int, int]  # the zip member's time: Berlin wall-clock, as the server wrote it


def _notebook(code: str) -> bytes:
    cell: dict[str, object] = {"cell_type": "code", "id": "handed-in", "metadata": {}, "source": code}
    cell |= {"execution_count": None, "outputs": []}
    notebook = {
        "cells": [cell],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(notebook, indent=1).encode("utf-8")


def _zipped(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in files.items():
            archive.writestr(zipfile.ZipInfo(name, date_time=(2026, 11, 18, 12, 0, 0)), content)
    return buffer.getvalue()


def _canvas(name: str, user: int, attachment: int, file: str, late: bool = False) -> str:
    return canvas_name(name, user, attachment, file, late=late)


TOKENIZERS = SOLUTION.encode("utf-8")
# Canvas: user id -> (sortable name, uploads). The times are Berlin's; the due date 20 Nov 23:59, grace 10 min.
CANVAS: dict[int, tuple[str, list[Upload]]] = {
    100101: (
        "Lovelace, Ada",
        [Upload(_canvas("Lovelace, Ada", 100101, 5001, "simple_tokenizers.py"), TOKENIZERS, (2026, 11, 20, 18, 0, 0))],
    ),
    # 6 minutes past the due date: within the grace period, whatever zone the zip is opened in
    100102: (
        "Müller, Jürgen",
        [
            Upload(
                _canvas("Müller, Jürgen", 100102, 5002, "simple_tokenizers.py", late=True),
                TOKENIZERS,
                (2026, 11, 21, 0, 5, 0),
            )
        ],
    ),
    # 1 h 6 min past it: one day's 10%
    100103: (
        "Nguyễn, Thị Hoa",
        [
            Upload(
                _canvas("Nguyễn, Thị Hoa", 100103, 5003, "simple_tokenizers.py", late=True),
                TOKENIZERS,
                (2026, 11, 21, 1, 5, 0),
            )
        ],
    ),
    # right to left, and a notebook
    100104: (
        "الحسن, علي",
        [
            Upload(
                _canvas("الحسن, علي", 100104, 5004, "simple_tokenizers.ipynb"),
                _notebook(SOLUTION),
                (2026, 11, 20, 20, 0, 0),
            )
        ],
    ),
    # digits and underscores in the name, and a resubmission: Canvas renames the new upload's file
    100105: (
        "Ōtsuka_3_, Ken",
        [
            Upload(
                _canvas("Ōtsuka_3_, Ken", 100105, 5105, "simple_tokenizers-1.py"),
                TOKENIZERS,
                (2026, 11, 20, 23, 40, 0),
            )
        ],
    ),
    # two uploads that disagree: the instructor settles it in choices.csv
    100106: (
        "Weiß, Zoë",
        [
            Upload(_canvas("Weiß, Zoë", 100106, 5006, "simple_tokenizers.py"), TOKENIZERS, (2026, 11, 20, 22, 10, 0)),
            Upload(
                _canvas("Weiß, Zoë", 100106, 5007, "backup.zip"),
                _zipped({"simple_tokenizers.py": OLDER.encode("utf-8")}),
                (2026, 11, 20, 22, 11, 0),
            ),
        ],
    ),
    # an empty upload
    100107: (
        "शर्मा, राम",
        [Upload(_canvas("शर्मा, राम", 100107, 5008, "simple_tokenizers.py"), b"", (2026, 11, 20, 21, 0, 0))],
    ),
    # a zip, two days late, within an extension; an adjustment on the function it left out
    100108: (
        "Kim, Jo",
        [
            Upload(
                _canvas("Kim, Jo", 100108, 5009, "handin.zip", late=True),
                _zipped({"simple_tokenizers.py": OLDER.encode("utf-8")}),
                (2026, 11, 22, 20, 0, 0),
            )
        ],
    ),
}
# Moodle: participant id -> (full name, the upload's bytes or None, its time in the worksheet's words and the zip's)
MOODLE: dict[int, tuple[str, bytes | None, str, tuple[int, int, int, int, int, int]]] = {
    201: ("Kay Kim", TOKENIZERS, "Friday, 20 November 2026, 10:15 PM", (2026, 11, 20, 22, 15, 0)),
    # a full name the student typed to read like Kay's folder; and 31 minutes late
    202: (
        "Eve_201_assignsubmission_file",
        TOKENIZERS,
        "Saturday, 21 November 2026, 12:30 AM",
        (2026, 11, 21, 0, 30, 0),
    ),
    203: ("Lea Lu", STUBS.encode("utf-8"), "Thursday, 19 November 2026, 9:00 AM", (2026, 11, 19, 9, 0, 0)),
    204: ("Max Moe", None, "-", (1980, 1, 1, 0, 0, 0)),
}
MOODLE_HEADER = (
    "Identifier,Full name,Email address,Status,Grade,Maximum Grade,Grade can be changed,"
    "Last modified (submission),Online text,Last modified (grade),Feedback comments"
)
# nbgrader: student id -> (first, last, the notebook's code or None, timestamp.txt)
NBGRADER: dict[str, tuple[str, str, str | None, str]] = {
    "alice": ("Alice", "Liddell", SOLUTION, "2026-11-20 21:15:00.000000 UTC"),
    "bob": ("Bob", "Ross", OLDER, "2026-11-21 03:00:00.000000 UTC"),  # 04:00 in Berlin: 4 h 1 min late
}
# The manual grades, beside course.toml: one file for the three sections.
ADJUSTMENTS = (
    "student,part_or_test,points,comment\n"
    '100108,simple_tokenizers.char_tokenize,4,"right idea, the order is off"\n'
    "204,,=18,handed in on paper\n"
    "203,,1.5,came to office hours\n"
)
CHOICES = f"student,file,upload\n100106,simple_tokenizers.py,{CANVAS[100106][1][0].name}\n"
EXTENSIONS = "student,due\n100108,2026-11-23 12:00\n"


@dataclass(frozen=True)
class Term:
    """Where the class is: the course folder (course.toml and its manual files), each section's download and
    roster, and the nbgrader course folder."""

    root: Path

    @property
    def course(self) -> Path:
        return self.root / "course" / "course.toml"

    @property
    def canvas_zip(self) -> Path:
        return self.root / "canvas.zip"

    @property
    def canvas_roster(self) -> Path:
        return self.root / "canvas-roster.csv"

    @property
    def moodle_zip(self) -> Path:
        return self.root / "moodle.zip"

    @property
    def moodle_worksheet(self) -> Path:
        return self.root / "grading-worksheet.csv"

    @property
    def nbgrader_course(self) -> Path:
        return self.root / "nbgrader-course"

    @property
    def nbgrader_roster(self) -> Path:
        return self.root / "nbgrader-roster.csv"


def build(root: Path) -> Term:
    """The whole class in the empty folder ``root``."""
    term = Term(root)
    term.course.parent.mkdir(parents=True)
    term.course.write_text(COURSE_TOML, encoding="utf-8")
    for name, text in (("adjustments.csv", ADJUSTMENTS), ("choices.csv", CHOICES), ("extensions.csv", EXTENSIONS)):
        (term.course.parent / name).write_text(text, encoding="utf-8")
    with zipfile.ZipFile(term.canvas_zip, "w") as archive:
        for _, uploads in CANVAS.values():
            for upload in uploads:
                archive.writestr(zipfile.ZipInfo(upload.name, date_time=upload.when), upload.content)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", f"{TITLE} ({CANVAS_ASSIGNMENT_ID})"])
    writer.writerow(["    Points Possible", "", "", "", "", "100"])
    for user, (name, _) in CANVAS.items():
        writer.writerow([name, str(user), f"s{user}", f"login{user}", "Section A", ""])
    term.canvas_roster.write_text(buffer.getvalue(), encoding="utf-8")

    lines = [MOODLE_HEADER]
    with zipfile.ZipFile(term.moodle_zip, "w") as archive:
        for participant, (name, content, shown, when) in MOODLE.items():
            if content is not None:
                member = f"{moodle_folder(name, participant)}/simple_tokenizers.py"
                archive.writestr(zipfile.ZipInfo(member, date_time=when), content)
            status = "Submitted for grading" if content is not None else "No submission"
            quoted = f'"{shown}"' if "," in shown else shown
            lines.append(f"Participant {participant},{name},p{participant}@uni.edu,{status},,100.00,Yes,{quoted},,-,")
    term.moodle_worksheet.write_text("\n".join(lines) + "\n", encoding="utf-8")

    roster = ["id,first_name,last_name,email"]
    for student, (first, last, code, timestamp) in NBGRADER.items():
        roster.append(f"{student},{first},{last},{student}@uni.edu")
        if code is None:
            continue
        folder = term.nbgrader_course / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        (folder / "simple_tokenizers.ipynb").write_bytes(_notebook(code))
        (folder / "timestamp.txt").write_text(timestamp, encoding="utf-8")
        (folder / "submission_secret.txt").write_text(f"secret-of-{student}", encoding="utf-8")
    roster.append("carol,Carol,Ann,carol@uni.edu")  # handed nothing in
    term.nbgrader_roster.write_text("\n".join(roster) + "\n", encoding="utf-8")
    return term


def environment(zone: str) -> dict[str, str]:
    """This process's environment with the clock in ``zone``, and this Python's ``grade`` first on PATH."""
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    return {**os.environ, "TZ": zone, "PATH": path}


def grade(submissions: Path, out: Path, roster: Path, term: Term, *more: str, zone: str = ZONE) -> str:
    """The real ``grade batch`` of ``submissions`` into ``out`` with the course file, run in ``zone``; what it said
    (its error stream). A batch that fails raises, with what it said."""
    command = [sys.executable, "-m", "autograder.cli", "batch", str(submissions), "-o", str(out), "--quiet"]
    command += ["--roster", str(roster), "--course", str(term.course), "--title", TITLE, *OPTIONS, *more]
    process = subprocess.run(command, capture_output=True, text=True, timeout=900, cwd=term.root, env=environment(zone))
    if process.returncode != 0:
        raise RuntimeError(f"grade batch {submissions.name} failed ({process.returncode}):\n{process.stderr[-4000:]}")
    return process.stderr


def unzipped(archive: Path, folder: Path, zone: str) -> Path:
    """``archive`` unpacked by Info-ZIP's unzip on a machine whose clock is in ``zone``."""
    subprocess.run(
        ["unzip", "-q", str(archive), "-d", str(folder)], check=True, env=environment(zone), capture_output=True
    )
    return folder


def grade_nbgrader(term: Term, out: Path) -> str:
    """The nbgrader course graded into ``out``, its scores into its gradebook.db and its feedback folders."""
    database = term.nbgrader_course / "gradebook.db"
    return grade(
        term.nbgrader_course,
        out,
        term.nbgrader_roster,
        term,
        "--nbgrader-db",
        str(database),
        "--assignment",
        ASSIGNMENT,
        "--return-feedback",
    )


def standing(out: Path) -> dict[str, tuple[str, str, str, str]]:
    """Each student's (status, total, lateness, late penalty) as the batch's gradebook.csv has them."""
    with (out / "gradebook.csv").open(encoding="utf-8", newline="") as stream:
        return {
            row["id"]: (row["status"], row["total"], row["late"], row["late_penalty"]) for row in csv.DictReader(stream)
        }
