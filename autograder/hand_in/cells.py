"""A notebook's code cells as the worker runs them: the student's cells, plain Python, cut to what the graded
functions need, each named as Jupyter shows it.

Whose cell is whose comes from the mark the kit's notebooks carry (kit_cells): the kit's checks and demos
never run, whatever they bind or raise. What remains (the set-up, the exercises, the cells the student
added or edited) is cut statement by statement by notebook_slice, which alone decides for a notebook
whose cells have no mark at all.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from autograder.hand_in import student_syntax
from autograder.hand_in.bounded import HandInError, decode
from autograder.hand_in.hand_in_limits import HandInLimits
from autograder.hand_in.ipython_syntax import plain_python
from autograder.hand_in.kit_cells import is_run, kit_role
from autograder.hand_in.notebook_format import read_cells
from autograder.hand_in.notebook_slice import defined_names, sliced


@dataclass(frozen=True)
class Cell:
    index: int  # its place among all the notebook's cells, markdown included, as Jupyter counts
    source: str
    name: str = ""  # as messages name it: the place and the first line


def notebook_cells(
    source: Path, files: dict[str, bytes], notebook: str, limits: HandInLimits, wanted: set[str]
) -> tuple[tuple[Cell, ...], list[str]]:
    """The notebook's code cells the worker runs (the kit's checks and demos left out), as plain Python, cut
    to what the ``wanted`` functions need (notebook_slice), each named as Jupyter shows it: its place among
    all the cells; notes on what was skipped."""
    text = decode(source, notebook, files[notebook])
    try:
        # The cells are counted on the bare JSON (fast) before each is read and validated (slow).
        raw = json.loads(text)
        count = len(raw.get("cells", [])) if isinstance(raw, dict) else 0
        if count > limits.notebook_cells:
            raise HandInError(
                f"{source}: {notebook} has {count} cells, more than {limits.notebook_cells} (the notebook_cells "
                "limit); clear what you do not need and save it again"
            )
        all_cells = read_cells(text, raw)  # the JSON parsed once
    except HandInError:
        raise
    except Exception as error:  # json and nbformat raise several kinds for a broken file
        raise HandInError(
            f"{source}: {notebook} is not a readable notebook ({type(error).__name__}); save it again from Jupyter"
        ) from None
    code_size = sum(len(cell.source) for cell in all_cells if cell.kind == "code")
    if code_size > student_syntax.MOST_CHARACTERS:  # the grader reads it all as syntax, with no cap on its memory
        raise HandInError(
            f"{source}: {notebook} holds {code_size:,} characters of code, more than the "
            f"{student_syntax.MOST_CHARACTERS:,} the grader reads; clear what you do not need and save it again"
        )
    places: list[int] = []
    codes: list[str] = []
    notes: list[str] = []
    left_out: list[tuple[int, str]] = []
    for place, cell in enumerate(all_cells, start=1):
        if cell.kind != "code":
            continue
        if not is_run(kit_role(cell.metadata, cell.source)):
            left_out.append((place, cell.source))  # the kit's check or demo: it grades nothing, nor blames
            continue
        code, skipped = plain_python(cell.source)
        if skipped:
            notes.append(f"cell {_cell_name(place, cell.source)}: skipped IPython-only lines: {', '.join(skipped)}")
        places.append(place)
        codes.append(code)
    needed, unbound = sliced(codes, wanted)
    notes += _read_from_the_kits_cells(unbound, left_out)
    cells = tuple(
        Cell(place, code, _cell_name(place, all_cells[place - 1].source))
        for place, code in zip(places, needed, strict=True)
    )
    return cells, notes


def _read_from_the_kits_cells(unbound: set[str], left_out: list[tuple[int, str]]) -> list[str]:
    """A line for each name the student's code reads that only a kit cell the grader leaves out defines:
    top to bottom it ran, graded it is a NameError, and the line says where to define it instead."""
    notes = []
    for name in sorted(unbound):
        for place, source in left_out:
            if name in defined_names(source):
                notes.append(
                    f"cell {_cell_name(place, source)}: {name}, which your code reads, is defined only in this "
                    "cell of the kit's, which grading does not run: define it in a cell of your own"
                )
                break
    return notes


def _cell_name(place: int, source: str) -> str:
    """How Jupyter shows a cell to its author: its place among all the cells, and its first line."""
    first = next((line.strip() for line in source.splitlines() if line.strip()), "")
    return f"{place} ({first[:40]}{'…' if len(first) > 40 else ''})" if first else str(place)
