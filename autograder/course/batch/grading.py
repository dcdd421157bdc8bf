"""A batch's third stage: the hand-ins left to grade, graded, and every result stamped and kept.

The pool grades what the plan left pending (one grader process per job, each on its CPUs); each result is
stamped with what it was graded from (for resuming, and for the summary's identical code) and written with
its feedback the moment it arrives, so a batch stopped even with kill -9 loses nothing. A result kept from
an earlier run is settled on this run's terms too, and measured again where an older kit measured it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from autograder import __version__
from autograder.course.batch import similarity
from autograder.course.batch.plan import Outcomes, Plan
from autograder.course.batch.pool import grade_all
from autograder.course.batch.publishing import Feedback
from autograder.course.batch.request import BatchOptions
from autograder.course.course_file import CourseFile
from autograder.grading.fingerprints import fingerprint
from autograder.hand_in.loaded import LoadedHandIn
from autograder.reports.code_view import Sources
from autograder.scoring.grade_result import BatchStamp, GradeResult


class Progress(Protocol):
    def start(self, total: int, already: int, *, unreadable: int = 0) -> None: ...
    def advance(self, student: str, *, graded: bool) -> None: ...


class Silent:
    """No progress shown."""

    def start(self, total: int, already: int, *, unreadable: int = 0) -> None:
        pass

    def advance(self, student: str, *, graded: bool) -> None:
        pass


def grade(
    plan: Plan,
    options: BatchOptions,
    adjusted: Callable[[str, GradeResult], GradeResult],
    feedback: Feedback,
    progress: Progress,
) -> Outcomes:
    """Every hand-in's outcome once ``plan``'s pending ones are graded: each result ``adjusted`` for the class
    (a kept one too), written with its ``feedback``, and ``progress`` told of each as it arrives."""
    outcomes, results, course = dict(plan.outcomes), plan.results, options.course
    for student, reason in plan.failures.items():
        feedback.failure(student, reason)
    # Hand-ins that could not be read, or that conflict, are settled before grading starts: the bar counts them.
    progress.start(len(plan.pending), plan.reused, unreadable=len(plan.failures))
    fresh: set[str] = set()  # graded in this run: feedback written with this run's adjustments and choice
    # Shard K's graders take the CPUs after those of shards 0 to K-1 (on one machine, side by side, none shares).
    first_cpu = plan.selection.shard.index * options.jobs if plan.selection.shard is not None else 0
    grading_now = grade_all(
        plan.pending,
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
                stamped = _stamp(graded.result, graded.loaded, code, graded.key, plan.grading, course)
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
            hand_in = plan.hand_ins[student]
            code = similarity.sources(hand_in)
            measure_again = _measured_before(document)
            if measure_again:
                document = _stamp(document, hand_in, code, student, plan.grading, course)
            kept = adjusted(student, document)
            if measure_again:
                results.write(student, document, feedback.of(student, kept, code))
            else:
                results.refresh_feedback(student, feedback.of(student, kept, code))
            outcomes[student] = (kept, "")
    return outcomes


def _stamp(
    result: GradeResult, loaded: LoadedHandIn, code: Sources, student: str, grading: str, course: CourseFile
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
