"""``grade batch``: find every submission, grade what is not graded yet, write the class's files.

Each student's result is written the moment it is graded, so a batch that
is stopped (even with kill -9) and started again only grades what is
missing, and ends with the same gradebook.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from autograder import __version__
from autograder.atomic_files import write_atomically
from autograder.course import nbgrader_export
from autograder.course.batch import (
    adjustments,
    choices,
    feedback_return,
    gradebook,
    late_work,
    manual_files,
    request,
    similarity,
    store,
)
from autograder.course.batch.discover import NBGRADER_LAYOUT, Discovery, discover
from autograder.course.batch.gradebook import (
    CANNOT_GRADE,
    GRADED,
    GRADED_BY_HAND,
    NO_SUBMISSION,
    NOT_ON_ROSTER,
    StudentRecord,
)
from autograder.course.batch.pool import grade_all
from autograder.course.batch.request import BatchOptions
from autograder.course.batch.roster import RosterError, Student, is_moodle_worksheet, read_roster
from autograder.course.batch.selection import Selection
from autograder.course.batch.summary import StartingCode, summarize
from autograder.course.course_file import CourseFile
from autograder.course.late import Lateness
from autograder.grading.fingerprints import fingerprint, grading_hash
from autograder.handin.bounded import SubmissionError
from autograder.handin.limits import HandinLimits
from autograder.handin.loaded import LoadedSubmission
from autograder.handin.uploads import UploadConflict
from autograder.kit_root import KIT_ROOT
from autograder.reports import class_summary, disclosure, histogram, junit
from autograder.reports import html as html_report
from autograder.reports import markdown as markdown_report
from autograder.reports.code_view import Sources
from autograder.run_errors import RunError
from autograder.scoring.grade_result import BatchStamp, GradeResult
from autograder.scoring.scoring import percent
from autograder.scoring.student_text import fenced, markdown_text, visible
from autograder.testing import suites

if TYPE_CHECKING:
    from autograder.scoring.points import SuitePoints

GRADEBOOK = "gradebook.csv"
CANVAS = "canvas.csv"
MOODLE = "moodle.csv"  # the roster's Moodle grading worksheet, graded: written where the roster is one
SUMMARY = "summary"


class ResultsMissing(RunError, ValueError):
    """The class's files are asked for, and hand-ins this run does not grade have no current result in OUT:
    ``why`` holds them by reason (no result yet, another kit's, ...)."""

    def __init__(self, why: dict[str, list[str]], fix: str) -> None:
        self.why = why
        count = sum(map(len, why.values()))
        lines = [f"{count} hand-in(s) have no current result in OUT, and the class's files need one for each:"]
        lines += [f"  {reason}: {', '.join(students)}" for reason, students in why.items()]
        super().__init__("\n".join([*lines, f"{fix}; nothing was written"]))


class Progress(Protocol):
    def start(self, total: int, already: int, *, unreadable: int = 0) -> None: ...
    def advance(self, student: str, *, graded: bool) -> None: ...


class _Silent:
    def start(self, total: int, already: int, *, unreadable: int = 0) -> None:
        pass

    def advance(self, student: str, *, graded: bool) -> None:
        pass


@dataclass
class BatchResult:
    records: list[StudentRecord]
    graded_now: int
    reused: int
    written: list[Path]
    discovery: Discovery
    warnings: list[str] = field(default_factory=list)


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
    plan = _plan(
        read_now,
        results,
        grading,
        # --force regrades every hand-in this run grades (with --student, those named; in a shard, its own)
        regrade=lambda student: selection.regrades(student) or (options.force and selection.grades(student)),
        limits=options.limits.handin,
        chosen=chosen,
        choices_path=manual.choices,
        to_choose=to_choose,
    )
    if plan.to_choose:
        choices.ensure_file(manual.choices.parent)
    adjustments.refuse_without_grade(
        changes_path, changes, no_hand_in=set(roster or {}) - set(_students(discovery)), cannot_grade=plan.failures
    )
    outcomes, hand_ins = plan.outcomes, plan.hand_ins
    pending = [(student, loaded) for student, loaded in plan.pending if selection.grades(student)]
    left = [student for student, _ in plan.pending if not selection.grades(student)]
    if left and selection.class_files:  # before anything is graded or written
        raise ResultsMissing(
            _without_current_result(left, results, grading, course.points.digest()), selection.for_what_is_missing()
        )
    for student, reason in plan.failures.items():
        _write_failure(results, student, reason, source, heading=_heading(student, roster))

    standings = late_work.standing(
        course.late,
        {found.student: found for found in read_now.found},  # a shard times its own hand-ins only
        {student: entry.row for student, entry in (roster or {}).items()},
        extensions,
    )

    def adjusted(student: str, result: GradeResult) -> GradeResult:
        """``result`` as the class's files show it: the adjustments, then what lateness costs, applied once."""
        result = adjustments.apply(result, changes.get(student, []))
        if student in standings:
            result = late_work.charged(result, standings[student], course.late, points.full_marks)
        return result

    def feedback_of(student: str, result: GradeResult, code: Sources) -> dict[str, str]:
        """``result`` is the adjusted one: the feedback shows the adjustments."""
        page_code = similarity.shown(hand_ins[student], code, result.graded_from or {})
        return _feedback(result, page_code, options.feedback, heading=_heading(student, roster))

    # Hand-ins that could not be read, or that conflict, are settled before grading starts: the bar counts them.
    progress.start(len(pending), plan.reused, unreadable=len(plan.failures))
    fresh: set[str] = set()  # graded in this run: feedback written with this run's adjustments and choice
    # Shard K's graders take the CPUs after those of shards 0 to K-1 (on one machine, side by side, none shares).
    first_cpu = selection.shard.index * options.jobs if selection.shard is not None else 0
    grading_now = grade_all(
        pending,
        suite=suite_dir,
        limits=options.limits.cage,
        jobs=options.jobs,
        only=only,
        first_cpu=first_cpu,
        points=course.points,
    )
    with contextlib.closing(grading_now):  # stopped early (Ctrl-C): its graders are killed at once
        for graded in grading_now:
            if graded.result is not None and graded.loaded is not None:
                code = similarity.sources(graded.loaded)  # read once: measured, and shown in the feedback
                stamped = _stamp(graded.result, graded.loaded, code, graded.key, grading, course)
                adjusted_now = adjusted(graded.key, stamped)
                results.write(graded.key, stamped, feedback_of(graded.key, adjusted_now, code))
                outcomes[graded.key] = (adjusted_now, "")
                fresh.add(graded.key)
            else:
                _write_failure(results, graded.key, graded.error, source, heading=_heading(graded.key, roster))
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
                results.write(student, document, feedback_of(student, kept, code))
            else:
                results.refresh_feedback(student, feedback_of(student, kept, code))
            outcomes[student] = (kept, "")
    by_hand = _graded_by_hand(outcomes, plan.failures, changes, set(roster or {}), points.full_marks, selection.reads)
    for student, document in by_hand.items():
        graded_by_hand = adjusted(student, document)
        outcomes[student] = (graded_by_hand, outcomes.get(student, (None, ""))[1])
        results.refresh_feedback(
            student, _feedback(graded_by_hand, [], options.feedback, heading=_heading(student, roster))
        )
    warnings: list[str] = guarded + (list(roster.warnings) if roster is not None else [])
    warnings += manual.notes
    warnings += manual_files.other_sections(changes_path, other_changes or [])
    warnings += manual_files.other_sections(manual.choices, other_choices or [])
    seen = manual_files.digest(manual, course.late.extensions)
    if selection.shard is not None:
        manual_files.record_seen(out, str(selection.shard), seen)
    elif selection.merge:
        warnings += manual_files.differing_shards(out, seen)
    warnings += plan.to_choose
    warnings += adjustments.held(changes_path, changes, {student for student, (got, _) in outcomes.items() if not got})
    warnings += late_work.doubts(standings)
    warnings += unknown_extensions
    if not selection.class_files:
        records = _records(read_now, None, outcomes, standings, set(by_hand))
        return BatchResult(records, len(pending), plan.reused, [], discovery, warnings)
    records = _records(discovery, roster, outcomes, standings, set(by_hand))
    if roster is not None:
        warnings += gradebook.roster_warnings(records)
    written = _write_class_files(out, records, points, options, warnings)
    if options.nbgrader_db is not None:
        warnings += nbgrader_export.export(options.nbgrader_db, assignment, records, points, due=course.late.due)
        written.append(options.nbgrader_db)
    if options.return_feedback and discovery.lms == "Moodle":  # only Moodle's ids are participants
        archive, left_out = feedback_return.moodle_zip(out, records)
        write_atomically(out / feedback_return.MOODLE_ZIP, archive)
        written.append(out / feedback_return.MOODLE_ZIP)
        warnings += left_out
    if options.return_feedback and discovery.layout == NBGRADER_LAYOUT:
        pages, missing = feedback_return.nbgrader_folders(out, records)
        written += pages
        warnings += missing
    return BatchResult(records, len(pending), plan.reused, written, discovery, warnings)


Outcomes = dict[str, tuple[GradeResult | None, str]]  # id -> (result, or the reason there is none)


@dataclass
class _Plan:
    """What is settled already and what is left to grade, with each hand-in read once."""

    outcomes: Outcomes  # current results, and hand-ins that cannot be graded (with why)
    pending: list[tuple[str, LoadedSubmission]]  # without a current result, in the order found
    reused: int  # current results kept
    hand_ins: dict[str, LoadedSubmission]  # every hand-in read
    failures: dict[str, str]  # id -> why its hand-in cannot be graded (unreadable, or two for one student)
    to_choose: list[str] = field(default_factory=list)  # uploads to choose between, for the instructor


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


def _students(discovery: Discovery) -> list[str]:
    return [*(found.student for found in discovery.found), *discovery.conflicts]


def _plan(
    discovery: Discovery,
    results: store.ResultStore,
    grading: str,
    *,
    regrade: Callable[[str], bool],
    limits: HandinLimits,
    chosen: dict[str, dict[str, str]],
    choices_path: Path,
    to_choose: dict[str, str],
) -> _Plan:
    """What is settled already (current results, unreadable hand-ins, conflicts) and what is left to grade;
    a student ``regrade`` names is left to grade even where their result is current. ``chosen``: the
    instructor's choices between uploads (``choices_path``), by student; ``to_choose``: the line for the
    instructor on each conflict between whole hand-ins left (choices.settle).

    Each hand-in is read and parsed here, once: the fingerprint and the grading see the same files.
    """
    plan = _Plan({}, [], 0, {}, {})
    for found in discovery.found:
        try:
            loaded = found.load(limits, chosen=chosen.get(found.student))
        except UploadConflict as conflict:  # the instructor's to settle: the gradebook and the run say how
            plan.outcomes[found.student] = (None, choices.to_make(conflict, found.student, choices_path))
            plan.failures[found.student] = conflict.for_student
            plan.to_choose.append(plan.outcomes[found.student][1])
            continue
        except SubmissionError as error:
            plan.outcomes[found.student] = (None, str(error))
            plan.failures[found.student] = str(error)
            continue
        plan.hand_ins[found.student] = loaded
        current = None if regrade(found.student) else results.current(found.student, fingerprint(loaded, grading))
        if current is not None:
            plan.outcomes[found.student] = (current, "")
            plan.reused += 1
        else:
            plan.pending.append((found.student, loaded))
    for student, same in discovery.conflicts.items():
        origins = [found.origin for found in same]
        plan.outcomes[student] = (None, to_choose[student])  # the instructor's choice to make, with its line
        plan.failures[student] = f"more than one submission ({'; '.join(origins)}); keep one and hand in again"
        plan.to_choose.append(f"{student}: {to_choose[student]}")
    return plan


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


def _heading(student: str, roster: dict[str, Student] | None) -> str:
    """Who a feedback page is for, in its title: the roster's name with the id, or the id alone."""
    entry = (roster or {}).get(student)
    return f"{entry.name} ({student})" if entry is not None and entry.name else student


def _feedback(result: GradeResult, code: Sources, mode: str, *, heading: str) -> dict[str, str]:
    """The student's feedback files, titled ``heading``: as much of the tests as ``mode`` shows, their own
    ``code`` beside what failed."""
    shown = replace(disclosure.view(result, mode), submission=heading)
    return {
        store.FEEDBACK_MARKDOWN: markdown_report.render(shown),
        store.FEEDBACK_PAGE: html_report.render(shown, code),
    }


def _write_failure(results: store.ResultStore, student: str, reason: str, source: Path, *, heading: str) -> None:
    """A student whose hand-in could not be graded still gets feedback saying why, naming their files from the
    class folder ``source`` (the instructor's own folders are not the student's to see), titled ``heading``."""
    download = (source,) if source.is_dir() else (source, source.parent)  # a .zip download: its folder too
    for folder in {str(place) for path in download for place in (path.resolve(), path, path.absolute())}:
        reason = reason.replace(folder.rstrip(os.sep) + os.sep, "").replace(f"{folder}, ", "")
    reason = visible(reason)  # it may quote a file name the student chose
    text = f"# Feedback for {markdown_text(heading)}\n\nYour submission could not be graded:\n\n{fenced(reason)}\n"
    html = html_report.page(
        f"Feedback for {heading}",
        f"<h1>Feedback for {escape(heading)}</h1>"
        f"<p>Your submission could not be graded:</p><pre>{escape(reason)}</pre>",
    )
    with contextlib.suppress(OSError):
        results.write(student, None, {store.FEEDBACK_MARKDOWN: text, store.FEEDBACK_PAGE: html})


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


def _records(
    discovery: Discovery,
    roster: dict[str, Student] | None,
    outcomes: Outcomes,
    standings: dict[str, Lateness],
    by_hand: set[str],
) -> list[StudentRecord]:
    origins = {found.student: found.origin for found in discovery.found}
    origins.update(
        {student: "; ".join(found.origin for found in same) for student, same in discovery.conflicts.items()}
    )
    hints = {found.student: found.name_hint for found in discovery.found}
    times = {found.student: found.timestamp for found in discovery.found}
    late = {found.student for found in discovery.found if found.late}
    naming = discovery.notes()
    records: list[StudentRecord] = []
    for student in sorted(set(outcomes) | set(roster or {})):
        entry = (roster or {}).get(student)
        name = entry.name if entry else hints.get(student, "")
        note = "; ".join(
            filter(None, [NOT_ON_ROSTER if roster is not None and entry is None else "", naming.get(student, "")])
        )
        row = entry.row if entry else None
        if student not in outcomes:
            records.append(StudentRecord(student, name, NO_SUBMISSION, roster_row=row))
            continue
        document, reason = outcomes[student]
        status = GRADED_BY_HAND if student in by_hand else GRADED if document is not None else CANNOT_GRADE
        records.append(
            StudentRecord(
                student,
                name,
                status,
                reason,
                note,
                origins.get(student, ""),
                document,
                row,
                times.get(student, ""),
                student in late,
                standings.get(student),
            )
        )
    return records


def _write_class_files(
    out: Path, records: list[StudentRecord], points: SuitePoints, options: BatchOptions, warnings: list[str]
) -> list[Path]:
    """Write the class's files into ``out``; return them, adding to ``warnings`` what an LMS file could not hold."""
    written: list[Path] = []

    def write(path: Path, text: str) -> None:
        write_atomically(path, text)
        written.append(path)

    without_grade = options.course.without_grade
    write(out / GRADEBOOK, gradebook.gradebook_csv(records, points))
    header = next((list(record.roster_row) for record in records if record.roster_row), [])
    column, unsure = gradebook.canvas_column(options.title, header)
    write(out / CANVAS, gradebook.canvas_csv(records, points.full_marks, column, without_grade=without_grade))
    warnings += unsure
    if options.roster is not None and is_moodle_worksheet(options.roster):
        worksheet = options.roster.read_text(encoding="utf-8-sig")
        comments = (
            {record.id: feedback_return.comment(record) for record in records if record.result is not None}
            if options.return_feedback
            else None
        )
        moodle, capped = gradebook.moodle_csv(
            worksheet, records, points.full_marks, without_grade=without_grade, comments=comments
        )
        write(out / MOODLE, moodle)
        warnings += capped
    most = points.full_marks + points.bonus_total
    sections = class_summary.build_sections(summarize(records, stubs=_stub_code(), most=most))
    scores = {record.id: percent(record.result) for record in records if record.result is not None}
    chart = histogram.svg(scores) if scores else None
    if chart is not None:
        write(out / class_summary.HISTOGRAM, chart)
    title = f"{options.title}: class summary"
    write(out / f"{SUMMARY}.md", class_summary.render_markdown(title, sections, histogram=chart is not None))
    write(out / f"{SUMMARY}.html", class_summary.render_html(title, sections, histogram=chart))
    if options.junit is not None:
        documents = [(record.id, record.result) for record in records if record.result is not None]
        write(options.junit, junit.render_batch(documents))
    return written


def _stub_code() -> StartingCode:
    """The untouched stubs' code: a class of unstarted hand-ins is not a class of copies."""
    from autograder.handin import loading

    try:
        stubs = loading.load(KIT_ROOT / "student_template")
    except SubmissionError:
        return StartingCode()
    measured = similarity.measures(stubs)
    return StartingCode(measured.code_hash, {part: frozenset(found) for part, found in measured.prints.items()})
