"""The base of every error that stops a whole run (a bad request, course file or output folder), so the
command line catches them in one place. A hand-in's own trouble is never one of these: it is that hand-in's
result."""

from __future__ import annotations

# The exit code a run that could not grade ends with; the command line's other codes live beside it there.
CANNOT_GRADE = 2


class RunError(Exception):
    """A run-level error: its message is the one line the command line prints, ``exit_code`` its exit."""

    exit_code = CANNOT_GRADE
