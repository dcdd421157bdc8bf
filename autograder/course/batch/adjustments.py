"""The instructor's own changes to grades: ``adjustments.csv`` in the batch's output folder.

One row per change: the student's id, what it is about (the whole grade,
a part, a function or one test), the points it adds (negative takes
away) and a comment the student reads in their feedback. The file is the
instructor's: the batch writes it once, with only its header, and never
again; every run reads it and applies it to the gradebook, the LMS file,
the summary and each feedback page. So no resume, regrade or ``--force``
can lose it, and deleting a row takes the change back at the next run.

A row's points may instead set the whole grade by hand: ``=85`` is a manual
total, which stands in for the tests' score (the student's only row). It is
how a hand-in that cannot be graded, or work that came another way, gets a
grade: the gradebook says "graded by hand".

A row that adds points has a grade to change or it is refused: one for a
student who handed nothing in, or whose hand-in cannot be graded, stops the
batch before any grading (held out of sight, it would land on top of the
grade once the hand-in grades); one for a hand-in that failed while being
graded is listed in the batch's warnings, and applies once it grades.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from autograder.atomic_files import write_once
from autograder.course.batch import instructor_csv
from autograder.run_errors import RunError
from autograder.scoring.grade_result import AdjustmentEntry, GradeResult
from autograder.scoring.scoring import points_number

if TYPE_CHECKING:
    from autograder.scoring.points import SuitePoints

ADJUSTMENTS = "adjustments.csv"
HEADER = ("student", "part_or_test", "points", "comment")
_TEST = r"test_\w+(\[.*\])?"
EXAMPLE_TARGETS = '"" (the whole grade), "Part 3", "word_bpe", "word_bpe.train_bpe" or "word_bpe.train_bpe::test_name"'
TOTAL_MARK = "="  # points written "=85": the whole grade's total, set by hand


class AdjustmentsError(RunError, ValueError):
    """adjustments.csv says something the batch cannot apply; the message names the line and the fix."""


@dataclass(frozen=True)
class Adjustment:
    student: str
    target: str  # as written: "" for the whole grade
    points: float
    comment: str
    line: int = 0  # its line in the file, for messages
    total: bool = False  # the points are the grade's total, set by hand ("=85"), not points added

    def as_data(self) -> AdjustmentEntry:
        return AdjustmentEntry(
            target=self.target or "the whole grade", points=self.points, comment=self.comment, total=self.total
        )


def manual_total(rows: list[Adjustment]) -> Adjustment | None:
    """The total set by hand among a student's rows (read() allows it only as their one row), or None."""
    return next((row for row in rows if row.total), None)


def ensure_file(out: Path) -> Path:
    """The file, with its header only, when the instructor has none yet: so they find where to write.

    Made whole, and never over a file already there: shards starting at once into one OUT each make it, and
    none may read it half-written or write over rows the instructor has added."""
    path = out / ADJUSTMENTS
    write_once(path, (",".join(HEADER) + "\n").encode("utf-8"))  # made once: then the instructor's
    return path


def read(
    path: Path, *, students: set[str], points: SuitePoints, elsewhere: list[int] | None = None
) -> dict[str, list[Adjustment]]:
    """Each student's adjustments, in the file's order; raise AdjustmentsError on the first bad line.

    ``elsewhere``: where the file is the course's (beside the course file, shared by every section), the numbers
    of the lines for students of no batch here go there, and are left out, rather than stop the run."""
    found: dict[str, list[Adjustment]] = {}
    targets = _targets(points)
    for number, row in instructor_csv.rows(path, HEADER, AdjustmentsError):
        where = f"{path}: line {number}"
        if len(row) != len(HEADER):
            raise AdjustmentsError(f"{where}: has {len(row)} cells, not {len(HEADER)}; quote a comment with commas")
        student, target, amount, comment = (cell.strip() for cell in row)
        if student not in students:
            if elsewhere is not None:
                elsewhere.append(number)
                continue
            raise AdjustmentsError(f"{where}: no student {student!r} in this batch; fix the id or delete the line")
        if target not in targets and not _is_test(target, targets):
            raise AdjustmentsError(f"{where}: {target!r} is not a part or test here; write {EXAMPLE_TARGETS}")
        total = amount.startswith(TOTAL_MARK)
        try:
            value = float(amount.removeprefix(TOTAL_MARK))
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or (total and value < 0):
            raise AdjustmentsError(
                f"{where}: points {amount!r} is not a number; write e.g. 2 or -1.5 to add, or =85 to set the total"
            )
        if total and target:
            raise AdjustmentsError(
                f"{where}: a total set by hand ({amount}) is the whole grade's; leave part_or_test empty"
            )
        rows_before = found.setdefault(student, [])
        if rows_before and (total or manual_total(rows_before)):
            first = rows_before[0].line
            raise AdjustmentsError(
                f"{where}: {student} has a total set by hand and another row (line {first}); a total stands alone: "
                "fold the other row into it, or delete one"
            )
        rows_before.append(Adjustment(student, target, value, comment, number, total))
    return found


def refuse_without_grade(
    path: Path, found: dict[str, list[Adjustment]], *, no_hand_in: set[str], cannot_grade: dict[str, str]
) -> None:
    """Raise AdjustmentsError, naming the first line and the fix, on an adjustment with no grade to change:
    its student handed nothing in (``no_hand_in``), or their hand-in cannot be graded (``cannot_grade``: why).
    A total set by hand needs no grade: it stands in for one."""
    for student, rows in sorted(found.items()):
        if manual_total(rows) is not None:
            continue
        where = f"{path}: line {rows[0].line}: {student}"
        if student in no_hand_in:
            raise AdjustmentsError(
                f"{where} handed nothing in, so there is no grade to adjust; delete the line, add their hand-in, "
                f"or set their total by hand ({TOTAL_MARK}85 in points)"
            )
        if student in cannot_grade:
            why = _cut(cannot_grade[student])
            raise AdjustmentsError(
                f"{where}'s hand-in cannot be graded ({why}), so there is no grade to adjust; settle the hand-in "
                f"and run again, delete the line, or set their total by hand ({TOTAL_MARK}85 in points)"
            )


def held(path: Path, found: dict[str, list[Adjustment]], failed: set[str]) -> list[str]:
    """One line for each adjustment not applied because its student's hand-in failed while being graded."""
    return [
        f"{path}: line {row.line}: {student}'s hand-in could not be graded, so this adjustment of {row.points:g} "
        f"is not applied yet; it applies once the hand-in grades (or write {TOTAL_MARK}N to set the total by hand)"
        for student in sorted(failed & set(found))
        if manual_total(found[student]) is None
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
    """``result`` with the adjustments added to its score (or its total set by hand) and listed for the feedback."""
    if not adjustments:
        return result
    by_hand = manual_total(adjustments)
    return replace(
        result,
        score=by_hand.points if by_hand else result.score + sum(adjustment.points for adjustment in adjustments),
        adjustments=tuple(adjustment.as_data() for adjustment in adjustments),
    )


def by_hand(row: Adjustment, why: str, full_marks: float) -> GradeResult:
    """The grade of a student the tests have not graded (``why``), as a total set by hand (``row``) gives it."""
    said = f"Graded by hand: {points_number(row.points)} / {points_number(full_marks)}."
    return GradeResult(
        score=row.points,
        max_score=full_marks,
        execution_time=0.0,
        output=f"{said}\nThe tests could not grade it: {why}" if why else said,
        tests=(),
        submission=row.student,
        adjustments=(row.as_data(),),
    )


def total(result: GradeResult) -> float:
    """What the adjustments in ``result`` change of the tests' score (0 when there are none): the points they add,
    or for a total set by hand, that total less the tests' score."""
    entries = result.adjustments or ()
    set_by_hand = next((entry for entry in entries if entry.total), None)
    if set_by_hand is not None:
        return set_by_hand.points - sum(test.score for test in result.tests)
    return sum(entry.points for entry in entries)
