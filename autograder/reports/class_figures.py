"""What the class summary shows, as figures: the types ``course.batch.summary`` counts into and
``reports.class_summary`` words, kept beside their renderer so that the batch imports them and the renderer
imports nothing above its own step.

Nothing here is worded for a page, and nothing counts: each is a frozen record of numbers and names.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ScoreFigures:
    """The graded students' scores, in percent."""

    mean: float
    median: float
    spread: float  # the population standard deviation (statistics.pstdev); 0 for one student
    lowest: float
    highest: float
    full_marks: int  # how many students have them


@dataclass(frozen=True)
class Overview:
    students: int
    graded: int
    without_submission: int
    could_not_grade: int
    scores: ScoreFigures | None  # None when no one was graded


@dataclass(frozen=True)
class FunctionFigures:
    """One function across the graded students (a student who did not start it counts with 0 points)."""

    part: str
    function: str
    mean: float
    worth: float
    full_marks: int  # students who passed all of its tests
    not_started: int
    bonus: bool = False  # extra credit: its points come on top of full marks


@dataclass(frozen=True)
class HardTest:
    """A test some student who started its function failed; the ones every such student passed are only counted."""

    part: str
    function: str
    test: str  # pytest's name, with a parametrized case's id in brackets
    doc: str
    points: float
    passed: int
    tried: int  # students who started the function
    wrong_answer: tuple[str, int] | None  # what failing functions returned most often, and how often
    fix_first: tuple[str, int] | None  # the student's own failing function most often called by this one


@dataclass(frozen=True)
class StoppedHandIn:
    """A student whose code timed out or ended the worker, with what the first such test said."""

    student: str
    timed_out: int
    crashed: int
    first: str
    name: str = ""  # the roster's name, "" where there is none


@dataclass(frozen=True)
class SlowHandIn:
    student: str
    seconds: float  # in the student's code, never the grader's own start
    score: float
    max_score: float
    name: str = ""  # the roster's name, "" where there is none


@dataclass(frozen=True)
class IdenticalCode:
    """Students whose programs are the same once comments, docstrings and layout are set aside."""

    students: tuple[str, ...]
    names: tuple[str, ...]  # each one's name, "" where there is none
    score: float


@dataclass(frozen=True)
class SimilarPair:
    """Two students, and the parts in which their code is alike."""

    first: str
    second: str
    first_name: str
    second_name: str
    parts: tuple[tuple[str, float], ...]  # ("Part 2", the share of the smaller one's fingerprints), most alike first
    first_score: float
    second_score: float


@dataclass(frozen=True)
class Flagged:
    """A student whose graded code does something worth a look (imports a library, builds code), and what."""

    student: str
    what: tuple[str, ...]
    score: float
    name: str = ""  # the roster's name, "" where there is none


@dataclass(frozen=True)
class NotGraded:
    """A student with no grade, or a hand-in with no student on the roster, and why."""

    student: str
    status: str
    why: str
    name: str = ""  # the roster's name, "" where there is none


@dataclass(frozen=True)
class OverFull:
    """A total above full marks plus every bonus point: an adjustment, or a total set by hand, to check."""

    student: str
    score: float
    most: float  # full marks plus every bonus point


@dataclass(frozen=True)
class NeedsHelp:
    """A student the instructor should look at first, and every reason why, most pressing first."""

    student: str
    name: str
    why: tuple[str, ...]
    percent: float | None  # None: no grade


@dataclass(frozen=True)
class StudentLine:
    student: str
    name: str
    percent: float | None  # None: not graded
    status: str
    feedback: str | None  # the feedback page beside the summary, None for a student with no submission


@dataclass(frozen=True)
class ClassSummary:
    overview: Overview
    functions: tuple[FunctionFigures, ...]
    hardest: tuple[HardTest, ...]  # hardest first
    passed_by_everyone: int  # tests every graded student who started their function passed
    stopped: tuple[StoppedHandIn, ...]
    slowest: tuple[SlowHandIn, ...]  # slowest first, every graded student
    identical: tuple[IdenticalCode, ...]
    similar: tuple[SimilarPair, ...]  # most alike first, none identical
    similar_threshold: float
    similar_smallest: int  # the fingerprints of its own a part needs to be compared
    not_compared: int  # graded hand-ins with no part that big: compared with no one
    imports: tuple[Flagged, ...]
    builds_code: tuple[Flagged, ...]
    not_graded: tuple[NotGraded, ...]
    students: tuple[StudentLine, ...]
    over_full: tuple[OverFull, ...] = ()
    needs_help: tuple[NeedsHelp, ...] = ()
    did_not_load: int = 0  # graded hand-ins with a file that does not load: left out of the hardest tests
