"""Gradescope's side: grade ``/autograder/submission`` and always write ``/autograder/results/results.json``.

Run by the package's ``run_autograder`` (``python -m autograder.course.gradescope``).
``AUTOGRADER_ROOT`` moves the whole tree, so a test can run it in a
temporary folder. Whatever the submission does, results.json is written: a
submission that cannot be graded gets 0 and the reason, and a failure of
the grader itself says it is ours.
"""

from __future__ import annotations

import os
import sys
import traceback
from dataclasses import replace
from pathlib import Path
from typing import Any

from autograder.atomic_files import write_atomically
from autograder.reports import json_report
from autograder.scoring import feedback_policy
from autograder.scoring.grade_result import GradeResult
from autograder.testing.outcomes import Visibility

DEFAULT_ROOT = Path("/autograder")


def root() -> Path:
    return Path(os.environ.get("AUTOGRADER_ROOT") or DEFAULT_ROOT)


def results_for(submission: Path) -> GradeResult:
    """The result for the submission folder, never an exception."""
    try:
        from autograder.course.batch.request import CageRefused, secure
        from autograder.grading.hand_in import CannotGrade, grade_path

        try:
            # Root in its container: never the process cage. The package's folder and the results are root's
            # alone before any student code runs (the container cage; bubblewrap's view hides them anyway).
            tree = submission.parent
            for line in secure(uncaged=False, own=(tree / "source", tree / "results")):
                print(f"run_autograder: {line}", file=sys.stderr)
        except CageRefused as error:
            print(f"run_autograder: {error}", file=sys.stderr)
            return _without_tests(
                "The autograder could not build its sandbox in this container, so it did not run "
                "your code. This is not your fault: your instructor can see why."
            )
        try:
            # What the student sees of the hidden tests: the feedback the package was built with (scoring.
            # feedback_policy), made here where the result is made, so results.json holds no passed test's call.
            # The course file the package carries gives the points, the limits and the result's visibility.
            from autograder.course.course_file import load
            from autograder.kit_root import KIT_ROOT

            course = load(None, KIT_ROOT)  # course.toml beside the package's kit, where it was built with one
            result = grade_path(submission, suite="hidden", limits=course.limits_with({}), points=course.points)
            if course.gradescope_visibility is not None:
                result = replace(result, visibility=Visibility(course.gradescope_visibility))
            return feedback_policy.view(result, feedback_policy.package_mode(KIT_ROOT))
        except CannotGrade as error:
            return _without_tests(f"Your submission could not be graded: {error}")
    except Exception:  # our bug: the student still gets a result, and the trace reaches the instructor
        trace = traceback.format_exc(limit=8)
        print(trace, file=sys.stderr)
        return _without_tests(
            "The grader failed on this submission. This is a bug in the grader, not in your "
            "code: your instructor can see the details. Submit again later or ask them."
        )


def _without_tests(message: str) -> GradeResult:
    return GradeResult(score=0.0, max_score=0.0, execution_time=0.0, output=message, tests=())


def write_results(document: dict[str, Any], destination: Path) -> None:
    write_atomically(destination, json_report.text(document))


def for_gradescope(result: GradeResult) -> dict[str, Any]:
    """Only the top-level fields Gradescope publishes: full marks go into extra_data (Gradescope has its own)."""
    return replace(result, gradescope_max_score=result.max_score).to_gradescope()


def main() -> None:
    tree = root()
    write_results(for_gradescope(results_for(tree / "submission")), tree / "results" / "results.json")


if __name__ == "__main__":
    main()
