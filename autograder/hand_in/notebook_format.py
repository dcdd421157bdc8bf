"""Reading notebooks: a version 4 notebook from its JSON, an older one through nbformat.

The grader alone does not need nbformat (and the ten packages it brings): a
student who works in modules installs only what grading needs, and a
version 4 notebook is plain JSON whose cells' types and sources are all
grading reads. nbformat (the ``notebooks`` extra, an instructor's kit)
upgrades notebooks older than that, and writes the kit's own notebooks.

nbformat is imported without the two seconds its validator's optional format checkers can cost.

nbformat validates with jsonschema, and jsonschema imports every optional format checker it finds
installed. One of them, rfc3987-syntax (brought in by Jupyter's jupyter-events, not by us), builds a
grammar parser when it is imported: two seconds on these machines, paid by every ``grade`` of a
notebook and every job of a batch. The notebook schemas check no IRI format, so the grader tells
Python that module is absent before jsonschema looks for it; where jsonschema is already loaded (a
Jupyter kernel), nothing changes.
"""

from __future__ import annotations

import json
import sys
from types import ModuleType
from typing import Any, NamedTuple

SLOW_OPTIONAL_CHECKER = "rfc3987_syntax"


def import_nbformat() -> ModuleType:
    if "jsonschema" not in sys.modules:
        sys.modules.setdefault(SLOW_OPTIONAL_CHECKER, None)  # type: ignore[arg-type]  # None: "not installed"
    import nbformat

    return nbformat


class RawCell(NamedTuple):
    kind: str  # code, markdown, raw
    source: str
    metadata: dict[str, Any]  # {} when the cell has none, or none that is a mapping


def read_cells(text: str, raw: object = None) -> list[RawCell]:
    """Each cell of a notebook, in order; ValueError when it is not a notebook.

    A version 4 notebook (what Jupyter has written since 2015) is read from its JSON: grading needs only
    each cell's type, source and metadata (the kit's mark of its role), and nbformat's validation costs
    tens of milliseconds a notebook on every ``grade``. An older one is upgraded by nbformat, where it
    is installed. ``raw``: the JSON already parsed from ``text``, where the caller has it.
    """
    raw = json.loads(text) if raw is None else raw
    if isinstance(raw, dict) and raw.get("nbformat") == 4:
        return _cells_of_v4_json(raw)
    try:
        nbformat = import_nbformat()
    except ImportError:
        raise ValueError("not a version 4 notebook: open and save it in a recent Jupyter") from None
    document = nbformat.reads(text, as_version=4)
    return [
        RawCell(str(cell.get("cell_type", "")), str(cell.get("source", "")), _metadata(cell.get("metadata")))
        for cell in document.cells
    ]


def _metadata(metadata: object) -> dict[str, Any]:
    return dict(metadata) if isinstance(metadata, dict) else {}


def _cells_of_v4_json(raw: dict[str, object]) -> list[RawCell]:
    listed = raw.get("cells")
    if not isinstance(listed, list):
        raise ValueError("a notebook without a list of cells")
    cells = []
    for cell in listed:
        if not isinstance(cell, dict) or not isinstance(cell.get("cell_type"), str):
            raise ValueError("a cell without a type")
        source = cell.get("source", "")
        if isinstance(source, list):
            source = "".join(str(line) for line in source)
        if not isinstance(source, str):
            raise ValueError("a cell whose source is not text")
        cells.append(RawCell(cell["cell_type"], source, _metadata(cell.get("metadata"))))
    return cells
