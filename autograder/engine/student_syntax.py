"""A student's source read in the trusted process: its syntax tree, or None, whatever the source holds.

The grader reads a hand-in's syntax in several places (the similarity measure, the function to fix first,
the code shown beside a failing test, a notebook's needed cells, whether a cell is plain Python). Python's
parser answers nesting past its limits with MemoryError or RecursionError, not SyntaxError (``x = --…1``
with 50,000 signs): such a source is one it cannot read, as one with a syntax error is, never a reason for
the grader to stop.
"""

from __future__ import annotations

import ast

# What ast.parse raises for a source it cannot read: a syntax error, a null byte, nesting past its limits.
UNREADABLE = (SyntaxError, ValueError, RecursionError, MemoryError)


def parse(source: str) -> ast.Module | None:
    """``source``'s syntax tree; None when Python cannot read it."""
    try:
        return ast.parse(source)
    except UNREADABLE:
        return None
