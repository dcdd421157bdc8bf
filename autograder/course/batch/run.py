"""``grade batch``: find every submission, grade what is not graded yet, write the class's files.

Each student's result is written the moment it is graded, so a batch that
is stopped (even with kill -9) and started again only grades what is
missing, and ends with the same gradebook.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Protocol

from autograder import __version__
from autograder.course.batch import plan as planning
from autograder.course.batch import (
    publishing,
    request,
    settling,
    similarity,
)
from autograder.course.batch.pool import grade_all
from autograder.course.batch.publishing import BatchResult
from autograder.course.batch.request import BatchOptions
from autograder.course.batch.selection import Selection
from autograder.course.course_file import CourseFile
from autograder.grading.fingerprints import fingerprint
from autograder.handin.loaded import LoadedSubmission
from autograder.reports.code_view import Sources
from autograder.scoring.grade_result import BatchStamp, GradeResult


class Progress(Protocol):
    def start(self, total: int, already: int, *, unreadable: int = 0) -> None: ...
    def advance(self, student: str, *, graded: bool) -> None: ...


class _Silent:
    def start(self, total: int, already: int, *, unreadable: int = 0) -> None:
        pass

    def advance(self, student: str, *, graded: bool) -> None:
        pass


def run_batch(
    source: Path,
    out: Path,
    options: BatchOptions,
    progress: Progress | None = None,
    *,
    selection: Selection | None = None,
    tell: Callable[[str], None] | None = None,
) -> BatchResult:
    """Grade what ``selection`` chooses of the hand-ins in ``source`` (by default every one without a current
    result) into ``out``, and write the class's files where it says to, from every result in ``out``.
    ``tell`` hears, before anything is graded, what was changed to keep the grader's folders from student
    code; without it, those lines lead the result's warnings."""
    progress = progress or _Silent()
    selection = selection or Selection.every()
    guarded = request.check(source, out, options, selection)
    if tell is not None:
        for line in guarded:
            tell(line)
        guarded = []
    plan = planning.read(source, out, options, selection)
    selection, course, results, grading = plan.selection, options.course, plan.results, plan.grading
    outcomes, hand_ins, pending = plan.outcomes, plan.hand_ins, plan.pending
    feedback = publishing.Feedback(source, plan, options.feedback)
    for student, reason in plan.failures.items():
        feedback.failure(student, reason)

    terms = settling.terms(plan, course)
    adjusted = terms.adjusted

    # Hand-ins that could not be read, or that conflict, are settled before grading starts: the bar counts them.
    progress.start(len(pending), plan.reused, unreadable=len(plan.failures))
    fresh: set[str] = set()  # graded in this run: feedback written with this run's adjustments and choice
    # Shard K's graders take the CPUs after those of shards 0 to K-1 (on one machine, side by side, none shares).
    first_cpu = selection.shard.index * options.jobs if selection.shard is not None else 0
    grading_now = grade_all(
        pending,
        suite=plan.suite,
        limits=options.limits.cage,
        jobs=options.jobs,
        only=plan.only,
        first_cpu=first_cpu,
        points=course.points,
    )
    with contextlib.closing(grading_now):  # stopped early (Ctrl-C): its graders are killed at once
        for graded in grading_now:
            if graded.result is not None and graded.loaded is not None:
                code = similarity.sources(graded.loaded)  # read once: measured, and shown in the feedback
                stamped = _stamp(graded.result, graded.loaded, code, graded.key, grading, course)
                adjusted_now = adjusted(graded.key, stamped)
                results.write(graded.key, stamped, feedback.of(graded.key, adjusted_now, code))
                outcomes[graded.key] = (adjusted_now, "")
                fresh.add(graded.key)
            else:
                feedback.failure(graded.key, graded.error)
                outcomes[graded.key] = (None, graded.error)
            progress.advance(graded.key, graded=graded.result is not None)

    # A result kept from an earlier run gets this run's adjustments, and its feedback is brought up to date
    # with them and the --feedback chosen now (what was graded just now has both already).
    # One measured by an older kit is measured again (it was read for its fingerprint anyway), not graded again.
    for student, (document, _) in outcomes.items():
        if document is not None and student not in fresh:
            code = similarity.sources(hand_ins[student])
            measure_again = _measured_before(document)
            if measure_again:
                document = _stamp(document, hand_ins[student], code, student, grading, course)
            kept = adjusted(student, document)
            if measure_again:
                results.write(student, document, feedback.of(student, kept, code))
            else:
                results.refresh_feedback(student, feedback.of(student, kept, code))
            outcomes[student] = (kept, "")
    by_hand, warnings = settling.settle(plan, outcomes, terms, feedback, out)
    return publishing.publish(out, plan, outcomes, by_hand, terms.standings, options, guarded + warnings)


def _stamp(
    result: GradeResult, loaded: LoadedSubmission, code: Sources, student: str, grading: str, course: CourseFile
) -> GradeResult:
    """``result`` marked with what it was graded from, for resuming and for the summary's identical code."""
    measured = similarity.measures(loaded, code)
    stamp = BatchStamp(
        student=student,
        fingerprint=fingerprint(loaded, grading),
        code_hash=measured.code_hash,
        similarity=tuple((part, tuple(found)) for part, found in measured.prints.items()),
        similarity_version=similarity.VERSION,
        imports=tuple(measured.imports),
        builds_code=tuple(measured.builds_code),
        kit=__version__,
        grading=grading,
        course=course.points.digest() or None,
    )
    return replace(result, batch=stamp)


def _measured_before(result: GradeResult) -> bool:
    """Whether a kept result's code hash and fingerprints were taken by another way of measuring than this
    kit's: compared with this run's, they would find no copy."""
    return result.batch is None or result.batch.similarity_version != similarity.VERSION
