"""How much of what student code produced (its printed output, its exception messages) a result carries.

Student code is called with hidden inputs, so all it produces can carry them out: a function that records
the arguments of the calls it is given and prints them, or raises with them, in a call it fails on purpose.
So a failing test shows only what its own failing call printed, and only ``PRINTED_PER_TEST`` characters of
it, and a hand-in's feedback at most ``PRINTED_PER_HAND_IN`` of printed output in all; an exception's
message is cut to ``MESSAGE_PER_TEST``. The notes the worker said are kept apart (``from_code``), so that a
feedback that shows none of it (``--feedback scores``, scoring.feedback_policy) leaves them out.
"""

from __future__ import annotations

PRINTED_PER_TEST = 500
# What the instructor's own results keep of what each test's calls printed, passed tests' too (the end of it).
PRINTED_FOR_INSTRUCTOR = 2000
PRINTED_PER_HAND_IN = 4000
MESSAGE_PER_TEST = 500

# The first words of the notes that quote what student code wrote.
PRINTED_WHILE_LOADING = "your code printed this while loading:"
WROTE_OUTSIDE_CALLS = "your code wrote this outside of any call:"
CELL_RAISED = "notebook cell {cell} raised {type}"


def cut(text: str, room: int) -> str:
    """The start of ``text`` that fits in ``room`` characters, with a mark where it was cut."""
    if len(text) <= room:
        return text
    return text[: max(room, 0)] + f" [... {len(text) - max(room, 0)} more characters not shown]"
