"""The batch's results on disk: one folder per student, each file written whole or not at all.

A result is current when its fingerprint matches: the submission's files,
the graded suite, the reference solutions, the limits and the grader's
version. Anything else (a changed submission, a fixed test) is graded again.
``results.json`` is written last, so its presence means the student is done.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable
from pathlib import Path

from autograder.atomic_files import TEMP_PREFIX, write_atomically
from autograder.reports import json_report
from autograder.scoring.grade_result import GradeResult

RESULTS = "results.json"
FEEDBACK_MARKDOWN = "feedback.md"  # what the student reads, in each student's folder
FEEDBACK_PAGE = "feedback.html"
# What OUT holds beside the students' folders (the class's files, the instructor's manual files), any case: no
# student's id may be one of them (discover gives such a hand-in an id of its own), or its folder would stand where
# the batch writes a class file. A kit test checks that a batch writes nothing else at OUT's top level.
CLASS_FILES = frozenset(
    {
        "gradebook.csv",
        "canvas.csv",
        "moodle.csv",
        "moodle-feedback.zip",
        "summary.md",
        "summary.html",
        "summary-histogram.svg",
        "adjustments.csv",
        "choices.csv",
        "extensions.csv",
        "course.toml",
    }
)


class ResultStore:
    def __init__(self, root: Path) -> None:
        self.root = root

    def folder(self, student: str) -> Path:
        return self.root / student

    def sweep(self, students: Iterable[str] | None = None) -> int:
        """Remove half-written files a killed batch left behind; return how many. With ``students`` (a shard's),
        only in their folders: other shards writing into this folder at once keep their files being written."""
        if students is None:
            leftovers = [*self.root.glob(f"*/{TEMP_PREFIX}*"), *self.root.glob(f"{TEMP_PREFIX}*")]
        else:
            leftovers = [path for student in students for path in self.folder(student).glob(f"{TEMP_PREFIX}*")]
        removed = 0
        for leftover in leftovers:
            with contextlib.suppress(OSError):
                leftover.unlink()
                removed += 1
        return removed

    def current(self, student: str, fingerprint: str) -> GradeResult | None:
        """The stored result when it was made from exactly this submission and grading set-up."""
        result = self.read(student)
        if result is None or result.batch is None or result.batch.fingerprint != fingerprint:
            return None
        return result

    def read(self, student: str) -> GradeResult | None:
        """The stored result; None where there is none, or the file is not one (it is graded again)."""
        try:
            return GradeResult.from_json(json.loads((self.folder(student) / RESULTS).read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None

    def refresh_feedback(self, student: str, feedback: dict[str, str]) -> None:
        """Rewrite the feedback files whose text changed (an adjustment, another --feedback); leave the rest."""
        folder = self.folder(student)
        for name, text in feedback.items():
            try:
                unchanged = (folder / name).read_text(encoding="utf-8") == text
            except (OSError, UnicodeDecodeError):
                unchanged = False
            if not unchanged:
                write_atomically(folder / name, text)

    def write(self, student: str, result: GradeResult | None, feedback: dict[str, str]) -> None:
        """Feedback files first, the results last: a result on disk always has its feedback beside it."""
        folder = self.folder(student)
        for name, text in feedback.items():
            write_atomically(folder / name, text)
        if result is not None:
            write_atomically(folder / RESULTS, json_report.render(result))
        else:
            with contextlib.suppress(FileNotFoundError):
                (folder / RESULTS).unlink()
