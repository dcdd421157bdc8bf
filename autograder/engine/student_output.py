"""How much of what student code produced (its printed output, its exception messages) a result carries.

Student code is called with hidden inputs, so all it produces can carry them out: a function that records
the arguments of the calls it is given and prints them, or raises with them, in a call it fails on purpose.
So a failing test shows only what its own failing call printed, and only ``PRINTED_PER_TEST`` characters of
it, and a hand-in's feedback at most ``PRINTED_PER_HAND_IN`` of printed output in all; an exception's
message is cut to ``MESSAGE_PER_TEST``. The notes that quote student output start with the words below, so
that a feedback that shows none of it (``--feedback scores``, reports.disclosure) can find and drop them.
"""

from __future__ import annotations

PRINTED_PER_TEST = 500
PRINTED_PER_HAND_IN = 4000
MESSAGE_PER_TEST = 500

# The first words of each note that quotes what student code wrote.
PRINTED_WHILE_LOADING = "your code printed this while loading:"
WROTE_OUTSIDE_CALLS = "your code wrote this outside of any call:"
CELL_RAISED = "notebook cell {cell} raised {type}"
QUOTING_NOTES = (PRINTED_WHILE_LOADING, WROTE_OUTSIDE_CALLS)


def cut(text: str, room: int) -> str:
    """The start of ``text`` that fits in ``room`` characters, with a mark where it was cut."""
    if len(text) <= room:
        return text
    return text[: max(room, 0)] + f" [... {len(text) - max(room, 0)} more characters not shown]"


def without_student_text(note: str) -> str | None:
    """A note as a feedback that shows no student text gives it: a quoting note dropped, a cell's error kept
    to its kind (its message is the student's)."""
    if note.startswith(QUOTING_NOTES):
        return None
    if note.startswith("notebook cell ") and " raised " in note:
        return note.split(": ", 1)[0]
    return note
