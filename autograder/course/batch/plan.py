"""A batch's second stage: the class as this run finds it, and what is left to grade.

Every hand-in is read here, once (the fingerprint and the grading see the same files), with what the
instructor keeps beside the results (the roster, the adjustments, the choices between uploads), and each is
settled as one of: current (its result is kept), pending (left to grade), failed (it cannot be read) or in
conflict (two uploads for one student, the instructor's to choose between). Nothing is graded here, and what
is written is only the output folder and the instructor's files where there are none yet.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from autograder import __version__
from autograder.course import nbgrader_export
from autograder.course.batch import adjustments, choices, manual_files, store
from autograder.course.batch.discover import Discovery, discover
from autograder.course.batch.request import BatchOptions
from autograder.course.batch.roster import Roster, RosterError, read_roster
from autograder.course.batch.selection import Selection
from autograder.course.course_file import CourseFile
from autograder.grading.fingerprints import fingerprint, grading_hash
from autograder.hand_in.bounded import HandInError
from autograder.hand_in.hand_in_limits import HandInLimits
from autograder.hand_in.lms.uploads import UploadConflict
from autograder.hand_in.loaded import LoadedHandIn
from autograder.kit_root import KIT_ROOT
from autograder.run_errors import RunError
from autograder.scoring.grade_result import GradeResult
from autograder.testing import suites

if TYPE_CHECKING:
    from autograder.scoring.points import SuitePoints

Outcomes = dict[str, tuple[GradeResult | None, str]]  # id -> (result, or the reason there is none)


class ResultsMissing(RunError, ValueError):
    """The class's files are asked for, and hand-ins this run does not grade have no current result in OUT:
    ``why`` holds them by reason (no result yet, another kit's, ...)."""

    def __init__(self, why: dict[str, list[str]], fix: str) -> None:
        self.why = why
        count = sum(map(len, why.values()))
        lines = [f"{count} hand-in(s) have no current result in OUT, and the class's files need one for each:"]
        lines += [f"  {reason}: {', '.join(students)}" for reason, students in why.items()]
        super().__init__("\n".join([*lines, f"{fix}; nothing was written"]))


@dataclass
class Plan:
    """The class as this run found and read it, and what is left to grade."""

    discovery: Discovery  # every hand-in found, after the instructor's choices between uploads
    read_now: Discovery  # those this run reads: every one, or a shard's own
    selection: Selection  # dealt its share of the class
    roster: Roster | None
    assignment: str  # nbgrader's: given, else the one the layout names
    points: SuitePoints  # of the parts graded, as the course file gives them
    suite: Path  # the tests' folder
    only: tuple[Path, ...]  # the parts' folders in it whose tests run; () for all
    grading: str  # the hash of what grades (tests, reference, limits, parts, course points)
    results: store.ResultStore
    manual: manual_files.ManualFiles
    changes_path: Path  # adjustments.csv
    changes: dict[str, list[adjustments.Adjustment]]  # its rows, by student
    other_changes: list[int] | None  # its lines for other sections' students (a course's file), or None
    other_choices: list[int] | None  # choices.csv's, likewise
    extensions: dict[str, datetime]
    unknown_extensions: list[str]  # a warning for extensions that name no student here
    outcomes: Outcomes  # current results, and hand-ins that cannot be graded (with why)
    pending: list[tuple[str, LoadedHandIn]]  # without a current result and graded by this run, as found
    reused: int  # current results kept
    hand_ins: dict[str, LoadedHandIn]  # every hand-in read
    failures: dict[str, str]  # id -> why its hand-in cannot be graded (unreadable, or two for one student)
    to_choose: list[str] = field(default_factory=list)  # uploads to choose between, for the instructor


def read(source: Path, out: Path, options: BatchOptions, selection: Selection) -> Plan:
    """The plan for grading what ``selection`` chooses of the hand-ins in ``source`` into ``out``: refused
    (a ``RunError``) where the roster, the instructor's files or the selection do not fit the class."""
    roster = read_roster(options.roster) if options.roster else None
    # the roster's ids settle an LMS name that reads as more than one student's
    discovery = discover(source, assignment=options.assignment, roster_ids=set(roster) if roster else None)
    if roster and discovery.found and not {found.student for found in discovery.found} & set(roster):
        sample = ", ".join(repr(found.student) for found in discovery.found[:2])
        raise RosterError(
            f"{options.roster}: none of its {len(roster)} ids names a hand-in (its ids look like "
            f"{next(iter(roster))!r}, the hand-ins like {sample}); give the roster whose ids name the hand-ins"
        )
    selection.check(_students(discovery), roster=roster or ())
    selection = selection.within(_students(discovery))
    assignment = options.assignment or discovery.assignment
    if options.nbgrader_db is not None and selection.class_files:
        nbgrader_export.ensure_possible(options.nbgrader_db, assignment)  # before grading, not after
    course = options.course
    points = _points(options.suite, course).of_parts(options.parts)
    students = {found.student for found in discovery.found} | set(discovery.conflicts) | set(roster or {})
    extensions, unknown_extensions = _extensions(course, students)
    out.mkdir(parents=True, exist_ok=True)
    manual = manual_files.locate(course, out)  # beside the course file: the same whatever OUT is
    changes_path = adjustments.ensure_file(manual.adjustments.parent)
    other_changes: list[int] | None = [] if manual.shared else None  # a course's file serves every section
    other_choices: list[int] | None = [] if manual.shared else None
    changes = adjustments.read(changes_path, students=students, points=points, elsewhere=other_changes)
    chosen = choices.read(manual.choices, students=set(_students(discovery)), elsewhere=other_choices)
    discovery, chosen, to_choose = choices.settle(discovery, chosen, manual.choices)
    suite_dir = suites.resolve(options.suite)
    grading = grading_hash(
        suite_dir, KIT_ROOT / "solutions", options.limits, options.parts, course_points=course.points.digest()
    )
    only = tuple(suite_dir / part for part in options.parts if (suite_dir / part).is_dir())
    read_now = _within(discovery, selection.reads)  # a shard reads its own hand-ins only
    results = store.ResultStore(out)
    if selection.class_files:
        results.sweep()
    else:  # shards write into one OUT at once: each sweeps only its own students' folders
        results.sweep(_students(read_now))
    settled = _settle(
        read_now,
        results,
        grading,
        # --force regrades every hand-in this run grades (with --student, those named; in a shard, its own)
        regrade=lambda student: selection.regrades(student) or (options.force and selection.grades(student)),
        limits=options.limits.hand_in,
        chosen=chosen,
        choices_path=manual.choices,
        to_choose=to_choose,
    )
    if settled.to_choose:
        choices.ensure_file(manual.choices.parent)
    adjustments.refuse_without_grade(
        changes_path,
        changes,
        no_hand_in=set(roster or {}) - set(_students(discovery)),
        cannot_grade=settled.failures,
    )
    left = [student for student, _ in settled.pending if not selection.grades(student)]
    if left and selection.class_files:  # before anything is graded or written
        raise ResultsMissing(
            _without_current_result(left, results, grading, course.points.digest()), selection.for_what_is_missing()
        )
    return Plan(
        discovery,
        read_now,
        selection,
        roster,
        assignment,
        points,
        suite_dir,
        only,
        grading,
        results,
        manual,
        changes_path,
        changes,
        other_changes,
        other_choices,
        extensions,
        unknown_extensions,
        settled.outcomes,
        [(student, loaded) for student, loaded in settled.pending if selection.grades(student)],
        settled.reused,
        settled.hand_ins,
        settled.failures,
        settled.to_choose,
    )


@dataclass
class _Settled:
    """What is settled already and what is left to grade, with each hand-in read once."""

    outcomes: Outcomes
    pending: list[tuple[str, LoadedHandIn]]  # without a current result, in the order found
    reused: int
    hand_ins: dict[str, LoadedHandIn]
    failures: dict[str, str]
    to_choose: list[str] = field(default_factory=list)


def _students(discovery: Discovery) -> list[str]:
    """Every student ``discovery`` found a hand-in of: one each, and those with two in conflict."""
    return [*(found.student for found in discovery.found), *discovery.conflicts]


def _within(discovery: Discovery, chosen: Callable[[str], bool]) -> Discovery:
    """``discovery`` with only the hand-ins of the students ``chosen``."""
    return replace(
        discovery,
        found=[found for found in discovery.found if chosen(found.student)],
        conflicts={student: same for student, same in discovery.conflicts.items() if chosen(student)},
    )


def _without_current_result(
    students: list[str], results: store.ResultStore, grading: str, points: str
) -> dict[str, list[str]]:
    """``students``, whose results are not current, by why: none, another kit's, grading's or course file's
    points (``points``, their digest), or a hand-in changed since it was graded."""
    why: dict[str, list[str]] = {}
    for student in students:
        stored = results.read(student)
        stamp = stored.batch if stored is not None else None
        if stored is None:
            reason = "no result yet"
        elif stamp is None or stamp.grading is None:
            reason = "a result this kit cannot place (from an older kit, or its hand-in changed since)"
        elif stamp.kit != __version__:
            reason = f"graded by kit {stamp.kit} (this is {__version__})"
        elif (stamp.course or "") != points:
            reason = "graded under other points than this run's course file gives"
        elif stamp.grading != grading:
            reason = "graded with other tests, reference, limits, parts, course secret or cage than this run's"
        else:
            reason = "changed since it was graded"
        why.setdefault(reason, []).append(student)
    return why


def _settle(
    discovery: Discovery,
    results: store.ResultStore,
    grading: str,
    *,
    regrade: Callable[[str], bool],
    limits: HandInLimits,
    chosen: dict[str, dict[str, str]],
    choices_path: Path,
    to_choose: dict[str, str],
) -> _Settled:
    """What is settled already (current results, unreadable hand-ins, conflicts) and what is left to grade;
    a student ``regrade`` names is left to grade even where their result is current. ``chosen``: the
    instructor's choices between uploads (``choices_path``), by student; ``to_choose``: the line for the
    instructor on each conflict between whole hand-ins left (choices.settle).

    Each hand-in is read and parsed here, once: the fingerprint and the grading see the same files.
    """
    settled = _Settled({}, [], 0, {}, {})
    for found in discovery.found:
        try:
            loaded = found.load(limits, chosen=chosen.get(found.student))
        except UploadConflict as conflict:  # the instructor's to settle: the gradebook and the run say how
            settled.outcomes[found.student] = (None, choices.to_make(conflict, found.student, choices_path))
            settled.failures[found.student] = conflict.for_student
            settled.to_choose.append(settled.outcomes[found.student][1])
            continue
        except HandInError as error:
            settled.outcomes[found.student] = (None, str(error))
            settled.failures[found.student] = str(error)
            continue
        settled.hand_ins[found.student] = loaded
        current = None if regrade(found.student) else results.current(found.student, fingerprint(loaded, grading))
        if current is not None:
            settled.outcomes[found.student] = (current, "")
            settled.reused += 1
        else:
            settled.pending.append((found.student, loaded))
    for student, same in discovery.conflicts.items():
        origins = [found.origin for found in same]
        settled.outcomes[student] = (None, to_choose[student])  # the instructor's choice to make, with its line
        settled.failures[student] = f"more than one submission ({'; '.join(origins)}); keep one and hand in again"
        settled.to_choose.append(f"{student}: {to_choose[student]}")
    return settled


def _points(suite: str | None, course: CourseFile) -> SuitePoints:
    return course.suite_points(suite or suites.default_suite())


def _extensions(course: CourseFile, students: set[str]) -> tuple[dict[str, datetime], list[str]]:
    """The course's extensions, and a warning naming those for no student of this batch or its roster: one
    course file serves every section of a course, so they are not an error, but a typo must not go unseen."""
    extensions = course.extensions()
    unknown = sorted(set(extensions) - students)
    if not unknown:
        return extensions, []
    named = ", ".join(map(repr, unknown[:5])) + (f" and {len(unknown) - 5} more" if len(unknown) > 5 else "")
    return extensions, [
        f"{course.late.extensions}: {len(unknown)} extension(s) for no student of this batch or its roster, given "
        f"to no one here: {named}; if one is a typo, fix the id as the gradebook shows it"
    ]
