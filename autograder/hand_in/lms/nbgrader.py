"""nbgrader's ``submitted/<student>/<assignment>/``, as the course folder or its ``submitted`` folder holds it,
with each hand-in's ``timestamp.txt`` (written by ``nbgrader submit``, read by its autograde)."""

from __future__ import annotations

from pathlib import Path

from autograder.hand_in.bounded import SKIPPED_FOLDERS
from autograder.hand_in.lms import times
from autograder.hand_in.lms.folders import GRADABLE_SUFFIXES
from autograder.hand_in.lms.found import DiscoveryError, Download, Found, listing, loader, student_id

SUBMITTED = "submitted"  # the course's folder of hand-ins, one folder per student
LAYOUT = f"nbgrader {SUBMITTED}/"  # Discovery.layout of a course's submitted/ folder
TIMESTAMP_BYTES = 100


def read_submitted(submitted: Path, assignment: str | None) -> Download:
    """The hand-ins of ``submitted``, each student's ``assignment`` (given, or the one each holds)."""
    candidates: list[Found] = []
    ignored: list[str] = []
    for student in listing(submitted):
        if not student.is_dir() or student.is_symlink():
            ignored.append(student.name)
            continue
        entries = listing(student)
        assignments = [entry for entry in entries if entry.is_dir() and entry.name not in SKIPPED_FOLDERS]
        has_files = any(entry.suffix.lower() in GRADABLE_SUFFIXES for entry in entries if entry.is_file())
        if assignment is not None:
            chosen = student / assignment
            if not chosen.is_dir():
                ignored.append(f"{student.name} (no {assignment}/)")
                continue
        elif len(assignments) == 1 and not has_files:
            chosen = assignments[0]
        elif has_files or not assignments:
            chosen = student  # a plain folder of submissions that happens to be called "submitted"
        else:
            held = ", ".join(entry.name for entry in assignments)
            raise DiscoveryError(f"{student}: holds assignments {held}; choose one with --assignment NAME")
        candidates.append(
            Found(
                student_id(student.name),
                str(chosen),
                loader(chosen),
                raw_name=student.name,
                timestamp=_timestamp(chosen / times.TIMESTAMP),
                file_time=times.newest_time([chosen]),
            )
        )
    if not candidates:
        raise DiscoveryError(f"{submitted}: no nbgrader submissions in it; give the course's submitted/ folder")
    chosen_names = {Path(candidate.origin).name for candidate in candidates}
    named = assignment or (chosen_names.pop() if len(chosen_names) == 1 else "")
    return Download(LAYOUT, candidates, ignored, assignment=named)


def _timestamp(path: Path) -> str:
    """nbgrader's ``timestamp.txt`` as it says the time, or "" where there is none. Read here, unlike the hand-in,
    because it is one short line, and read only so far."""
    try:
        with path.open("rb") as stream:
            text = stream.read(TIMESTAMP_BYTES).decode("utf-8", "replace")
    except OSError:
        return ""
    return " ".join(text.split())
