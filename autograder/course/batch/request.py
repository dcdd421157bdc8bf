"""A batch's first stage: what it is asked to do, and the checks it must pass before any hand-in is read.

Every caller of ``run_batch`` (the command line, a test, a script) gets the same checks here, the security
preconditions among them: a run that would hand other people's code a cage it cannot trust is refused with
the same ``RunError`` whoever asked for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from autograder.cage.isolation import CageRequired, require_full_cage
from autograder.cage.shield import GuardError, guard_for_grading
from autograder.course.batch.discover import DiscoveryError
from autograder.course.batch.selection import Selection
from autograder.course.course_file import CourseFile
from autograder.grading.grading_limits import Limits
from autograder.run_errors import RunError
from autograder.scoring import feedback_policy


@dataclass(frozen=True)
class BatchOptions:
    suite: str | None = None
    limits: Limits = field(default_factory=Limits)
    jobs: int = 1
    force: bool = False
    roster: Path | None = None
    assignment: str | None = None
    title: str = "BPE exercises"
    junit: Path | None = None
    nbgrader_db: Path | None = None
    parts: tuple[str, ...] = ()  # part modules whose tests run; () for every part
    feedback: str = feedback_policy.DEFAULT  # how much of the hidden tests the feedback shows
    return_feedback: bool = False  # also write the feedback as the LMSs take it back in bulk (feedback_return)
    course: CourseFile = field(default_factory=CourseFile)  # points, late rules, exports (the rest is given above)
    uncaged: bool = False  # the instructor accepts the process cage where no better one can be built


class CageRefused(RunError):
    """Other people's code would run in a cage that lets it read the kit and each other, unasked."""


class FolderRefused(RunError):
    """A folder the grader must keep from student code is not the grader's own to keep."""


def check(source: Path, out: Path, options: BatchOptions, selection: Selection) -> list[str]:
    """Refuse, before any hand-in is read, a run that cannot be: class files asked of a shard, a cage that
    would let hand-ins read the kit and each other, folders the grader cannot keep from them, an output
    folder inside the submissions. Returns what was changed to keep the folders, a line each."""
    given = {"--junit": options.junit, "--nbgrader-db": options.nbgrader_db}
    selection.refuse_class_options([name for name, value in given.items() if value])
    guarded = secure(uncaged=options.uncaged, own=(out,), students=(source,))
    if out.resolve() == source.resolve() or source.resolve() in out.resolve().parents:
        raise DiscoveryError(f"{out}: is inside the submissions; choose an output folder outside {source}")
    return guarded


def secure(*, uncaged: bool, own: tuple[Path, ...], students: tuple[Path, ...] = ()) -> list[str]:
    """The preconditions of running other people's code, for every caller that grades it (a batch,
    Gradescope's runner): refused (``CageRefused``) where its cage would let it read the kit and each other,
    unless ``uncaged`` accepts the process cage, and (``FolderRefused``) where a folder of the grader's
    ``own`` cannot be kept from it; the ``students``' folders are closed to others, nothing written in them.
    Returns what keeping the folders changed, a line each."""
    try:
        require_full_cage(uncaged_accepted=uncaged)
    except CageRequired as error:
        raise CageRefused(str(error)) from error
    try:
        return guard_for_grading(own=own, students=students)
    except GuardError as error:
        raise FolderRefused(str(error)) from error
