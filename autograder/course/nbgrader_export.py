"""Write the batch's scores into an nbgrader course's gradebook, through nbgrader's own API.

nbgrader's formgrader then shows them as autograded scores. The grading
itself stays ours (in the cage); nbgrader only receives numbers.

Convention shared with the nbgrader notebooks the kit generates: one
notebook per part, named after the part's module (``bpe``), and one
autograded cell per function, ``test_<function>``. When the assignment is
not in the gradebook yet it is created with that layout; when it is (from
``nbgrader generate_assignment``), each of its grade cells named after a
function receives that function's score, scaled to the cell's points.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from autograder.course import nbgrader_autograded
from autograder.course import nbgrader_hand_grades as hand_grades
from autograder.course.batch.gradebook import StudentRecord
from autograder.course.batch.roster import email_of
from autograder.hand_in.lms.nbgrader import SUBMITTED
from autograder.hand_in.lms.times import TIMESTAMP
from autograder.parts import PARTS
from autograder.run_errors import RunError
from autograder.scoring.grade_result import GradeResult
from autograder.scoring.scoring import function_scores, points_number

if TYPE_CHECKING:
    from autograder.scoring.points import SuitePoints


class NbgraderExportError(RunError):
    """The export cannot run; the message names the gradebook and the fix."""


def grade_cell_name(function: str) -> str:
    return f"test_{function}"


def ensure_possible(database: Path, assignment: str) -> None:
    """Raise NbgraderExportError now if the export could not run after grading."""
    if not assignment:
        raise NbgraderExportError(f"{database}: name the nbgrader assignment with --assignment NAME")
    try:
        import nbgrader.api  # noqa: F401
    except ImportError:
        raise NbgraderExportError(
            f"{database}: writing into nbgrader's gradebook needs nbgrader; pip install 'bpe-kit[nbgrader]'"
        ) from None
    if not database.parent.is_dir():
        raise NbgraderExportError(f"{database}: its folder does not exist; give the course's gradebook.db")


def export(
    database: Path,
    assignment: str,
    records: Iterable[StudentRecord],
    points: SuitePoints,
    *,
    due: datetime | None = None,
) -> list[str]:
    """Write the class into the gradebook as nbgrader's own autograde and formgrader would leave it; return
    warnings (grade cells no function matches, adjustments with no cell to go in, timestamps nbgrader cannot read).

    Late work in nbgrader's terms: the course file's due date is the assignment's (``due``), a student's
    extension the submission's, its timestamp its timestamp.txt's (formgrader's test of "autograded"), and the
    penalty the course's late rule took is each notebook's ``late_submission_penalty`` (at most its score, as nbgrader's
    own late plugin leaves it), filled notebook by notebook; nbgrader's score less its penalty is the total.

    Every roster student is a student of the course, with their email, so formgrader lists who handed nothing in;
    each graded hand-in is a submission with its time (``timestamp.txt``), for nbgrader's late penalty. An
    autograded cell needs no manual grade, as ``nbgrader autograde`` leaves it; the instructor's adjustments
    are what a grader types into formgrader: a manual score in place of the cell's autograded score, extra
    credit past its points (or, below 0, taken off as negative extra credit). So each total is the gradebook's.
    A score a grader typed into formgrader's page stays through every later export, as nbgrader autograde keeps a
    manual score (see nbgrader_hand_grades), and the output says where formgrader's total is then not the kit's.
    Each graded hand-in gets the autograded/ folder formgrader reads (see nbgrader_autograded).
    """
    import warnings as python_warnings

    from nbgrader.api import Gradebook, MissingEntry
    from sqlalchemy.exc import SAWarning

    warnings: list[str] = []
    root = database.resolve().parent  # nbgrader's course root: its gradebook.db, submitted/ and autograded/ beside
    kit_wrote = hand_grades.read(database)
    now_written: hand_grades.Written = {}
    hand_kept: list[str] = []
    autograded: list[str] = []
    with python_warnings.catch_warnings(), Gradebook(f"sqlite:///{database.resolve()}") as book:
        # nbgrader's api builds a submission with its relationships set before it adds it to the session, which
        # SQLAlchemy 2 reports at autoflush ("not in session, add operation ... will not proceed") and then adds
        # it anyway: three lines that read as errors on every export. Only that message is silenced.
        python_warnings.filterwarnings("ignore", message=r"Object of type <\w+> not in session", category=SAWarning)
        try:
            book.find_assignment(assignment)
        except MissingEntry:
            _create_assignment(book, assignment, points)
        if due is not None:
            book.update_or_create_assignment(assignment, duedate=due)
        cells = _cells_by_function(book.find_assignment(assignment), warnings)
        grade_cells = _grade_cells(book, assignment)
        for record in records:
            _add_student(book, record)
            if record.result is None:
                continue
            book.update_or_create_submission(assignment, record.id)
            _add_timestamp(book, assignment, record, root, warnings)
            scores = function_scores(record.result)
            changes = _adjustments_by_cell(record.id, record.result, cells, warnings)
            before = kit_wrote.get(assignment, {}).get(record.id, {})
            written = now_written.setdefault(assignment, {}).setdefault(record.id, {})
            said: dict[tuple[str, str], str] = {}
            for key, (notebook, cell, cell_points) in cells.items():
                earned, worth = scores.get(key, (0.0, 0.0))
                grade = book.find_grade(cell, notebook, assignment, record.id)
                change = changes.get(key, 0.0)
                said[(notebook, cell)] = _said(record.result, key, earned, worth)
                if key in points.bonus:
                    # nbgrader's own extra credit, on top of the cell's 0 points; it counts only
                    # beside an auto_score, so that is set too
                    auto, wanted = 0.0, _bonus(earned + change)
                else:
                    auto = round(earned / worth * cell_points, 4) if worth else 0.0
                    wanted = _manual(auto, change, cell_points)
                grade.auto_score = auto
                label = f"{notebook}/{cell}"
                typed = (grade.manual_score, grade.extra_credit)
                if hand_grades.typed_by_hand(typed, before.get(label), wanted):
                    # a grader's score from formgrader's page: theirs, kept as nbgrader autograde keeps it
                    hand_kept.append(f"{notebook}/{cell} ({_typed_words(typed, cell_points)})")
                    if label in before:
                        written[label] = before[label]
                    continue
                # filled by the autograder, as nbgrader autograde leaves a cell it scored: nothing to grade by hand
                grade.needs_manual_grade = False
                grade.manual_score, grade.extra_credit = wanted
                written[label] = wanted
            book.db.commit()
            _add_late_penalty(book, assignment, record)
            if hand_kept:
                warnings.append(_hand_kept_line(book, assignment, record, hand_kept))
                hand_kept = []
            autograded += _write_autograded(root, assignment, record, grade_cells, said)
    kit_wrote[assignment] = {**kit_wrote.get(assignment, {}), **now_written.get(assignment, {})}
    hand_grades.write(database, kit_wrote)
    if autograded:
        warnings.append(
            f"nbgrader: {root / nbgrader_autograded.AUTOGRADED} holds the kit's grading of "
            f"{len(autograded)} hand-in(s), "
            "so nbgrader autograde skips them; its --force (and formgrader's Autograde button) grades them again by "
            "the notebooks' own test cells, replacing each cell's autograded score and the late penalty (hand-typed "
            "scores stay): run the batch again after it"
        )
    return warnings


def _bonus(earned: float) -> tuple[float | None, float | None]:
    return None, round(earned, 4)


def _manual(auto: float, change: float, cell_points: float) -> tuple[float | None, float | None]:
    """The manual score and extra credit an adjustment of ``change`` makes of a cell's ``auto`` score: a grader's
    score in place of it, extra credit past the cell's points (or, below 0, taken off as negative extra credit)."""
    if not change:
        return None, None
    wanted = auto + change
    manual = min(max(wanted, 0.0), cell_points)
    return manual, (round(wanted - manual, 4) or None)


def _said(result: GradeResult, key: tuple[str, str], earned: float, worth: float) -> str:
    """The kit's words for one function's cell: its points and how many of its tests passed (the tests themselves
    are in the feedback page, which the feedback mode decides)."""
    tests = [test for test in result.tests if (test.module, test.function) == key]
    passed = sum(1 for test in tests if test.passed)
    return (
        f"bpe-kit: {points_number(earned)} of {points_number(worth)} points, "
        f"{passed} of {len(tests)} test(s) passed; every test is in the hand-in's feedback.html"
    )


def _typed_words(typed: tuple[float | None, float | None], cell_points: float) -> str:
    manual, extra = typed
    words = f"{manual:g} of {cell_points:g}" if manual is not None else "no score"
    return words + (f" + {extra:g} extra credit" if extra else "")


def _hand_kept_line(book: object, assignment: str, record: StudentRecord, kept: list[str]) -> str:
    submission = book.find_submission(assignment, record.id)  # type: ignore[attr-defined]
    nbgrader_total = submission.score - (submission.late_submission_penalty or 0.0)
    kit_total = record.result.score if record.result is not None else 0.0
    return (
        f"nbgrader: {record.id}'s score typed in formgrader for {', '.join(kept)} is kept, so formgrader's total is "
        f"{points_number(nbgrader_total)} and the kit's {points_number(kit_total)}: put it in adjustments.csv "
        "for the kit's own exports to have it"
    )


def _grade_cells(book: object, assignment: str) -> dict[str, list[nbgrader_autograded.GradeCell]]:
    """Each notebook of the assignment and its grade cells, with the source cell's text where there is one."""
    from nbgrader.api import MissingEntry

    found: dict[str, list[nbgrader_autograded.GradeCell]] = {}
    for notebook in book.find_assignment(assignment).notebooks:  # type: ignore[attr-defined]
        cells = found.setdefault(notebook.name, [])
        for cell in notebook.grade_cells:
            try:
                source = book.find_source_cell(cell.name, notebook.name, assignment)  # type: ignore[attr-defined]
            except MissingEntry:
                cells.append(nbgrader_autograded.GradeCell(cell.name, float(cell.max_score), cell.cell_type))
                continue
            cells.append(
                nbgrader_autograded.GradeCell(
                    cell.name,
                    float(cell.max_score),
                    source.cell_type,
                    source.source,
                    locked=bool(source.locked),
                    solution=any(solution.name == cell.name for solution in notebook.solution_cells),
                )
            )
    return found


def _write_autograded(
    root: Path,
    assignment: str,
    record: StudentRecord,
    grade_cells: dict[str, list[nbgrader_autograded.GradeCell]],
    said: dict[tuple[str, str], str],
) -> list[str]:
    """The student's autograded folder; [record.id] once written."""
    handed_in = Path(record.origin) if record.origin else None
    nbgrader_autograded.write(root, assignment, record.id, handed_in, grade_cells, said)
    return [record.id]


def _add_late_penalty(book: object, assignment: str, record: StudentRecord) -> None:
    """What the course's late rule took, as nbgrader's late plugin leaves a penalty: on each notebook, at most
    its score, in the assignment's order until the penalty is spent."""
    left = record.result.late.penalty if record.result is not None and record.result.late is not None else 0.0
    submission = book.find_submission(assignment, record.id)  # type: ignore[attr-defined]
    for notebook in sorted(submission.notebooks, key=lambda notebook: notebook.name):
        taken = min(left, max(notebook.score, 0.0))
        notebook.late_submission_penalty = round(taken, 4) or None
        left -= taken
    book.db.commit()  # type: ignore[attr-defined]


def _add_student(book: object, record: StudentRecord) -> None:
    """The student, named and with the roster's email, whether or not they handed in."""
    first, _, last = record.name.partition(" ")
    details: dict[str, str | None] = {"first_name": first or None, "last_name": last or None}
    email = email_of(record.roster_row or {})
    if email:
        details["email"] = email
    book.update_or_create_student(record.id, **details)  # type: ignore[attr-defined]


def _add_timestamp(book: object, assignment: str, record: StudentRecord, root: Path, warnings: list[str]) -> None:
    """The hand-in's time as formgrader reads it: ``submitted/<student>/<assignment>/timestamp.txt`` beside the
    gradebook, read as nbgrader reads it, or none where there is no such file (formgrader lists a submission as
    autograded only when the gradebook's time is that file's). A time the kit judged lateness by otherwise
    (Moodle's worksheet, the files' own) is in the kit's late column and the notebooks' late penalty. The
    student's extension is the submission's, as the course file's due date is the assignment's."""
    from nbgrader.utils import parse_utc

    stamp_file = nbgrader_autograded.folder(root, record.id, assignment, SUBMITTED)
    stamp_file = stamp_file / TIMESTAMP
    written = " ".join(stamp_file.read_text(encoding="utf-8", errors="replace").split()) if stamp_file.is_file() else ""
    timestamp = None
    if written:
        try:
            timestamp = parse_utc(written)
        except (ValueError, OverflowError):
            warnings.append(
                f"nbgrader: {stamp_file} says {written!r}, not a time: left out; "
                "write it as nbgrader submit does (2026-11-20 10:15:00 UTC)"
            )
    extension = None
    standing = record.standing
    if standing is not None and standing.extended:
        assignment_due = book.find_assignment(assignment).duedate  # type: ignore[attr-defined]
        if assignment_due is not None:
            extension = standing.due.astimezone(UTC).replace(tzinfo=None) - assignment_due
    book.update_or_create_submission(  # type: ignore[attr-defined]
        assignment, record.id, timestamp=timestamp, extension=extension
    )


def _adjustments_by_cell(
    student: str,
    result: GradeResult,
    cells: dict[tuple[str, str], tuple[str, str, float]],
    warnings: list[str],
) -> dict[tuple[str, str], float]:
    """The points the instructor's adjustments add to each function's cell. One about a function (or a test of
    it) goes in that function's cell; one about a part, in the part's first cell; one about the whole grade (a
    total set by hand too: what it changes of the tests' score), in the assignment's first cell: nbgrader has no
    score outside a cell."""
    changes: dict[tuple[str, str], float] = {}
    tests_score = sum(test.score for test in result.tests)
    for entry in result.adjustments or ():
        key = _cell_for(entry.target.partition("::")[0], cells)
        if key is None:
            warnings.append(
                f"nbgrader: {student}'s adjustment of {entry.points:g} to {entry.target} has no grade cell "
                "in the assignment: not written there (the gradebook has it)"
            )
            continue
        changes[key] = changes.get(key, 0.0) + (entry.points - tests_score if entry.total else entry.points)
    return changes


def _cell_for(target: str, cells: dict[tuple[str, str], tuple[str, str, float]]) -> tuple[str, str] | None:
    module, dot, function = target.partition(".")
    if dot:
        return (module, function) if (module, function) in cells else None
    part = next((part for part in PARTS if target in (part.module, f"Part {part.number}")), None)
    in_part = [key for key in cells if part is None or key[0] == part.module]
    return in_part[0] if in_part else None


def _create_assignment(book: object, assignment: str, points: SuitePoints) -> None:
    book.update_or_create_assignment(assignment)  # type: ignore[attr-defined]
    for part in points.parts:
        book.update_or_create_notebook(part.module, assignment)  # type: ignore[attr-defined]
        for function in part.functions:
            book.update_or_create_grade_cell(  # type: ignore[attr-defined]
                grade_cell_name(function),
                part.module,
                assignment,
                max_score=points.counted((part.module, function)),
                cell_type="code",
            )


def _cells_by_function(assignment: object, warnings: list[str]) -> dict[tuple[str, str], tuple[str, str, float]]:
    """(module, function) -> (notebook, grade cell, its points), for the cells that name a function."""
    cells: dict[tuple[str, str], tuple[str, str, float]] = {}
    for notebook in assignment.notebooks:  # type: ignore[attr-defined]
        parts = [part for part in PARTS if part.module == notebook.name] or list(PARTS)
        for cell in notebook.grade_cells:
            matches = [
                (part.module, function)
                for part in parts
                for function in part.functions
                if cell.name in (function, grade_cell_name(function))
            ]
            if len(matches) == 1:
                cells[matches[0]] = (notebook.name, cell.name, float(cell.max_score))
            else:
                warnings.append(f"nbgrader cell {notebook.name}/{cell.name} names no function: left as it was")
    return cells
