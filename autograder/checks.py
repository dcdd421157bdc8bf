"""Helpers graded tests import: the hint a student reads next to a failed assertion."""

from __future__ import annotations


class _Notes:
    """What the running test said about its failure; reset by the plugin before each test."""

    hint: str = ""


notes = _Notes()


def hint(text: str) -> str:
    """The fix to suggest when the assertion it stands beside fails.

    Written as an assertion's message, so it is evaluated only on failure:
    ``assert got == expected, hint("after a merge, jump past both tokens")``.
    """
    notes.hint = text
    return text
