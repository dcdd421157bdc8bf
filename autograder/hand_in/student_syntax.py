"""A student's source read in the trusted process: its syntax tree, or None, whatever the source holds.

The grader reads a hand-in's syntax in several places (the similarity measure, the function to fix first,
the code shown beside a failing test, a notebook's needed cells, whether a cell is plain Python). Python's
parser answers nesting past its limits with MemoryError or RecursionError, not SyntaxError (``x = --…1``
with 50,000 signs): such a source is one it cannot read, as one with a syntax error is, never a reason for
the grader to stop. Nor is a source longer than ``MOST_CHARACTERS`` read: a syntax tree takes about 200
bytes a character of dense code (8 MB of one-line assignments, 1.5 GB and 7 s), and the trusted processes
hold no control group's cap. The worker, which has one, still compiles and runs it.
"""

from __future__ import annotations

import ast

# The longest source read here: a hundred times the longest reference module, 200 MB of tree at most.
MOST_CHARACTERS = 1_000_000
# What ast.parse raises for a source it cannot read: a syntax error, a null byte, nesting past its limits.
UNREADABLE = (SyntaxError, ValueError, RecursionError, MemoryError)


def parse(source: str) -> ast.Module | None:
    """``source``'s syntax tree; None when Python cannot read it, or when it is too long to read here."""
    if len(source) > MOST_CHARACTERS:
        return None
    try:
        return ast.parse(source)
    except UNREADABLE:
        return None
