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
from pathlib import Path
from typing import TYPE_CHECKING

from autograder.course.batch.gradebook import StudentRecord
from autograder.parts import PARTS
from autograder.scoring.scoring import function_scores

if TYPE_CHECKING:
    from autograder.scoring.points import SuitePoints


class NbgraderExportError(Exception):
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


def export(database: Path, assignment: str, records: Iterable[StudentRecord], points: SuitePoints) -> list[str]:
    """Write every graded student's scores; return warnings (grade cells no function matches)."""
    from nbgrader.api import Gradebook, MissingEntry

    warnings: list[str] = []
    with Gradebook(f"sqlite:///{database.resolve()}") as book:
        try:
            book.find_assignment(assignment)
        except MissingEntry:
            _create_assignment(book, assignment, points)
        cells = _cells_by_function(book.find_assignment(assignment), warnings)
        for record in records:
            if record.result is None:
                continue
            first, _, last = record.name.partition(" ")
            book.update_or_create_student(record.id, first_name=first or None, last_name=last or None)
            book.update_or_create_submission(assignment, record.id)
            scores = function_scores(record.result)
            for key, (notebook, cell, cell_points) in cells.items():
                earned, worth = scores.get(key, (0.0, 0.0))
                grade = book.find_grade(cell, notebook, assignment, record.id)
                if key in points.bonus:
                    # nbgrader's own extra credit, on top of the cell's 0 points; it counts only
                    # beside an auto_score, so that is set too
                    grade.auto_score, grade.extra_credit = 0.0, earned
                    continue
                grade.auto_score = round(earned / worth * cell_points, 4) if worth else 0.0
            book.db.commit()
    return warnings


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
