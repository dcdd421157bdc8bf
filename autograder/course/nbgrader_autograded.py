"""The ``autograded/`` tree of an nbgrader course, as ``nbgrader autograde`` would leave it for the kit's grades.

What formgrader reads there (jupyter/nbgrader, nbgrader/apps/api.py and the formgrader's handlers and
``formgrade/index.html.j2``):

- a submission counts as autograded only where ``autograded/<student>/<assignment>/`` exists and the gradebook's
  timestamp is the one ``submitted/<student>/<assignment>/timestamp.txt`` gives (both none counts as equal);
  otherwise formgrader shows it as 0 of 0, "not autograded";
- its lists of notebooks to grade by hand hold only the notebooks ``autograded/.../<notebook>.ipynb`` has, and
  the page of one shows a score box for each cell whose metadata (``nbgrader.grade``, ``grade_id``,
  ``points``) names a grade cell of the gradebook.

So each graded hand-in gets that folder: the hand-in's other files as autograde copies them (its
``timestamp.txt`` among them, which makes a later ``nbgrader autograde`` without ``--force`` skip it), and one
notebook per gradebook notebook the hand-in holds (as ``<name>.ipynb``, or as the module ``<name>.py`` the kit
grades): the student's cells with their outputs cleared, each grade cell's metadata and locked source put back
from the gradebook (autograde's ClearOutput and OverwriteCells), and the kit's result for the cell as its output.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

AUTOGRADED = "autograded"
# What nbgrader's CourseDirectory.ignore leaves out when it copies a hand-in's files.
IGNORED = (".ipynb_checkpoints", "__pycache__", "feedback", ".DS_Store")


@dataclass(frozen=True)
class GradeCell:
    """One grade cell of a gradebook notebook, as its source cell gives it (``source`` None where the assignment
    was made by the kit, with no source notebook)."""

    name: str
    points: float
    cell_type: str = "code"
    source: str | None = None
    locked: bool = True
    solution: bool = False


def folder(root: Path, student: str, assignment: str, tree: str = AUTOGRADED) -> Path:
    """``<root>/<tree>/<student>/<assignment>``, as nbgrader's default directory structure names it."""
    return root / tree / student / assignment


def write(
    root: Path,
    assignment: str,
    student: str,
    handed_in: Path | None,
    notebooks: Mapping[str, list[GradeCell]],
    said: Mapping[tuple[str, str], str],
) -> list[str]:
    """Write ``student``'s autograded folder under ``root`` (replacing the one there); return the notebooks written.

    ``handed_in``: the folder the hand-in was graded from, where it is one; ``notebooks``: the gradebook's notebooks
    and their grade cells; ``said``: the kit's words for each (notebook, cell) it graded."""
    import nbformat

    target = folder(root, student, assignment)
    autograded = (root / AUTOGRADED).resolve()
    if autograded not in target.resolve().parents:
        raise ValueError(f"{target}: not inside {autograded}; a student id may not leave the autograded folder")
    target.parent.mkdir(parents=True, exist_ok=True)
    written: list[str] = []
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=f".{assignment}.") as building:
        staged = Path(building) / assignment
        staged.mkdir()
        if handed_in is not None and handed_in.is_dir():
            _copy_other_files(handed_in, staged)
        for name, cells in sorted(notebooks.items()):
            notebook = _student_notebook(handed_in, name)
            if notebook is None:
                continue  # nbgrader autograde writes no notebook for one not handed in
            _put_back_grade_cells(notebook, cells, {cell: words for (nb, cell), words in said.items() if nb == name})
            nbformat.write(notebook, str(staged / f"{name}.ipynb"))
            written.append(name)
        if target.exists():
            shutil.rmtree(target)
        staged.rename(target)
    return written


def _copy_other_files(handed_in: Path, staged: Path) -> None:
    """Every file but the notebooks, as autograde's init_assignment copies them; links are never followed."""
    for folder_name, folders, files in os.walk(handed_in, followlinks=False):
        here = Path(folder_name)
        folders[:] = sorted(name for name in folders if name not in IGNORED and not (here / name).is_symlink())
        for name in sorted(files):
            path = here / name
            if name in IGNORED or path.suffix in (".ipynb", ".pyc") or path.is_symlink() or not path.is_file():
                continue
            target = staged / path.relative_to(handed_in)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)


def _student_notebook(handed_in: Path | None, name: str) -> Any:
    """The hand-in's notebook ``name``, outputs cleared; one holding its module ``name.py`` where it handed in
    that; None where it has neither (or the notebook cannot be read: the kit's results say why)."""
    import nbformat

    if handed_in is None or not handed_in.is_dir():
        return None
    notebook_path, module_path = handed_in / f"{name}.ipynb", handed_in / f"{name}.py"
    if notebook_path.is_file() and not notebook_path.is_symlink():
        try:
            notebook = nbformat.read(str(notebook_path), as_version=4)
        except Exception:  # nbformat raises many kinds on a file that is not a notebook
            return None
        for cell in notebook.cells:
            if cell.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
        return notebook
    if module_path.is_file() and not module_path.is_symlink():
        text = module_path.read_text(encoding="utf-8", errors="replace")
        return nbformat.v4.new_notebook(
            cells=[
                nbformat.v4.new_markdown_cell(f"Handed in as `{module_path.name}`, graded by bpe-kit."),
                nbformat.v4.new_code_cell(text),
            ]
        )
    return None


def _put_back_grade_cells(notebook: Any, cells: list[GradeCell], said: Mapping[str, str]) -> None:
    """Each grade cell's metadata and (locked) source as the gradebook has them, and the kit's words as its output;
    a grade cell the notebook lacks is added at its end, so formgrader has a score box for every cell."""
    import nbformat

    by_id = {cell.metadata.get("nbgrader", {}).get("grade_id"): cell for cell in notebook.cells}
    for grade_cell in cells:
        cell = by_id.get(grade_cell.name)
        if cell is None:
            source = grade_cell.source if grade_cell.source is not None else f"# bpe-kit's tests of {grade_cell.name}"
            cell = nbformat.v4.new_code_cell(source)
            notebook.cells.append(cell)
        elif grade_cell.locked and grade_cell.source is not None:
            cell.source = grade_cell.source
        cell.metadata["nbgrader"] = {
            "grade": True,
            "grade_id": grade_cell.name,
            "locked": grade_cell.locked,
            "points": grade_cell.points,
            "schema_version": 3,
            "solution": grade_cell.solution,
            "task": False,
        }
        words = said.get(grade_cell.name)
        if words and cell.cell_type == "code":
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=words + "\n")]
