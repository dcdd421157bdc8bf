"""A batch's fourth stage: each grade as the class's files show it, from the results and the instructor's word.

What the instructor adds to what the tests gave is applied here, once: the adjustments (adjustments.csv),
then what lateness costs (the course file's late rules, with the extensions), and the grades set by hand
for students the tests gave none. ``Terms`` is made before the grading (each result's feedback is written
with them as it arrives); ``settle`` comes after it, for the grades by hand and what the run says of the
instructor's files.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from autograder.course.batch import adjustments, late_work, manual_files
from autograder.course.batch.plan import Outcomes, Plan
from autograder.course.batch.publishing import Feedback
from autograder.course.course_file import CourseFile
from autograder.course.late import Lateness
from autograder.scoring.grade_result import GradeResult


@dataclass(frozen=True)
class Terms:
    """What changes a result before the class sees it: the adjustments by student, the late rules and each
    hand-in's standing against them."""

    course: CourseFile
    changes: dict[str, list[adjustments.Adjustment]]
    standings: dict[str, Lateness]
    full_marks: float

    def adjusted(self, student: str, result: GradeResult) -> GradeResult:
        """``result`` as the class's files show it: the adjustments, then what lateness costs, applied once."""
        result = adjustments.apply(result, self.changes.get(student, []))
        if student in self.standings:
            result = late_work.charged(result, self.standings[student], self.course.late, self.full_marks)
        return result


def terms(plan: Plan, course: CourseFile) -> Terms:
    """The terms ``plan``'s results are settled on: its adjustments, and its hand-ins timed against
    ``course``'s late rules (a shard times its own hand-ins only)."""
    standings = late_work.standing(
        course.late,
        {found.student: found for found in plan.read_now.found},
        {student: entry.row for student, entry in (plan.roster or {}).items()},
        plan.extensions,
    )
    return Terms(course, plan.changes, standings, plan.points.full_marks)


def settle(plan: Plan, outcomes: Outcomes, terms: Terms, feedback: Feedback, out: Path) -> tuple[set[str], list[str]]:
    """Give ``outcomes`` the grades set by hand (their feedback written), and return who has one, with what
    the run says of the roster and the instructor's files (in ``out``, what a shard saw of them)."""
    by_hand = _graded_by_hand(
        outcomes, plan.failures, plan.changes, set(plan.roster or {}), plan.points.full_marks, plan.selection.reads
    )
    for student, document in by_hand.items():
        graded_by_hand = terms.adjusted(student, document)
        outcomes[student] = (graded_by_hand, outcomes.get(student, (None, ""))[1])
        plan.results.refresh_feedback(student, feedback.by_hand(student, graded_by_hand))
    manual, selection = plan.manual, plan.selection
    warnings: list[str] = list(plan.roster.warnings) if plan.roster is not None else []
    warnings += manual.notes
    warnings += manual_files.other_sections(plan.changes_path, plan.other_changes or [])
    warnings += manual_files.other_sections(manual.choices, plan.other_choices or [])
    seen = manual_files.digest(manual, terms.course.late.extensions)
    if selection.shard is not None:
        manual_files.record_seen(out, str(selection.shard), seen)
    elif selection.merge:
        warnings += manual_files.differing_shards(out, seen)
    warnings += plan.to_choose
    without = {student for student, (got, _) in outcomes.items() if not got}
    warnings += adjustments.held(plan.changes_path, plan.changes, without)
    warnings += late_work.doubts(terms.standings)
    warnings += plan.unknown_extensions
    return set(by_hand), warnings


def _graded_by_hand(
    outcomes: Outcomes,
    failures: dict[str, str],
    changes: dict[str, list[adjustments.Adjustment]],
    roster: set[str],
    full_marks: float,
    chosen: Callable[[str], bool],
) -> dict[str, GradeResult]:
    """The students with no grade from the tests (no hand-in, or one that could not be graded) whose total
    adjustments.csv sets by hand, each with the grade that total gives, and why the tests gave none as the
    student reads it (``failures``: not the instructor's choice to make)."""
    found: dict[str, GradeResult] = {}
    for student, rows in changes.items():
        total = adjustments.manual_total(rows)
        document, why = outcomes.get(student, (None, "handed nothing in"))
        if total is None or document is not None or not (student in outcomes or student in roster):
            continue
        if chosen(student):
            found[student] = adjustments.by_hand(total, failures.get(student, why), full_marks)
    return found
