"""Grade one path end to end: load, run, build the results document."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from autograder import submission as submissions
from autograder import suites
from autograder.results import build_document
from autograder.runner import grade_submission
from autograder.worker.limits import Limits


class CannotGrade(Exception):
    """Grading could not start: the message is one line naming the problem and the fix."""


def grade_path(path: Path, *, suite: str | None = None, limits: Limits | None = None) -> dict[str, Any]:
    try:
        loaded = submissions.load(path)
        suite_dir = suites.resolve(suite)
    except (submissions.SubmissionError, suites.SuiteMissing) as error:
        raise CannotGrade(str(error)) from None
    run = grade_submission(loaded, suite_dir, limits=limits or Limits(), kit_root=suites.KIT_ROOT)
    return build_document(run)
