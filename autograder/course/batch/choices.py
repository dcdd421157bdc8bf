"""The instructor's choices between a student's uploads: ``choices.csv`` in the batch's output folder.

Where two of a student's uploads hold one file, each its own way (``bpe.py``, and a ``backup.zip`` that
holds an older ``bpe.py``), the batch grades neither and names the choice to make. One line here makes
it, and the download stays as the LMS gave it: the student's id, the file, and the upload to take that
file from, named as the download names it (``1001,bpe.py,lovelaceada_1001_5002_backup.zip``).

The file is the instructor's: the batch makes it, with its header only, the first time it meets such a
choice, and never writes it again; every run reads it, before any grading.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from autograder.atomic_files import write_once
from autograder.course.batch import instructor_csv
from autograder.handin.uploads import UploadConflict

CHOICES = "choices.csv"
HEADER = ("student", "file", "upload")


class ChoicesError(ValueError):
    """choices.csv says something the batch cannot use; the message names the line and the fix."""


def read(path: Path, *, students: set[str]) -> dict[str, dict[str, str]]:
    """Each student's choices (file -> upload); raise ChoicesError on the first line that cannot be one."""
    found: dict[str, dict[str, str]] = {}
    lines: dict[tuple[str, str], int] = {}
    for number, row in instructor_csv.rows(path, HEADER, ChoicesError):
        where = f"{path}: line {number}"
        if len(row) != len(HEADER) or not all(cell.strip() for cell in row):
            raise ChoicesError(f"{where}: give the student's id, the file and the upload, as the batch's warning says")
        student, file, upload = (cell.strip() for cell in row)
        if student not in students:
            raise ChoicesError(f"{where}: no hand-in of {student!r} in this batch; fix the id or delete the line")
        if (student, file) in lines:
            raise ChoicesError(f"{where}: chooses {file} of {student} again (line {lines[student, file]}); keep one")
        lines[student, file] = number
        found.setdefault(student, {})[file] = upload
    return found


def ensure_file(out: Path) -> Path:
    """The file, with its header only, when the instructor has none yet: the batch met a choice to make."""
    path = out / CHOICES
    write_once(path, (",".join(HEADER) + "\n").encode("utf-8"))  # made once: then the instructor's
    return path


def to_make(conflict: UploadConflict, student: str, path: Path) -> str:
    """The instructor's line for ``conflict`` in ``student``'s hand-in: what is wrong, and the line in
    ``path`` that settles it (one for each upload to choose from), or why the line there does not."""
    uploads = ", ".join(conflict.uploads)
    if conflict.refused is not None:
        return (
            f"{conflict.where}: {path} takes {conflict.file} from {conflict.refused}, which is not one of the "
            f"uploads that hold it ({uploads}); name one of them in that line"
        )
    lines = " or ".join(_line(student, conflict.file, upload) for upload in conflict.uploads)
    return f"{conflict.where}: {conflict.clash}; choose the one to grade with a line in {path}: {lines}"


def _line(*cells: str) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="").writerow(cells)
    return buffer.getvalue()
