"""The instructor's own changes to grades: ``adjustments.csv`` in the batch's output folder.

One row per change: the student's id, what it is about (the whole grade,
a part, a function or one test), the points it adds (negative takes
away) and a comment the student reads in their feedback. The file is the
instructor's: the batch writes it once, with only its header, and never
again; every run reads it and applies it to the gradebook, the LMS file,
the summary and each feedback page. So no resume, regrade or ``--force``
can lose it, and deleting a row takes the change back at the next run.

A row has a grade to change or it is refused: one for a student who handed
nothing in, or whose hand-in cannot be graded, stops the batch before any
grading (held out of sight, it would land on top of the grade once the
hand-in grades); one for a hand-in that failed while being graded is listed
in the batch's warnings, and applies once it grades.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from autograder.atomic_files import write_once
from autograder.course.batch import instructor_csv
from autograder.scoring.grade_result import AdjustmentEntry, GradeResult

if TYPE_CHECKING:
    from autograder.scoring.points import SuitePoints

ADJUSTMENTS = "adjustments.csv"
HEADER = ("student", "part_or_test", "points", "comment")
_TEST = r"test_\w+(\[.*\])?"
EXAMPLE_TARGETS = '"" (the whole grade), "Part 3", "word_bpe", "word_bpe.train_bpe" or "word_bpe.train_bpe::test_name"'


class AdjustmentsError(ValueError):
    """adjustments.csv says something the batch cannot apply; the message names the line and the fix."""


@dataclass(frozen=True)
class Adjustment:
    student: str
    target: str  # as written: "" for the whole grade
    points: float
    comment: str
    line: int = 0  # its line in the file, for messages

    def as_data(self) -> AdjustmentEntry:
        return AdjustmentEntry(target=self.target or "the whole grade", points=self.points, comment=self.comment)


def ensure_file(out: Path) -> Path:
    """The file, with its header only, when the instructor has none yet: so they find where to write.

    Made whole, and never over a file already there: shards starting at once into one OUT each make it, and
    none may read it half-written or write over rows the instructor has added."""
    path = out / ADJUSTMENTS
    write_once(path, (",".join(HEADER) + "\n").encode("utf-8"))  # made once: then the instructor's
    return path


def read(path: Path, *, students: set[str], points: SuitePoints) -> dict[str, list[Adjustment]]:
    """Each student's adjustments, in the file's order; raise AdjustmentsError on the first bad line."""
    found: dict[str, list[Adjustment]] = {}
    targets = _targets(points)
    for number, row in instructor_csv.rows(path, HEADER, AdjustmentsError):
        where = f"{path}: line {number}"
        if len(row) != len(HEADER):
            raise AdjustmentsError(f"{where}: has {len(row)} cells, not {len(HEADER)}; quote a comment with commas")
        student, target, amount, comment = (cell.strip() for cell in row)
        if student not in students:
            raise AdjustmentsError(f"{where}: no student {student!r} in this batch; fix the id or delete the line")
        if target not in targets and not _is_test(target, targets):
            raise AdjustmentsError(f"{where}: {target!r} is not a part or test here; write {EXAMPLE_TARGETS}")
        try:
            value = float(amount)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise AdjustmentsError(f"{where}: points {amount!r} is not a number; write e.g. 2 or -1.5")
        found.setdefault(student, []).append(Adjustment(student, target, value, comment, number))
    return found


def refuse_without_grade(
    path: Path, found: dict[str, list[Adjustment]], *, no_hand_in: set[str], cannot_grade: dict[str, str]
) -> None:
    """Raise AdjustmentsError, naming the first line and the fix, on an adjustment with no grade to change:
    its student handed nothing in (``no_hand_in``), or their hand-in cannot be graded (``cannot_grade``: why)."""
    for student, rows in sorted(found.items()):
        where = f"{path}: line {rows[0].line}: {student}"
        if student in no_hand_in:
            raise AdjustmentsError(
                f"{where} handed nothing in, so there is no grade to adjust; delete the line (or add their hand-in)"
            )
        if student in cannot_grade:
            why = _cut(cannot_grade[student])
            raise AdjustmentsError(
                f"{where}'s hand-in cannot be graded ({why}), so there is no grade to adjust; settle the hand-in "
                "and run again, or delete the line"
            )


def held(path: Path, found: dict[str, list[Adjustment]], failed: set[str]) -> list[str]:
    """One line for each adjustment not applied because its student's hand-in failed while being graded."""
    return [
        f"{path}: line {row.line}: {student}'s hand-in could not be graded, so this adjustment of {row.points:g} "
        "is not applied yet; it applies once the hand-in grades (delete the line if it stood for the whole grade)"
        for student in sorted(failed & set(found))
        for row in found[student]
    ]


def _cut(text: str, limit: int = 120) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _targets(points: SuitePoints) -> set[str]:
    """What a row may name: the whole grade, a part (by number or module), a function, one of its tests."""
    targets = {""}
    for part in points.parts:
        targets |= {f"Part {part.number}", part.module}
        targets |= {f"{part.module}.{function}" for function in part.functions}
    return targets


def _is_test(target: str, targets: set[str]) -> bool:
    """``module.function::test_name`` (a parametrized case with its ``[id]``) of a function graded here."""
    function, separator, test = target.partition("::")
    return bool(separator) and function in targets and "." in function and re.fullmatch(_TEST, test) is not None


def apply(result: GradeResult, adjustments: list[Adjustment]) -> GradeResult:
    """``result`` with the adjustments added to its score and listed for the feedback."""
    if not adjustments:
        return result
    return replace(
        result,
        score=result.score + sum(adjustment.points for adjustment in adjustments),
        adjustments=tuple(adjustment.as_data() for adjustment in adjustments),
    )


def total(result: GradeResult) -> float:
    """The points the adjustments in ``result`` add (0 when there are none)."""
    return sum(entry.points for entry in result.adjustments or ())
