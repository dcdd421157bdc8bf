"""A batch's last stage: what students and the instructor are given from the results.

Each student's feedback files (written by the grading and the settling as each result is made, through
``Feedback``), then, from every result in OUT, the class's files: the gradebook, the LMS files, the summary,
JUnit, nbgrader's database and the feedback as the LMSs take it back. A shard writes none of them.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field, replace
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from autograder.atomic_files import write_atomically
from autograder.course import nbgrader_export
from autograder.course.batch import feedback_return, gradebook, similarity, store
from autograder.course.batch.discover import NBGRADER_LAYOUT, Discovery
from autograder.course.batch.gradebook import (
    CANNOT_GRADE,
    GRADED,
    GRADED_BY_HAND,
    NO_SUBMISSION,
    NOT_ON_ROSTER,
    StudentRecord,
)
from autograder.course.batch.plan import Outcomes, Plan
from autograder.course.batch.request import BatchOptions
from autograder.course.batch.roster import Student, is_moodle_worksheet
from autograder.course.batch.summary import StartingCode, summarize
from autograder.course.late import Lateness
from autograder.hand_in.bounded import HandInError
from autograder.kit_root import KIT_ROOT
from autograder.reports import class_summary, histogram, junit
from autograder.reports import html as html_report
from autograder.reports import markdown as markdown_report
from autograder.reports.code_view import Sources
from autograder.scoring import feedback_policy
from autograder.scoring.grade_result import GradeResult
from autograder.scoring.scoring import percent
from autograder.scoring.student_text import fenced, markdown_text, visible

if TYPE_CHECKING:
    from autograder.scoring.points import SuitePoints

GRADEBOOK = "gradebook.csv"
CANVAS = "canvas.csv"
MOODLE = "moodle.csv"  # the roster's Moodle grading worksheet, graded: written where the roster is one
SUMMARY = "summary"


@dataclass
class BatchResult:
    records: list[StudentRecord]
    graded_now: int
    reused: int
    written: list[Path]
    discovery: Discovery
    warnings: list[str] = field(default_factory=list)


class Feedback:
    """Each student's feedback files, as ``mode`` shows the tests, titled with the roster's name: made for
    each result as it is written (the grading and the settling write them beside it, so that a result on
    disk always has its feedback), and written here alone for a hand-in that could not be graded."""

    def __init__(self, source: Path, plan: Plan, mode: str) -> None:
        self.source = source  # the class folder, or download, the hand-ins came from
        self.hand_ins = plan.hand_ins
        self.roster = plan.roster
        self.results = plan.results
        self.mode = mode

    def of(self, student: str, result: GradeResult, code: Sources) -> dict[str, str]:
        """``result`` is the adjusted one: the feedback shows the adjustments."""
        page_code = similarity.shown(self.hand_ins[student], code, result.graded_from or {})
        return _feedback(result, page_code, self.mode, heading=_heading(student, self.roster))

    def by_hand(self, student: str, result: GradeResult) -> dict[str, str]:
        """A grade set by hand has no tests' code to show beside it."""
        return _feedback(result, [], self.mode, heading=_heading(student, self.roster))

    def failure(self, student: str, reason: str) -> None:
        """Write what says why ``student``'s hand-in could not be graded."""
        _write_failure(self.results, student, reason, self.source, heading=_heading(student, self.roster))


def publish(
    out: Path,
    plan: Plan,
    outcomes: Outcomes,
    by_hand: set[str],
    standings: dict[str, Lateness],
    options: BatchOptions,
    warnings: list[str],
) -> BatchResult:
    """The batch's result, and the class's files written into ``out`` from ``outcomes`` where this run
    writes them (not a shard's), with ``warnings`` added to for what they could not hold."""
    graded_now, discovery = len(plan.pending), plan.discovery
    if not plan.selection.class_files:
        records = _records(plan.read_now, None, outcomes, standings, by_hand)
        return BatchResult(records, graded_now, plan.reused, [], discovery, warnings)
    records = _records(discovery, plan.roster, outcomes, standings, by_hand)
    if plan.roster is not None:
        warnings += gradebook.roster_warnings(records)
    written = _write_class_files(out, records, plan.points, options, warnings)
    if options.nbgrader_db is not None:
        due = options.course.late.due
        warnings += nbgrader_export.export(options.nbgrader_db, plan.assignment, records, plan.points, due=due)
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
    return BatchResult(records, graded_now, plan.reused, written, discovery, warnings)


def _heading(student: str, roster: dict[str, Student] | None) -> str:
    """Who a feedback page is for, in its title: the roster's name with the id, or the id alone."""
    entry = (roster or {}).get(student)
    return f"{entry.name} ({student})" if entry is not None and entry.name else student


def _feedback(result: GradeResult, code: Sources, mode: str, *, heading: str) -> dict[str, str]:
    """The student's feedback files, titled ``heading``: as much of the tests as ``mode`` shows, their own
    ``code`` beside what failed."""
    shown = replace(feedback_policy.view(result, mode), submission=heading)
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
    from autograder.hand_in import loading

    try:
        stubs = loading.load(KIT_ROOT / "student_template")
    except HandInError:
        return StartingCode()
    measured = similarity.measures(stubs)
    return StartingCode(measured.code_hash, {part: frozenset(found) for part, found in measured.prints.items()})
