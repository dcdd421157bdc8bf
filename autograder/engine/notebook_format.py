"""nbformat, imported without the two seconds its validator's optional format checkers can cost.

nbformat validates with jsonschema, and jsonschema imports every optional format checker it finds
installed. One of them, rfc3987-syntax (brought in by Jupyter's jupyter-events, not by us), builds a
grammar parser when it is imported: two seconds on these machines, paid by every ``grade`` of a
notebook and every job of a batch. The notebook schemas check no IRI format, so the grader tells
Python that module is absent before jsonschema looks for it; where jsonschema is already loaded (a
Jupyter kernel), nothing changes.
"""

from __future__ import annotations

import sys
from types import ModuleType

SLOW_OPTIONAL_CHECKER = "rfc3987_syntax"


def import_nbformat() -> ModuleType:
    if "jsonschema" not in sys.modules:
        sys.modules.setdefault(SLOW_OPTIONAL_CHECKER, None)  # type: ignore[arg-type]  # None: "not installed"
    import nbformat

    return nbformat
