"""Grade one hand-in end to end: load it, run the suite against it, build the results document.

``grade_loaded`` is the one way from a loaded hand-in to its document: ``grade PATH``, the batch's
graders and a notebook's check cells all go through it.
"""

from __future__ import annotations

from pathlib import Path

from autograder.engine import submission as submissions
from autograder.engine import suites
from autograder.engine.document import ResultsDocument
from autograder.engine.results import build_document
from autograder.engine.runner import grade_submission
from autograder.engine.worker.limits import Limits

# Where a student release keeps the work: the modules (stubs) and the notebooks.
WORK_FOLDERS = ("modules", "notebooks")


class CannotGrade(Exception):
    """Grading could not start: the message is one line naming the problem and the fix."""


def grade_path(
    path: Path, *, suite: str | None = None, limits: Limits | None = None, parts: tuple[str, ...] = ()
) -> ResultsDocument:
    """Grade ``path``; a release's own folder (or a repository made from it) grades its work folders.

    A student may work in the modules or in the notebooks: both are graded
    and the better result counts, so the untouched half never hides the work.
    ``parts`` (module names) grades only those parts' tests.
    """
    work = [path / folder for folder in WORK_FOLDERS if path.is_dir() and (path / folder).is_dir()]
    limits = limits or Limits()
    try:
        loaded = submissions.load(path, limits)
    except submissions.SubmissionError as error:
        if not work:
            raise CannotGrade(str(error)) from None
    else:
        return _grade(loaded, suite, limits, parts)
    documents = [_grade(_load(folder, limits), suite, limits, parts) for folder in work]
    best = max(documents, key=lambda document: document["score"])
    scores = ", ".join(
        f"{folder.name}/ {document['score']:g}" for folder, document in zip(work, documents, strict=True)
    )
    note = f"graded {scores}; the better counts: {best['extra_data']['submission']}/"
    best["output"] = "\n".join(filter(None, [note, best["output"]]))
    return best


def _load(path: Path, limits: Limits) -> submissions.LoadedSubmission:
    try:
        return submissions.load(path, limits)
    except submissions.SubmissionError as error:
        raise CannotGrade(str(error)) from None


def _grade(
    loaded: submissions.LoadedSubmission, suite: str | None, limits: Limits, parts: tuple[str, ...]
) -> ResultsDocument:
    try:
        suite_dir = suites.resolve(suite)
    except suites.SuiteMissing as error:
        raise CannotGrade(str(error)) from None
    only = tuple(suite_dir / part for part in parts if (suite_dir / part).is_dir())
    return grade_loaded(loaded, suite_dir, limits=limits, only=only)


def grade_loaded(
    loaded: submissions.LoadedSubmission, suite: Path, *, limits: Limits, only: tuple[Path, ...] = ()
) -> ResultsDocument:
    """The results document of ``loaded`` graded with ``suite`` (or its test files ``only``)."""
    return build_document(grade_submission(loaded, suite, limits=limits, only=only))
