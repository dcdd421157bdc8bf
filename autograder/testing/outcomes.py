"""What happened to one graded test, and to a whole run: the data passed from the runner to the results."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from autograder.hand_in.loaded import LoadedHandIn


class Outcome(str, Enum):
    PASSED = "passed"
    FAILED = "failed"  # the function answered, and the answer is wrong
    ERROR = "error"  # the student's code raised, or could not be loaded
    CRASHED = "crashed"  # the student's code ended the worker process (os._exit, a crash, a limit)
    TIMED_OUT = "timed out"
    NOT_STARTED = "not started"  # the stub still raises NotImplementedError, or the module is missing
    GRADER_ERROR = "grader error"  # our bug: shown as ours, never as the student's mistake
    # The part's code is outside the plain-Python policy (hand_in.policy): never run, scored 0. The student's.
    REFUSED = "refused"


class Visibility(StrEnum):
    """When Gradescope shows a test, or a whole result, to the student (its "visibility" field); a graded
    test sets it with ``@pytest.mark.visibility(...)``, a course file for the whole result."""

    VISIBLE = "visible"
    HIDDEN = "hidden"
    AFTER_DUE_DATE = "after_due_date"
    AFTER_PUBLISHED = "after_published"


@dataclass(frozen=True)
class TestOutcome:
    """One graded test after it ran: what it checks, what it is worth, what happened."""

    name: str
    doc: str
    module: str
    function: str
    points: float
    visibility: Visibility
    outcome: Outcome
    bonus: bool = False  # extra credit: earned on top, never needed for full marks
    call: str = ""
    expected: str = ""
    got: str = ""
    hint: str = ""
    # The contract rule whose fix the hint names, "module.function.rule" (rubric.hint); "" where it names none.
    hint_id: str = ""
    detail: str = ""
    printed: str = ""  # what the student reads: the failing call's own output, bounded (student_output)
    printed_in_test: str = ""  # all the test's calls printed, for the instructor's results only (feedback_policy)
    example: str = ""  # a property's failing inputs, as hypothesis drew them
    load_failed: bool = False  # the module or notebook did not load: one cause for all of its tests
    summary: str = ""  # a load failure in the kit's words alone: no message of the student's (feedback_policy)
    fix_first: str = ""  # the student's own functions this one calls that fail their own tests
    # The fields student code made that a student's view leaves out (own_words): the instructor's keep them.
    withheld: tuple[str, ...] = ()


@dataclass(frozen=True)
class GradingRun:
    """Everything one grading run found, before it is scored and rendered."""

    submission: str
    suite: str
    outcomes: tuple[TestOutcome, ...]
    notes: tuple[str, ...]
    seconds: float
    student_seconds: float = 0.0  # waiting for the student's code (loading and calls), not the grader's own start
    # The hand-in as graded: feedback reads from its source which graded functions call which (call_graph)
    # when two of one part fail, to name the one to fix first.
    loaded: LoadedHandIn | None = None
    # The hand-in's files the worker read (opened or imported), by the part module whose call read them (""
    # before any call); None where not known whole.
    read: dict[str, tuple[str, ...]] | None = None
    # The notes that the worker said (load reports, what code printed or wrote): student code can shape them,
    # so a feedback that shows nothing of the student's code leaves them out (feedback_policy).
    from_code: tuple[str, ...] = ()
