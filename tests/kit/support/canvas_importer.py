"""What Canvas's gradebook import ("Import" in the Gradebook) does with a CSV: its rules restated, to check the
kit's canvas.csv.

Restated from instructure/canvas-lms, lib/gradebook_importer.rb at 00b222d77ee43d046e6aee0347c4ed5b27e1741f
(``row_has_student_headers?``, ``update_column_count``, ``process_custom_column_headers``,
``strip_non_assignment_columns``, ``parse_assignments``, ``check_for_non_student_row``, ``process_student``,
``process_submissions``, ``identify_delimiter``), with ``Assignment.title_and_id`` (app/models/assignment.rb):

- the delimiter is ";" where the first three lines split into more fields, all as many, by ";" than by ",";
- the header must start ``Student``, ``ID`` (each cell containing the word) and have more than three cells;
- the student columns are Student, ID and Section, with SIS Login ID, or SIS User ID then SIS Login ID (and an
  Integration ID, a Root Account after them) before Section; a header cell whose title is one of the course's
  custom columns (Canvas's own "Notes" column is one) is a custom column and counts as a student column too,
  so that the cell before the assignments must still read Section: that many cells after the student's are
  taken as student information whatever they hold;
- what is left, less any cell that contains Current Score, Current Points, Current Grade, Final Score, Final
  Points, Final Grade, Override Score, Override Grade or Override Status, is an assignment: ``Title (id)`` is
  the assignment of that id; failing that, the one of that exact title; failing that, a new assignment;
- a row whose first cell contains ``Points Possible`` sets the points; a row of only blanks, Muted or Manual
  Posting is skipped;
- a row's student is the user of its ID, else of its SIS User ID, else of its SIS Login ID, else the one whose
  name or sortable name is its Student cell, else a student Canvas does not have;
- each assignment's cell (stripped) is the student's new grade; blank or "-" is no grade, and changes nothing.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

RESERVED = ("Student", "LastName", "FirstName", "ID", "SIS User ID", "SIS Login ID", "Section", "Integration ID")
NON_ASSIGNMENT = (
    "Current Score",
    "Current Points",
    "Current Grade",
    "Final Score",
    "Final Points",
    "Final Grade",
    "Override Score",
    "Override Grade",
    "Override Status",
)
TITLE_AND_ID = re.compile(r"\A(.*)\s\((\d+)\)\Z", re.DOTALL)


class Refused(ValueError):
    """Canvas says "Invalid header row" and imports nothing."""


@dataclass(frozen=True)
class Student:
    id: str
    name: str
    sortable_name: str = ""
    sis_user_id: str = ""
    login_id: str = ""


@dataclass(frozen=True)
class Course:
    """The course as Canvas holds it: its students, its assignments (id -> title), its custom columns' titles."""

    students: tuple[Student, ...]
    assignments: dict[str, str]
    custom_columns: tuple[str, ...] = ()


@dataclass
class Imported:
    """What an import would change: grades by assignment id (a new one's key is ``new: <title>``) and student id,
    custom columns' contents by title and student, the rows matching no student, each column's points."""

    grades: dict[str, dict[str, str]] = field(default_factory=dict)
    custom: dict[str, dict[str, str]] = field(default_factory=dict)
    unknown_students: list[str] = field(default_factory=list)
    points: dict[str, str] = field(default_factory=dict)

    @property
    def new_assignments(self) -> list[str]:
        return [key.removeprefix("new: ") for key in self.grades if key.startswith("new: ")]


def upload(text: str, course: Course) -> Imported:
    rows = list(csv.reader(io.StringIO(text), delimiter=_delimiter(text)))
    rows = [row for row in rows if row and not all(re.fullmatch(r"[;, ]*", cell) for cell in row)]
    if not rows:
        raise Refused("empty file")
    header = rows[0]
    if not (len(header) > 3 and "Student" in header[0] and "ID" in header[1]):
        raise Refused("Invalid header row: it does not start Student, ID")
    custom = {
        index: title for index, title in enumerate(header) if title not in RESERVED and title in course.custom_columns
    }
    columns = 3
    if re.search(r"SIS\s+Login\s+ID", header[2]):
        columns += 1
    elif re.search(r"SIS\s+User\s+ID", header[2]) and re.search(r"SIS\s+Login\s+ID", header[3]):
        columns += 2 + (1 if re.search(r"Integration\s+ID", header[4] if len(header) > 4 else "") else 0)
    columns += len(custom)
    if "Section" not in header[columns - (1 + len(custom))]:
        raise Refused("Invalid header row: the cell before the assignments is not Section")
    assignments: dict[int, str] = {}
    for index in range(columns, len(header)):
        if index in custom or any(word in header[index] for word in NON_ASSIGNMENT):
            continue
        assignments[index] = _assignment(header[index], course)
    imported = Imported()
    for row in rows[1:]:
        if "Points Possible" in row[0]:
            imported.points = {key: row[index] for index, key in assignments.items() if index < len(row)}
            continue
        if all(re.fullmatch(r"\s*(Muted|Manual Posting.*)?\s*", cell, re.IGNORECASE) for cell in row):
            continue
        student = _student(row, header, course)
        if student is None:
            imported.unknown_students.append(row[0])
            continue
        for index, key in assignments.items():
            grade = row[index].strip() if index < len(row) else ""
            if grade not in ("", "-"):
                imported.grades.setdefault(key, {})[student] = grade
        for index, title in custom.items():
            if index < len(row) and row[index]:
                imported.custom.setdefault(title, {})[student] = row[index]
    return imported


def _delimiter(text: str) -> str:
    lines = text.splitlines()[:3]

    def fields(separator: str) -> int:
        counts = {len(next(csv.reader([line], delimiter=separator), [])) for line in lines}
        return counts.pop() if len(counts) == 1 else 0

    return ";" if fields(";") > fields(",") else ","


def _assignment(header: str, course: Course) -> str:
    found = TITLE_AND_ID.match(header)
    if found and found[2] in course.assignments:
        return found[2]
    by_title = [key for key, title in course.assignments.items() if title == header]
    return by_title[0] if by_title else f"new: {found[1] if found else header}"


def _student(row: list[str], header: list[str], course: Course) -> str | None:
    cell = dict(zip(header, row, strict=False))
    for student in course.students:
        if row[1] and student.id == row[1]:
            return student.id
    for column, attribute in (("SIS User ID", "sis_user_id"), ("SIS Login ID", "login_id")):
        for student in course.students:
            if cell.get(column) and getattr(student, attribute) == cell[column]:
                return student.id
    for student in course.students:
        if row[0] in (student.name, student.sortable_name):
            return student.id
    return None
