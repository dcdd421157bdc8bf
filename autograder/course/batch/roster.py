"""The class list: who should have handed in, and their names.

Any CSV with a header row will do, as LMSs and registrars export them: the
id is the first column called one of ``ID_COLUMNS``, the name comes from a
``NAME_COLUMNS`` column or from first and last name columns.

Moodle's offline grading worksheet is read as it comes: its ``Identifier``
column says ``Participant 201`` where the Moodle download's names say
``201``, so the prefix is dropped (as Moodle's own importer drops it).
"""

from __future__ import annotations

import csv
import hashlib
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from autograder.course.batch.discover import student_id
from autograder.run_errors import RunError

ID_COLUMNS = ("id", "student_id", "student id", "sis user id", "sis login id", "username", "login", "user", "email")
NAME_COLUMNS = ("name", "full name", "student name", "student")
FIRST_COLUMNS = ("first name", "first_name", "first", "given name")  # first_name: nbgrader's own
LAST_COLUMNS = ("last name", "last_name", "last", "surname", "family name")
# Moodle's grading worksheet (assignfeedback_offline): its id column and the words before each id, which
# Moodle's importer strips by length (get_string('hiddenuser', 'assign') is "Participant ").
MOODLE_ID_COLUMN = "Identifier"
MOODLE_PARTICIPANT = "Participant "
# Canvas's Student View user, in every course's gradebook export under this sortable name: nobody's hand-in.
CANVAS_TEST_STUDENT = "Student, Test"
EMAIL_COLUMNS = ("email", "email address", "e-mail", "mail")


class RosterError(RunError):
    """The roster cannot be read; the message names the file and the fix."""


@dataclass(frozen=True)
class Student:
    id: str
    name: str
    row: dict[str, str]  # every column, for exports that need more (Canvas's SIS ids, sections)


def moodle_id(identifier: str) -> str:
    """``Participant 201`` (a Moodle worksheet's Identifier) as the Moodle download names the student: ``201``."""
    return identifier.strip().removeprefix(MOODLE_PARTICIPANT).strip()


def is_moodle_worksheet(path: Path) -> bool:
    """Whether the roster at ``path`` is Moodle's grading worksheet: its header has Identifier and Grade, which
    are what Moodle's importer needs, with Last modified (grade)."""
    try:
        with path.open(encoding="utf-8-sig", newline="") as stream:
            header = next(csv.reader(stream), [])
    except (OSError, UnicodeDecodeError):
        return False
    return {MOODLE_ID_COLUMN, "Grade", "Last modified (grade)"} <= set(header)


def email_of(row: dict[str, str]) -> str:
    """The student's email from their roster row (``EMAIL_COLUMNS``, any case), or "" where it has none."""
    by_name = {key.strip().lower(): value for key, value in row.items()}
    return next((by_name[name] for name in EMAIL_COLUMNS if by_name.get(name)), "")


class Roster(dict[str, Student]):
    """The students by id, and what reading them found worth saying (ids that collide, ids given twice)."""

    def __init__(self, students: dict[str, Student], warnings: list[str]) -> None:
        super().__init__(students)
        self.warnings = warnings


def read_roster(path: Path) -> Roster:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as error:
        raise RosterError(f"{path}: cannot be read ({error.strerror}); give the roster's CSV file") from None
    except UnicodeDecodeError:
        raise RosterError(f"{path}: is not UTF-8 text; export the roster as CSV (UTF-8)") from None
    reader = csv.DictReader(text.splitlines())
    headers = {(header or "").strip().lower(): header for header in reader.fieldnames or []}
    id_column = next((headers[name] for name in ID_COLUMNS if name in headers), None)
    if id_column is None and MOODLE_ID_COLUMN in (reader.fieldnames or []):
        id_column = MOODLE_ID_COLUMN
    if id_column is None:
        found = ", ".join(repr(header) for header in reader.fieldnames or []) or "no header row"
        raise RosterError(f"{path}: has no id column (found {found}); name the column of student ids 'id'")
    name_column = next((headers[name] for name in NAME_COLUMNS if name in headers and headers[name] != id_column), None)
    first = next((headers[name] for name in FIRST_COLUMNS if name in headers), None)
    last = next((headers[name] for name in LAST_COLUMNS if name in headers), None)
    rows: dict[str, list[tuple[int, str, Student]]] = defaultdict(list)  # cleaned id -> (line, raw id, student)
    left_out: list[str] = []
    for number, row in enumerate(reader, start=2):
        raw = (
            moodle_id(row.get(id_column) or "") if id_column == MOODLE_ID_COLUMN else (row.get(id_column) or "").strip()
        )
        if not raw:
            continue
        if None in row:
            raise RosterError(f"{path}: line {number} has more fields than the header; quote names with commas")
        if name_column:
            name = (row.get(name_column) or "").strip()
        else:
            name = " ".join(
                part for part in ((row.get(first or "") or "").strip(), (row.get(last or "") or "").strip()) if part
            )
        if name_column == "Student" and name == CANVAS_TEST_STUDENT:
            left_out.append(raw)  # not a student: no "no submission" line for it on every run
            continue
        cleaned = {str(key): (value or "").strip() for key, value in row.items()}
        rows[student_id(raw)].append((number, raw, Student(student_id(raw), name, cleaned)))
    roster = _distinct(path, rows)
    if left_out:
        roster.warnings.append(
            f"{path}: left out Canvas's test student ({CANVAS_TEST_STUDENT!r}, id {', '.join(left_out)}), "
            "the Student View user, who is no one's hand-in"
        )
    return roster


def _distinct(path: Path, rows: dict[str, list[tuple[int, str, Student]]]) -> Roster:
    """One student per id, losing no one: ids that clean to one (``Zoë.Li``, ``Zoé.Li``) get ids of their own
    as two hand-in names do (discover._distinct_ids: the clean one keeps it, the others add a digest of their
    raw id), and an id given twice keeps its last line, with a warning naming both."""
    students: dict[str, Student] = {}
    warnings: list[str] = []
    for student, entries in rows.items():
        by_raw: dict[str, list[tuple[int, Student]]] = defaultdict(list)
        for number, raw, entry in entries:
            by_raw[raw].append((number, entry))
        keeper = student if student in by_raw else min(by_raw)
        for raw, given in sorted(by_raw.items()):
            if len(given) > 1:
                lines = " and ".join(str(number) for number, _ in given)
                warnings.append(f"{path}: id {raw!r} is on lines {lines}; the last line counts")
            number, entry = given[-1]
            if raw == keeper:
                students[student] = entry
                continue
            own = f"{student}-{hashlib.sha256(raw.encode('utf-8', 'surrogateescape')).hexdigest()[:8]}"
            students[own] = Student(own, entry.name, entry.row)
            warnings.append(
                f"{path}: ids {keeper!r} and {raw!r} (line {number}) both read as {student!r}: "
                f"{raw!r} is graded as {own!r}, as its hand-in's name is"
            )
    return Roster(students, warnings)
