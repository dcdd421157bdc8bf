"""The instructor's choices between a student's uploads: ``choices.csv`` in the batch's output folder.

Where two of a student's uploads hold one file, each its own way (``bpe.py``, and a ``backup.zip`` that
holds an older ``bpe.py``), the batch grades neither and names the choice to make. One line here makes
it, and the download stays as the LMS gave it: the student's id, the file, and the upload to take that
file from, named as the download names it (``1001,bpe.py,lovelaceada_1001_5002_backup.zip``).

Two whole hand-ins under one name (a folder ``ada/`` beside ``ada.zip``) are settled the same way, with ``*``
for the file: ``ada,*,ada.zip`` grades ``ada.zip`` and leaves ``ada/`` alone.

The file is the instructor's: the batch makes it, with its header only, the first time it meets such a
choice, and never writes it again; every run reads it, before any grading.
"""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from pathlib import Path

from autograder.atomic_files import write_once
from autograder.course.batch import instructor_csv
from autograder.course.batch.discover import Discovery
from autograder.hand_in.lms.uploads import UploadConflict
from autograder.run_errors import RunError

CHOICES = "choices.csv"
HEADER = ("student", "file", "upload")
WHOLE = "*"  # the file of a choice between whole hand-ins under one name (ada/ and ada.zip): all of one


class ChoicesError(RunError, ValueError):
    """choices.csv says something the batch cannot use; the message names the line and the fix."""


def read(path: Path, *, students: set[str], elsewhere: list[int] | None = None) -> dict[str, dict[str, str]]:
    """Each student's choices (file -> upload); raise ChoicesError on the first line that cannot be one.
    ``elsewhere``: as adjustments.read's, for the course's file, shared by every section."""
    found: dict[str, dict[str, str]] = {}
    lines: dict[tuple[str, str], int] = {}
    for number, row in instructor_csv.rows(path, HEADER, ChoicesError):
        where = f"{path}: line {number}"
        if len(row) != len(HEADER) or not all(cell.strip() for cell in row):
            raise ChoicesError(f"{where}: give the student's id, the file and the upload, as the batch's warning says")
        student, file, upload = (cell.strip() for cell in row)
        if student not in students:
            if elsewhere is not None:
                elsewhere.append(number)
                continue
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


def entry_name(origin: str) -> str:
    """A whole hand-in as a choice names it: its name in the folder of hand-ins, a folder's with a slash."""
    path = Path(origin)
    return f"{path.name}/" if path.is_dir() else path.name


def settle(
    discovery: Discovery, chosen: dict[str, dict[str, str]], path: Path
) -> tuple[Discovery, dict[str, dict[str, str]], dict[str, str]]:
    """``discovery`` with each conflict between whole hand-ins that a ``*`` line of ``chosen`` settles taken as
    the hand-in it names; the choices between uploads left for the hand-ins to read; and for each conflict left,
    the instructor's line: the choice to make in ``path``, or why the line there does not make it.
    ChoicesError for a ``*`` line about a student with one hand-in only."""
    taken = list(discovery.found)
    conflicts = dict(discovery.conflicts)
    left: dict[str, str] = {}
    for student, candidates in discovery.conflicts.items():
        names = [entry_name(candidate.origin) for candidate in candidates]
        wanted = chosen.get(student, {}).get(WHOLE)
        if wanted is not None and wanted.rstrip("/") in [name.rstrip("/") for name in names]:
            taken.append(
                next(c for c, name in zip(candidates, names, strict=True) if name.rstrip("/") == wanted.rstrip("/"))
            )
            del conflicts[student]
            continue
        shown = f"in {Path(candidates[0].origin).parent}: {', '.join(names)}"
        if wanted is not None:
            left[student] = (
                f"more than one submission ({shown}); {path} takes {student}'s hand-in from {wanted}, which is not "
                "one of them; name one of them in that line"
            )
        else:
            lines = " or ".join(_line(student, WHOLE, name) for name in names)
            left[student] = (
                f"more than one submission ({shown}); choose the one to grade with a line in {path}: {lines}"
            )
    stale = sorted(
        student for student, files in chosen.items() if WHOLE in files and student not in discovery.conflicts
    )
    if stale:
        raise ChoicesError(
            f"{path}: chooses between hand-ins of {stale[0]}, who has one hand-in only; delete the line "
            f"{_line(stale[0], WHOLE, chosen[stale[0]][WHOLE])}"
        )
    files = {
        student: {file: upload for file, upload in each.items() if file != WHOLE} for student, each in chosen.items()
    }
    settled = replace(discovery, found=sorted(taken, key=lambda found: found.student), conflicts=conflicts)
    return settled, files, left
