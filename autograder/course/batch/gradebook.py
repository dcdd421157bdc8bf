"""The gradebook: one row per student, and the same scores shaped for an LMS import.

Only scores and statuses go in, never timings, so a resumed batch writes a
byte-identical gradebook to an uninterrupted one.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from autograder.course.batch import adjustments
from autograder.course.batch.late_work import penalty_text
from autograder.course.course_file import ZERO
from autograder.course.late import Lateness
from autograder.scoring.grade_result import GradeResult
from autograder.scoring.scoring import bonus_score, function_scores, percent, points_number
from autograder.scoring.student_text import spreadsheet_cell
from autograder.testing.outcomes import Outcome

if TYPE_CHECKING:
    from autograder.scoring.points import SuitePoints

GRADED = "graded"
GRADED_BY_HAND = "graded by hand"  # a total set in adjustments.csv stands in for the tests' score
NO_SUBMISSION = "no submission"
CANNOT_GRADE = "could not grade"
NOT_ON_ROSTER = "not on the roster"
MOODLE_GRADE = "Grade"  # the worksheet's column Moodle's importer reads the grade from (by this name)
MOODLE_COMMENTS = "Feedback comments"  # the comments plugin's column, read by this name (--return-feedback)
MOODLE_MAXIMUM = "Maximum Grade"  # the assignment's maximum grade in Moodle: a grade above it is skipped
NAMED_AT_MOST = 20  # ids a warning names before it counts the rest
# Canvas's gradebook importer (instructure/canvas-lms, lib/gradebook_importer.rb, Assignment.title_and_id): a
# header "Title (id)" is the assignment of that id; a header holding one of these words is not an assignment.
CANVAS_TITLE_AND_ID = re.compile(r"\A(?P<title>.*)\s\((?P<id>\d+)\)\Z", re.DOTALL)
CANVAS_NOT_ASSIGNMENTS = (
    "Current Score",
    "Current Points",
    "Current Grade",
    "Final Score",
    "Final Points",
    "Final Grade",
    "Override Score",
    "Override Grade",
    "Override Status",
)
CANVAS_STUDENT_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")


@dataclass(frozen=True)
class StudentRecord:
    """Where one student of the batch stands."""

    id: str
    name: str
    status: str
    reason: str = ""
    note: str = ""
    origin: str = ""
    result: GradeResult | None = None
    roster_row: dict[str, str] | None = None
    timestamp: str = ""  # when it was handed in, where the hand-in says (nbgrader's timestamp.txt)
    late: bool = False  # the LMS marked the hand-in late (Canvas)
    standing: Lateness | None = None  # against the course file's due date; None where it sets none

    @property
    def lateness(self) -> str:
        """The gradebook's late column: how late and who says so, against the course file's due date; without
        one, "late" where the LMS marked it so, else the hand-in's time where it has one (nbgrader's
        timestamp.txt), else ""."""
        if self.standing is not None:
            return self.standing.words()
        return "late" if self.late else self.timestamp


def reason_for(record: StudentRecord) -> str:
    """The status column's words: the reason for a missing grade (or for one set by hand), or grader trouble in
    a graded one."""
    if record.result is None or record.status == GRADED_BY_HAND:
        return record.reason
    troubled = sum(1 for test in record.result.tests if test.outcome is Outcome.GRADER_ERROR)
    return f"{troubled} test(s) hit a grader error: check its feedback" if troubled else ""


def gradebook_csv(records: Iterable[StudentRecord], points: SuitePoints) -> str:
    """One row per student. ``total`` counts bonus points in, as Gradescope does; ``bonus`` says how many;
    ``adjustment`` is what the instructor's adjustments change, also in ``total`` (the part columns are the tests');
    ``late`` is ``StudentRecord.lateness``, and ``late_penalty`` the points the course file's late rule took off
    ``total``.

    Columns for the parts ``points`` covers (an assignment of some parts has no columns for the rest): each
    part's share of full marks, ``Part 4 (50)``, and apart from it its bonus, ``Part 4 bonus (13)``, so the
    part headers add up to ``max``.
    """
    graded_parts = points.parts
    columns = _part_columns(points)
    header = ["id", "name", "total", "max", "percent", "bonus", "adjustment"]
    header += [title for title, _ in columns]
    header += [
        f"{part.module}.{function} ({points_number(points.of((part.module, function)))}"
        f"{' bonus' if (part.module, function) in points.bonus else ''})"
        for part in graded_parts
        for function in part.functions
    ]
    header += ["late", "late_penalty", "status", "reason", "note"]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for record in sorted(records, key=lambda record: record.id):
        row: list[str] = [record.id, record.name]
        if record.result is not None:
            scores = {key: earned for key, (earned, _) in function_scores(record.result).items()}
            row += [
                points_number(record.result.score),
                points_number(points.full_marks),
                f"{percent(record.result):.1f}",
                points_number(bonus_score(record.result)),
                points_number(adjustments.total(record.result)),
            ]
            row += [points_number(sum(scores.get(key, 0.0) for key in keys)) for _, keys in columns]
            row += [points_number(scores.get((part.module, f), 0.0)) for part in graded_parts for f in part.functions]
        else:
            blank = 3 + sum(len(part.functions) for part in graded_parts) + len(columns)
            row += ["", points_number(points.full_marks), *[""] * blank]
        row += [record.lateness, penalty_text(record.result), record.status, reason_for(record), record.note]
        writer.writerow(map(spreadsheet_cell, row))
    return buffer.getvalue()


def _part_columns(points: SuitePoints) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each part's columns, as (header, the functions it adds up): its share of full marks, then its bonus;
    a part of bonus functions alone (Part 5) has the second only."""
    columns: list[tuple[str, list[tuple[str, str]]]] = []
    for part in points.parts:
        keys = [(part.module, function) for function in part.functions]
        counted = [key for key in keys if key not in points.bonus]
        extra = [key for key in keys if key in points.bonus]
        if counted:
            columns.append((f"Part {part.number} ({points_number(sum(map(points.of, counted)))})", counted))
        if extra:
            columns.append((f"Part {part.number} bonus ({points_number(sum(map(points.of, extra)))})", extra))
    return columns


def canvas_column(title: str, roster_header: Iterable[str] = ()) -> tuple[str, list[str]]:
    """canvas.csv's assignment header, and a line where Canvas may not take it as the assignment meant.

    Canvas matches ``Title (id)`` by the id, anything else by the exact title, and makes a new assignment of a
    title it does not have: the roster's own ``Title (id)`` header for ``title`` (Canvas's gradebook export
    carries one per assignment) is used where the roster has it. A title holding one of Canvas's total columns'
    words (``Final Grade``) is dropped by its importer whatever follows.
    """
    titled = {header: found["title"] for header in roster_header if (found := CANVAS_TITLE_AND_ID.match(header))}
    offered = list(titled)
    matching = [header for header, its_title in titled.items() if its_title == title]
    lines: list[str] = []
    column = matching[0] if len(matching) == 1 else title
    if len(matching) > 1:
        lines.append(
            f"canvas.csv: the roster has {len(matching)} assignments titled {title!r} ({', '.join(matching)}): "
            "named by title only; Canvas takes the first of that title, so rename the one meant"
        )
    elif not matching and offered:
        lines.append(
            f"canvas.csv: the roster has no assignment titled {title!r} (it has {', '.join(offered[:5])}"
            f"{' and more' if len(offered) > 5 else ''}): Canvas offers it as a new assignment; give the assignment's "
            "title with --title or the course file's name"
        )
    if any(word in title for word in CANVAS_NOT_ASSIGNMENTS):
        lines.append(
            f"canvas.csv: Canvas's importer takes a column whose title holds {title!r}'s words for a total, not an "
            "assignment, and leaves it out; rename the assignment"
        )
    return column, lines


def canvas_csv(records: Iterable[StudentRecord], total_max: float, column: str, *, without_grade: str = "") -> str:
    """Canvas's gradebook import: its five student columns, one assignment column ``column`` (canvas_column), a
    points-possible row, and nothing after the assignment: Canvas reads a column there whose title is one of the
    course's custom columns (its own Notes column is one) as a student column, so the grades would go nowhere, and
    any other as a new assignment. Why a student has no grade is the gradebook's ``status`` and ``reason``.

    Canvas matches rows by its user ID or the SIS ids: a numeric id (as Canvas's
    bulk download names files) goes in ID, any other in SIS Login ID, unless
    the roster has Canvas's own columns. Every student is a row: one with no
    grade (nothing handed in, or a hand-in that could not be graded) gets 0
    where ``without_grade`` is ``ZERO``, else a blank (Canvas leaves the grade
    it has).
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([*CANVAS_STUDENT_COLUMNS, column])
    writer.writerow(["Points Possible", "", "", "", "", points_number(total_max)])
    for record in sorted(records, key=lambda record: record.id):
        roster = record.roster_row or {}
        canvas_id = roster.get("ID") or (record.id if record.id.isdigit() else "")
        sis_user = roster.get("SIS User ID", "")
        sis_login = roster.get("SIS Login ID") or ("" if canvas_id or sis_user else record.id)
        writer.writerow(
            map(
                spreadsheet_cell,
                [
                    record.name,
                    canvas_id,
                    sis_user,
                    sis_login,
                    roster.get("Section", ""),
                    grade_or_blank(record, without_grade),
                ],
            )
        )
    return buffer.getvalue()


def grade_or_blank(record: StudentRecord, without_grade: str) -> str:
    """A student's total as an LMS import takes it; for a student with no grade, 0 or blank (``without_grade``)."""
    if record.result is not None:
        return points_number(record.result.score)
    return "0" if without_grade == ZERO else ""


def moodle_csv(
    worksheet: str,
    records: Iterable[StudentRecord],
    full_marks: float,
    *,
    without_grade: str = "",
    comments: dict[str, str] | None = None,
) -> tuple[str, list[str]]:
    """Moodle's grading worksheet ``worksheet`` (its text, as downloaded) with each graded student's total in
    Grade, ready to upload (Upload grading worksheet); and a line for each grade Moodle could not take as it is.

    A grade is out of the worksheet's Maximum Grade, the assignment's in Moodle: the total times Maximum Grade
    over ``full_marks``, so each student's percentage is the gradebook's. Moodle's importer skips a row whose
    grade is above Maximum Grade, so a total past full marks (bonus) is written as Maximum Grade, and said.

    Every row and column stays as it came, Grade aside: Moodle's importer finds its columns by name
    (Identifier, Grade, Last modified (grade), the feedback plugins' columns) and skips a row whose grade
    was changed in Moodle after the worksheet was downloaded (Last modified (grade)), or whose Grade is
    empty. So a student without a grade here keeps the Grade the worksheet had (or gets 0, where
    ``without_grade`` is ``ZERO``), and their feedback comments are sent back as they were.

    With ``comments`` (by student id, ``grade batch --return-feedback``), each one is added after what the
    row's Feedback comments already says (the instructor's words are kept), in the column the comments
    plugin's importer reads by that name; a worksheet without the column is said, not given one.
    """
    from autograder.course.batch.discover import student_id
    from autograder.course.batch.roster import MOODLE_ID_COLUMN, moodle_id

    graded = {
        record.id: record.result.score if record.result is not None else 0.0
        for record in records
        if record.result is not None or without_grade == ZERO
    }
    rows = list(csv.reader(io.StringIO(worksheet, newline="")))
    if not rows:
        return worksheet, []
    header = rows[0]
    identifier, grade = header.index(MOODLE_ID_COLUMN), header.index(MOODLE_GRADE)
    maximum = header.index(MOODLE_MAXIMUM) if MOODLE_MAXIMUM in header else None
    remarks = header.index(MOODLE_COMMENTS) if comments and MOODLE_COMMENTS in header else None
    capped: list[str] = []
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows[1:]:
        student = student_id(moodle_id(row[identifier])) if len(row) > max(identifier, grade) else None
        if student in graded:
            most = _number(row[maximum]) if maximum is not None and len(row) > maximum else None
            value = graded[student] if most is None or not full_marks else graded[student] * most / full_marks
            if most is not None and round(value, 2) > most:
                capped.append(student)
                value = most
            row[grade] = points_number(round(value, 2))
        if remarks is not None and comments and student in comments and len(row) > remarks:
            row[remarks] = "\n\n".join(text for text in (row[remarks].strip(), comments[student]) if text)
        writer.writerow(row)
    warnings = (
        [
            f"moodle.csv: {_named(capped)} scored past full marks (bonus), above the worksheet's Maximum Grade, "
            "which Moodle's importer refuses: written as Maximum Grade; raise the assignment's maximum grade in "
            "Moodle and download the worksheet again to keep the bonus"
        ]
        if capped
        else []
    )
    if comments and remarks is None:
        warnings.append(
            f"moodle.csv: the worksheet has no {MOODLE_COMMENTS} column, so no comment goes back in it: enable "
            "Feedback comments in the assignment's settings and download the grading worksheet again"
        )
    return buffer.getvalue(), warnings


def _number(text: str) -> float | None:
    """A number as Moodle's worksheet writes one (100.00), or None."""
    try:
        return float(text.strip().replace(",", ""))
    except ValueError:
        return None


def roster_warnings(records: Iterable[StudentRecord]) -> list[str]:
    """One line for hand-ins whose id the roster does not have, one for roster students without a hand-in,
    each naming them: a roster of another class, or ids in another form, shows here and not only in the files."""
    records = list(records)
    unknown = [record.id for record in records if NOT_ON_ROSTER in record.note.split("; ")]
    missing = [record.id for record in records if record.status == NO_SUBMISSION]
    lines = []
    if unknown:
        lines.append(
            f"{len(unknown)} hand-in(s) {NOT_ON_ROSTER}, graded all the same: {_named(unknown)}; check the "
            "roster is this class's and its ids are the download's"
        )
    if missing:
        lines.append(f"{len(missing)} roster student(s) have {NO_SUBMISSION}: {_named(missing)}")
    return lines


def _named(ids: list[str]) -> str:
    shown = ", ".join(ids[:NAMED_AT_MOST])
    return shown if len(ids) <= NAMED_AT_MOST else f"{shown} and {len(ids) - NAMED_AT_MOST} more"
