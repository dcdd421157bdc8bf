"""A hidden test's failure shows student code's words only where they are that failing call's own.

The process that fails a property has been given the property's other examples first (the ones it passed,
and those hypothesis tried while shrinking), and a test's earlier calls: its message, its answer, what it
printed, even the arguments a later call is made with (an answer passed on), may carry all of them. So each
failure whose words student code made is made again, once, after the run: its failing example alone (the
test's body, for a test with no examples), in a fresh worker that is given nothing but such examples, whose
inputs the failures show anyway. A word of the failure is shown only where that run made the very same
(``withheld``): whatever it says is then a function of the example alone. The outcome, its points, its hint
and the example hypothesis drew are the grader's and stay as they were decided.

All the failures of a hand-in share that one worker, in one process a part: a hand-in with bugs starts
one more worker, not one per failure, and imports each failing part once more. Where that worker ends (a
crash, a timeout), the failures after it are not made again and show none of their words; those likeliest
to end it go last.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from autograder.testing.outcomes import Outcome, TestOutcome

if TYPE_CHECKING:
    import pytest

    from autograder.testing.proxy import Said

# The fields of a failure that student code makes, one way or another (``printed`` is the failing call's
# output, whole). The call too: its arguments may be an earlier call's answer.
WORD_FIELDS = ("call", "got", "expected", "detail", "printed")

# Outcomes whose words are the kit's alone: nothing to make again.
KIT_WORDS = (Outcome.PASSED, Outcome.TIMED_OUT, Outcome.GRADER_ERROR, Outcome.REFUSED)


@dataclass(frozen=True)
class Wording:
    """A decided failure to be made again alone: where its outcome is in ``GradingPlugin.outcomes``, what the
    session knew as it was decided, its failing example (None: the test's body), and its words then."""

    item: pytest.Item
    index: int
    said: Said
    example: dict[str, Any] | None
    words: dict[str, str]
    ends_workers: bool  # it crashed: made again last, since it is likely to end the worker again


def words_of(outcome: TestOutcome, output: str) -> dict[str, str]:
    """What of ``outcome`` student code made, with ``output`` (its failing call's, uncut) as ``printed``."""
    words = {field: str(getattr(outcome, field)) for field in WORD_FIELDS if field != "printed"}
    words["printed"] = output
    return words


def to_make_again(outcome: TestOutcome, output: str, *, calls: int) -> bool:
    """Whether a failure's words are student code's to make: it made a call (of ``calls``), which said
    something past the kit's fixed words. A load failure is said by an import, before its process was given
    any call; a stub that printed nothing, in the one call of its test (whose arguments no answer made),
    says the kit's words alone."""
    if calls == 0 or outcome.outcome in KIT_WORDS or outcome.load_failed:
        return False
    return not (outcome.outcome is Outcome.NOT_STARTED and not output and calls == 1)


def withheld(decided: dict[str, str], alone: dict[str, str] | None) -> tuple[str, ...]:
    """The fields of the decided words that the run alone did not make the same (all, where it made none)."""
    return tuple(
        field for field in WORD_FIELDS if decided.get(field) and (alone is None or alone.get(field) != decided[field])
    )


def measured_withheld(outcome: TestOutcome, output: str) -> tuple[str, ...]:
    """A measured test (a time or a size: ``call_seconds``) is not made again, which would cost its whole
    measure once more: its answer, message and output are withheld; its call is the grader's own input."""
    said = outcome.detail if outcome.outcome in (Outcome.ERROR, Outcome.CRASHED) else ""
    return tuple(field for field, value in (("got", outcome.got), ("detail", said), ("printed", output)) if value)


def answer_made_call(outcome: TestOutcome) -> tuple[str, ...]:
    """A failure not made again whose call came after others in its example: its call (and the detail that
    quotes it) may be made of an earlier call's answer."""
    return tuple(field for field in ("call", "detail") if getattr(outcome, field))


# How a student reads each withheld field.
_NAMED = {
    "call": "the call",
    "got": "the answer",
    "expected": "the expected value",
    "detail": "the message",
    "printed": "what it printed",
}


def withheld_sentence(fields: tuple[str, ...]) -> str:
    """The kit's one line in place of the words ``fields`` it withholds."""
    named = [_NAMED[field] for field in WORD_FIELDS if field in fields]
    listed = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    return (
        f"{listed}, made by your code after it had been given other hidden inputs: they show only where this "
        "example, made again alone, gives the same; make your function's answer depend on its arguments only"
    )
