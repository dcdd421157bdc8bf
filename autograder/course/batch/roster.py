"""The class list: who should have handed in, and their names.

Any CSV with a header row will do, as LMSs and registrars export them: the
id is the first column called one of ``ID_COLUMNS``, the name comes from a
``NAME_COLUMNS`` column or from first and last name columns.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from autograder.course.batch.discover import student_id

ID_COLUMNS = ("id", "student_id", "student id", "sis user id", "sis login id", "username", "login", "user", "email")
NAME_COLUMNS = ("name", "full name", "student name", "student")
FIRST_COLUMNS = ("first name", "first", "given name")
LAST_COLUMNS = ("last name", "last", "surname", "family name")


class RosterError(Exception):
    """The roster cannot be read; the message names the file and the fix."""


@dataclass(frozen=True)
class Student:
    id: str
    name: str
    row: dict[str, str]  # every column, for exports that need more (Canvas's SIS ids, sections)


def read_roster(path: Path) -> dict[str, Student]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as error:
        raise RosterError(f"{path}: cannot be read ({error.strerror}); give the roster's CSV file") from None
    except UnicodeDecodeError:
        raise RosterError(f"{path}: is not UTF-8 text; export the roster as CSV (UTF-8)") from None
    reader = csv.DictReader(text.splitlines())
    headers = {(header or "").strip().lower(): header for header in reader.fieldnames or []}
    id_column = next((headers[name] for name in ID_COLUMNS if name in headers), None)
    if id_column is None:
        found = ", ".join(repr(header) for header in reader.fieldnames or []) or "no header row"
        raise RosterError(f"{path}: has no id column (found {found}); name the column of student ids 'id'")
    name_column = next((headers[name] for name in NAME_COLUMNS if name in headers and headers[name] != id_column), None)
    first = next((headers[name] for name in FIRST_COLUMNS if name in headers), None)
    last = next((headers[name] for name in LAST_COLUMNS if name in headers), None)
    students: dict[str, Student] = {}
    for number, row in enumerate(reader, start=2):
        raw = (row.get(id_column) or "").strip()
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
        cleaned = {str(key): (value or "").strip() for key, value in row.items()}
        students[student_id(raw)] = Student(student_id(raw), name, cleaned)
    return students
