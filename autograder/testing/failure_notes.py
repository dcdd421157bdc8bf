"""What the running graded test says of its failure: the one piece of run-time state the suites' face and
the engine share.

The face (``rubric.hint``, beside a test's assertion) writes into it; the engine (``plugin``, which words each
outcome, and ``grader``, which runs a hand-in's tests) makes and reads it. It lives here, importing nothing of
the kit, so that both import it and neither imports the other for it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar


class Notes:
    """What the running test said about its failure: the plugin's, reset before each test (``taking``)."""

    hint: str = ""
    # The rule whose fix the hint names, as a rules mark names it ("rule" or "function.rule"); None for the
    # test's own rule where it checks only one (hint_id), "" for a hint that says only what it saw.
    fix: str | None = None


# The notes of the hand-in being graded, while its plugin runs its tests (``taking``); none elsewhere.
_taking: ContextVar[Notes | None] = ContextVar("bpe_kit_test_notes", default=None)


@contextlib.contextmanager
def taking(notes: Notes) -> Iterator[None]:
    """While this lasts, what a graded test says (``rubric.hint``) goes into ``notes``."""
    token = _taking.set(notes)
    try:
        yield
    finally:
        _taking.reset(token)


def taken() -> Notes | None:
    """The notes a graded test's words go into now; None outside a grading (a suite run by plain pytest)."""
    return _taking.get()
