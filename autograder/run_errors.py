"""The base of every error that stops a whole run, so the command line catches them in one place.

The rule for which errors are run errors:

- A ``RunError`` is what stops a whole command, whoever called it: a bad request (its options, a cage or a
  folder it refuses), the course file or its secret, the output folder, the kit itself (a suite it lacks, a
  changed bubblewrap, an exercise source or stub marker an authoring command cannot read). Its message is
  the one line the command prints after its name, ``exit_code`` what it ends with.
- A hand-in's own trouble is never a ``RunError``: it cannot be read, its code raised or timed out, its
  worker died. That is the hand-in's result (its outcome, a failed row in the gradebook), and the rest of
  the class is graded. ``grade PATH`` grades one hand-in, so there the result "could not be graded" is
  the run's and the command says so as a run error.
- An error a module raises only for its own caller to turn into something else (a cage that steps down,
  a refusal the batch's request words as its own) need not be one either.

``tests/kit/cli/test_run_errors.py`` lists every exception class of the package that is not a ``RunError`` with
why, so a new one is placed on one side of this rule or the other.
"""

from __future__ import annotations

# The exit code a run that could not grade ends with; the command line's other codes live beside it there.
CANNOT_GRADE = 2


class RunError(Exception):
    """A run-level error: its message is the one line the command line prints, ``exit_code`` its exit."""

    exit_code = CANNOT_GRADE
