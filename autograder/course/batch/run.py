"""``grade batch``: find every submission, grade what is not graded yet, write the class's files.

A batch runs in five stages, a module each, in this order:

1. ``request``: what the run is asked to do, and the checks it must pass before any hand-in is read;
2. ``plan``: the class read once (roster, hand-ins, the instructor's files), each hand-in current,
   pending, failed or in conflict;
3. ``grading``: the pending hand-ins graded by the pool, each result stamped and kept at once;
4. ``settling``: the adjustments, what lateness costs and the grades set by hand;
5. ``publishing``: each student's feedback and the class's files (the gradebook, the LMS files, the
   summary, JUnit, nbgrader).

Each student's result is written the moment it is graded, so a batch that
is stopped (even with kill -9) and started again only grades what is
missing, and ends with the same gradebook.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from autograder.course.batch import grading, plan, publishing, request, settling
from autograder.course.batch.grading import Progress
from autograder.course.batch.publishing import BatchResult
from autograder.course.batch.request import BatchOptions
from autograder.course.batch.selection import Selection


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
    selection = selection or Selection.every()
    told: list[str] = []  # what keeping the folders changed, where no one hears it at once
    for line in request.check(source, out, options, selection):
        (tell or told.append)(line)
    planned = plan.read(source, out, options, selection)
    terms = settling.terms(planned, options.course)
    feedback = publishing.Feedback(source, planned, options.feedback)
    outcomes = grading.grade(planned, options, terms.adjusted, feedback, progress or grading.Silent())
    by_hand, warnings = settling.settle(planned, outcomes, terms, feedback, out)
    return publishing.publish(out, planned, outcomes, by_hand, terms.standings, options, told + warnings)
