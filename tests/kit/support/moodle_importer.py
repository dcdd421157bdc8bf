"""What Moodle's "Upload grading worksheet" does with a file: its rules restated, to check the kit's moodle.csv.

Restated from Moodle's own offline grading worksheet feedback plugin (moodle/moodle at commit
9762977c028cbd1884ed311a94c49efbae87591b: mod/assign/feedback/offline/importgradeslib.php, whose
assignfeedback_offline_grade_importer finds the columns and the students, and
mod/assign/feedback/offline/locallib.php, whose process_import_grades decides each row), with
lib/csvlib.class.php's reader (csv_import_reader) before them:

- the file is read as CSV (quotes as fgetcsv reads them, each field trimmed); a row whose field count is
  not the header's refuses the whole file;
- the columns are found by their exact names: Identifier, Grade and Last modified (grade); without any of the
  three the whole file is refused;
- a row's student is its Identifier less the words "Participant "; a row naming no participant is skipped;
- a row's grade is skipped when empty, not a number, negative, above the assignment's maximum, or equal to the
  grade Moodle has; and, unless the instructor ticks "ignore modified", when Moodle's grade was changed more
  than 60 seconds after the row's Last modified (grade) ("-", a grade never given, reads as the epoch);
- feedback (init and next): each feedback plugin enabled in the assignment offers a column titled with its
  editor field's description, for the comments plugin its pluginname, "Feedback comments"
  (mod/assign/feedback/comments/lang/en/assignfeedback_comments.php); a column is read only where its index
  is not empty() in PHP, so one in the first place is never read; a plugin not enabled has no column, and its
  column in the file is ignored;
- a row's feedback (process_import_grades) is taken whether or not its grade was, unless Moodle's grade was
  changed since the worksheet (the same 60 seconds, and the same "ignore modified" tick); a text equal to the
  one Moodle has is not an update.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from datetime import datetime

IDENTIFIER, GRADE, MODIFIED = "Identifier", "Grade", "Last modified (grade)"
PARTICIPANT = "Participant "
SLACK_SECONDS = 60  # "Do not count the seconds when comparing modified dates"
COMMENTS = "Feedback comments"  # assignfeedback_comments' pluginname, its editor field's description


class Refused(ValueError):
    """Moodle refuses the whole file (its csvweirdcolumns or invalidgradeimport error)."""


@dataclass(frozen=True)
class Moodle:
    """The assignment as Moodle holds it: its participants (the download's ids), the maximum grade, and each
    grade it has with when that grade was last changed."""

    participants: frozenset[str]
    maximum: float
    grades: dict[str, tuple[float, datetime]] = field(default_factory=dict)
    feedback_plugins: frozenset[str] = frozenset({COMMENTS})  # the enabled ones' column titles
    feedback: dict[str, dict[str, str]] = field(default_factory=dict)  # participant -> column -> text Moodle has


@dataclass
class Imported:
    """What an upload changes: each participant's new grade, and each row skipped with why."""

    grades: dict[str, float] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    feedback: dict[str, dict[str, str]] = field(default_factory=dict)  # participant -> column -> new text


def upload(text: str, moodle: Moodle, *, ignore_modified: bool = False) -> Imported:
    """The grades Moodle takes from the worksheet ``text``; Refused where it takes none."""
    rows = [[cell.strip() for cell in row] for row in csv.reader(io.StringIO(text.removeprefix("\ufeff")))]
    rows = [row for row in rows if row and row != [""]]
    if not rows:
        raise Refused("empty file")
    header = rows[0]
    if any(len(row) != len(header) for row in rows[1:]):
        raise Refused("a row's fields are not the header's (csvweirdcolumns)")
    if not {IDENTIFIER, GRADE, MODIFIED} <= set(header):
        raise Refused("Identifier, Grade or Last modified (grade) is missing (invalidgradeimport)")
    at = {name: header.index(name) for name in (IDENTIFIER, GRADE, MODIFIED)}
    # PHP's empty() on the index: 0 is empty, so a feedback column in the first place is never read
    feedback_at = {title: index for index, title in enumerate(header) if title in moodle.feedback_plugins and index}
    imported = Imported()
    for row in rows[1:]:
        student = row[at[IDENTIFIER]][len(PARTICIPANT) :]
        if student not in moodle.participants:
            continue
        had = moodle.grades.get(student)
        stale = had is not None and had[1].timestamp() > _seconds(row[at[MODIFIED]]) + SLACK_SECONDS
        if ignore_modified or not stale:
            for title, index in feedback_at.items():
                if row[index] != moodle.feedback.get(student, {}).get(title, ""):
                    imported.feedback.setdefault(student, {})[title] = row[index]
        given = row[at[GRADE]]
        try:
            grade = float(given)
        except ValueError:
            imported.skipped[student] = "no value" if not given else f"not a number: {given!r}"
            continue
        if had is not None and had[0] == grade:
            imported.skipped[student] = "not changed"
        elif grade < 0:
            imported.skipped[student] = "negative"
        elif not ignore_modified and stale:
            imported.skipped[student] = "changed in Moodle since the worksheet was downloaded"
        elif grade > moodle.maximum:
            imported.skipped[student] = f"out of range: {grade:g} > {moodle.maximum:g}"
        else:
            imported.grades[student] = grade
    return imported


def _seconds(shown: str) -> float:
    """A worksheet's time, as PHP's strtotime reads Moodle's own format; "-" (never) as 0."""
    try:
        return datetime.strptime(shown, "%A, %d %B %Y, %I:%M %p").timestamp()
    except ValueError:
        return 0.0
