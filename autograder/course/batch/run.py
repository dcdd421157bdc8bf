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
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from autograder import __version__
from autograder.atomic_files import write_atomically
from autograder.course import nbgrader_export
from autograder.course.batch import (
    adjustments,
    feedback_return,
    gradebook,
    late_work,
    manual_files,
    request,
    similarity,
    store,
)
from autograder.course.batch import plan as planning
from autograder.course.batch.discover import NBGRADER_LAYOUT, Discovery
from autograder.course.batch.gradebook import (
    CANNOT_GRADE,
    GRADED,
    GRADED_BY_HAND,
    NO_SUBMISSION,
    NOT_ON_ROSTER,
    StudentRecord,
)
from autograder.course.batch.plan import Outcomes
from autograder.course.batch.pool import grade_all
from autograder.course.batch.request import BatchOptions
from autograder.course.batch.roster import Student, is_moodle_worksheet
from autograder.course.batch.selection import Selection
from autograder.course.batch.summary import StartingCode, summarize
from autograder.course.course_file import CourseFile
from autograder.course.late import Lateness
from autograder.grading.fingerprints import fingerprint
from autograder.handin.bounded import SubmissionError
from autograder.handin.loaded import LoadedSubmission
from autograder.kit_root import KIT_ROOT
from autograder.reports import class_summary, disclosure, histogram, junit
from autograder.reports import html as html_report
from autograder.reports import markdown as markdown_report
from autograder.reports.code_view import Sources
from autograder.scoring.grade_result import BatchStamp, GradeResult
from autograder.scoring.scoring import percent
from autograder.scoring.student_text import fenced, markdown_text, visible

if TYPE_CHECKING:
    from autograder.scoring.points import SuitePoints

GRADEBOOK = "gradebook.csv"
CANVAS = "canvas.csv"
MOODLE = "moodle.csv"  # the roster's Moodle grading worksheet, graded: written where the roster is one
SUMMARY = "summary"


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
    plan = planning.read(source, out, options, selection)
    roster, discovery, read_now, selection = plan.roster, plan.discovery, plan.read_now, plan.selection
    course, points, results, grading, changes = options.course, plan.points, plan.results, plan.grading, plan.changes
    outcomes, hand_ins, pending, manual, changes_path = (
        plan.outcomes,
        plan.hand_ins,
        plan.pending,
        plan.manual,
        plan.changes_path,
    )
    other_changes, other_choices, assignment = plan.other_changes, plan.other_choices, plan.assignment
    for student, reason in plan.failures.items():
        _write_failure(results, student, reason, source, heading=_heading(student, roster))

    standings = late_work.standing(
        course.late,
        {found.student: found for found in read_now.found},  # a shard times its own hand-ins only
        {student: entry.row for student, entry in (roster or {}).items()},
        plan.extensions,
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
    warnings += plan.unknown_extensions
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
