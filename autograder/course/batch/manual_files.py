"""Where the instructor's manual files are: ``adjustments.csv`` and ``choices.csv`` beside the course file.

They are the course's, not one run's: every batch, shard, merge and ``--student`` run reads the same files
whatever its output folder, so a fresh OUT (a Slurm array's, a CI shard's, a TA's machine) loses none of them.
Without a course file they stay in OUT, as before. An older kit kept them in OUT: one found there with rows
in it, and none with rows beside the course file, is read this run, and the run says to move it; both with
rows stop the batch, naming both, for the instructor to keep one.

Each shard records in OUT a digest of the manual files it saw; the merge compares them with its own, and names
the shards that saw others (a node with an old copy of the course), rather than merging them without a word.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from autograder.atomic_files import write_atomically
from autograder.course.batch import instructor_csv
from autograder.course.batch.adjustments import ADJUSTMENTS
from autograder.course.batch.adjustments import HEADER as ADJUSTMENTS_HEADER
from autograder.course.batch.choices import CHOICES
from autograder.course.batch.choices import HEADER as CHOICES_HEADER
from autograder.course.course_file import CourseFile
from autograder.run_errors import RunError

HEADERS = {ADJUSTMENTS: ADJUSTMENTS_HEADER, CHOICES: CHOICES_HEADER}


class ManualFilesError(RunError, ValueError):
    """The manual files are in two places at once; the message names both and the fix."""


@dataclass(frozen=True)
class ManualFiles:
    """The paths this run reads (and, where there is none yet, makes) each manual file at."""

    adjustments: Path
    choices: Path
    notes: list[str] = field(default_factory=list)  # one line per file read from OUT: where it belongs

    @property
    def shared(self) -> bool:
        """Whether they are the course's (beside its file), which every section's batch reads: a line for a
        student of another section is theirs, not a mistake."""
        return self.adjustments.parent != self.out

    out: Path = Path()


def locate(course: CourseFile, out: Path) -> ManualFiles:
    """Each manual file's path for this run: beside ``course``'s file, or in ``out`` without one, or in ``out``
    where an older kit left it there (said in ``notes``)."""
    if course.path is None:
        return ManualFiles(out / ADJUSTMENTS, out / CHOICES, out=out)
    home = course.path.parent
    if home.resolve() == Path.cwd().resolve():
        home = Path()  # said as the instructor has it where they run the batch: choices.csv, not a long path
    paths: dict[str, Path] = {}
    notes: list[str] = []
    for name, header in HEADERS.items():
        beside, old = home / name, out / name
        if beside.resolve() == old.resolve() or not _has_rows(old, header):
            paths[name] = beside
            continue
        if _has_rows(beside, header):
            raise ManualFilesError(
                f"{old} and {beside} both hold rows: the one beside the course file is the course's; copy what "
                f"{old} adds into it and delete {old}"
            )
        paths[name] = old
        notes.append(
            f"{old}: read from OUT, where an older kit kept it; move it beside {course.path} ({beside}), where "
            "every batch, shard and merge reads it whatever OUT is"
        )
    return ManualFiles(paths[ADJUSTMENTS], paths[CHOICES], notes, out=out)


def _has_rows(path: Path, header: tuple[str, ...]) -> bool:
    """Whether ``path`` holds a line after its header (a file the batch made and no one filled holds none)."""
    try:
        return any(True for _ in instructor_csv.rows(path, header, ValueError))
    except ValueError:
        return path.exists()  # not the batch's header: someone's file, so it counts, and its reader says why


# What a shard records in OUT of the manual files it saw; a dot file, so no student id (discover strips a leading
# dot) can name it.
SEEN_PREFIX = ".manual-files-seen-"


def other_sections(path: Path, lines: list[int]) -> list[str]:
    """The line for a course file's ``lines`` that name no student of this batch or its roster."""
    if not lines:
        return []
    shown = ", ".join(map(str, lines[:10])) + (f" and {len(lines) - 10} more" if len(lines) > 10 else "")
    return [
        f"{path}: line(s) {shown} name no student of this batch or its roster: left to the batch of their section; "
        "if one is a typo, fix the id as the gradebook shows it"
    ]


def digest(files: ManualFiles, extensions: Path | None) -> str:
    """One digest of the manual files' contents (an absent file counts as absent): two runs that saw the same files
    have the same digest."""
    hashed = hashlib.sha256()
    for path in (files.adjustments, files.choices, extensions):
        try:
            content = path.read_bytes() if path is not None else None
        except OSError:
            content = None
        hashed.update(b"-" if content is None else hashlib.sha256(content).digest())
    return hashed.hexdigest()


def record_seen(out: Path, shard: str, seen: str) -> None:
    """A shard's record in ``out`` of the manual files' digest it graded with, for the merge to compare."""
    write_atomically(out / f"{SEEN_PREFIX}{shard.replace('/', '-of-')}", seen + "\n")


def differing_shards(out: Path, seen: str) -> list[str]:
    """A line for the shards whose record in ``out`` differs from ``seen`` (the merge's own), if any."""
    others = sorted(
        path.name.removeprefix(SEEN_PREFIX).replace("-of-", "/")
        for path in out.glob(f"{SEEN_PREFIX}*")
        if path.read_text(encoding="utf-8").strip() != seen
    )
    if not others:
        return []
    return [
        f"shard(s) {', '.join(others)} graded with other manual files (adjustments.csv, choices.csv, extensions) "
        "than this merge reads: the class's files and every feedback page apply this merge's; if a shard's copy "
        "of the course was out of date, check its results, or grade it again after updating it"
    ]
