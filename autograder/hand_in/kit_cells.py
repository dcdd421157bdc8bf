"""The mark the kit's notebooks carry on each code cell, and what the grader makes of it.

``grade make-notebooks`` writes, in each code cell's metadata, ``"bpe_kit": {"role": ROLE}``:

- ``setup``: the module's imports and constants, which the graded functions read;
- ``exercise``: a function the student writes (``"function"`` names it);
- ``check``: ``check(function)``, which runs the public tests in the student's kernel;
- ``demo``: a demonstration or exploration of the prose (a training run, a plot,
  GPT-2's files).

A check and a demo also carry ``"sha256"``, the hash of the source the kit wrote.

The grader runs the setup, the exercises and every cell without a mark (a cell
the student added), and never a check or an unchanged demo: those are the
kit's, they grade nothing, and an error in one is not the student's. A demo
the student edited is the student's cell from then on, as if they had added
it. Jupyter and nbgrader keep a cell's metadata through editing, saving,
``generate_assignment``, ``collect`` and ``autograde`` (only its optional
``ClearMetadataPreprocessor``, off by default, drops it), so a cell loses its
mark only when its code is pasted into a fresh notebook; a notebook whose cells
have no mark is cut by ``notebook_slice`` alone.
"""

from __future__ import annotations

import hashlib
from typing import Any

KEY = "bpe_kit"
SETUP, EXERCISE, CHECK, DEMO = "setup", "exercise", "check", "demo"
ROLES = (SETUP, EXERCISE, CHECK, DEMO)
NEVER_RUN = (CHECK, DEMO)


def mark(role: str, source: str, function: str = "") -> dict[str, str]:
    """The metadata the kit writes on a cell of ``role`` holding ``source``."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r} of a kit cell: one of {', '.join(ROLES)}")
    written = {"role": role}
    if function:
        written["function"] = function
    if role in NEVER_RUN:
        written["sha256"] = source_hash(source)
    return written


def source_hash(source: str) -> str:
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


def kit_role(metadata: Any, source: str) -> str | None:
    """The role the kit gave a cell, from its metadata; None for the student's own cell (no mark, or a
    check or demo whose source is no longer what the kit wrote)."""
    if not isinstance(metadata, dict):
        return None
    marked = metadata.get(KEY)
    if not isinstance(marked, dict) or marked.get("role") not in ROLES:
        return None
    role = str(marked["role"])
    if role in NEVER_RUN and marked.get("sha256") != source_hash(source):
        return None  # edited: what it holds now is the student's
    return role


def is_run(role: str | None) -> bool:
    """Whether the grader runs a cell of this role (None: the student's own)."""
    return role not in NEVER_RUN
