"""Which hand-ins one run of ``grade batch`` grades, and whether it writes the class's files.

Every way of running a batch is one of these, on one code path:

- every hand-in that has no current result (the default);
- a named set of students, graded again even where their result is current (``--student``);
- one shard of the class (``--shard K/N``), which writes results and feedback only, so that several
  shards can write into one OUT at once;
- none (``--merge``): the class's files, built from the results the shards left in OUT.

A run that writes the class's files (the gradebook, the LMS files, the summary, JUnit, nbgrader's
database) builds them from every hand-in's result, so it needs a current result for each one.

>>> selection = Selection.of_students(["ada"])
>>> selection.grades("ada"), selection.grades("bea"), selection.class_files
(True, False, True)
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from autograder.run_errors import RunError

SHARD = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


class SelectionError(RunError, ValueError):
    """The run names hand-ins that are not there, or a shard that cannot be; the message says the fix."""


def shards_of(students: Iterable[str], count: int) -> dict[str, int]:
    """Which shard of ``count`` grades each student: the ids sorted by code point, dealt out in turn.

    Every machine that sees the same hand-ins computes the same split (no locale, no salted hash), and the
    shards' shares differ by one hand-in at most, so no shard waits on a larger one. A hand-in that arrives
    between the shards' starts moves the ones after it: a shard run again grades what it then lacks, and
    the merge lists any hand-in left without a result.

    >>> shards_of(["cyd", "ada", "bea"], 2)
    {'ada': 0, 'bea': 1, 'cyd': 0}
    """
    return {student: position % count for position, student in enumerate(sorted(set(students)))}


@dataclass(frozen=True)
class Shard:
    index: int  # from 0
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``K/N``: shard K (from 0) of N; SelectionError, in one line, where it is not one.

        >>> Shard.parse("0/3")
        Shard(index=0, count=3)
        """
        match = SHARD.match(text)
        if match is None:
            raise SelectionError(f"--shard {text!r}: write K/N, shard K of N counted from 0 (0/3 is the first of 3)")
        index, count = int(match[1]), int(match[2])
        if count < 1:
            raise SelectionError(f"--shard {text}: N is how many shards the class is split into, at least 1")
        if index >= count:
            raise SelectionError(
                f"--shard {text}: K counts from 0, so for {count} shard(s) it is 0 to {count - 1} "
                f"(the last is {count - 1}/{count})"
            )
        return cls(index, count)

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def share(self, students: Iterable[str]) -> frozenset[str]:
        """The students of ``students`` this shard grades."""
        return frozenset(student for student, index in shards_of(students, self.count).items() if index == self.index)


def _every(student: str) -> bool:
    return True


def _no_one(student: str) -> bool:
    return False


def _not_yet_dealt(student: str) -> bool:
    raise RuntimeError("a shard's selection grades no one before it is dealt its share: call within(students)")


@dataclass(frozen=True)
class Selection:
    """What one run grades (``grades``: of the hand-ins without a current result, which; with ``again``,
    those it grades even where their result is current) and whether it writes the class's files."""

    grades: Callable[[str], bool] = _every
    again: bool = False
    class_files: bool = True
    students: frozenset[str] = frozenset()  # named by the instructor: each must name a hand-in
    shard: Shard | None = None
    merge: bool = False  # grades nothing: the class's files from what is in OUT

    @classmethod
    def every(cls) -> Selection:
        return cls()

    @classmethod
    def of_students(cls, students: Iterable[str]) -> Selection:
        named = frozenset(students)
        return cls(grades=named.__contains__, again=True, students=named)

    @classmethod
    def of_shard(cls, shard: Shard) -> Selection:
        """Shard ``shard`` of the class; it grades once ``within`` has dealt it its share."""
        return cls(grades=_not_yet_dealt, class_files=False, shard=shard)

    @classmethod
    def of_no_one(cls) -> Selection:
        return cls(grades=_no_one, merge=True)

    def within(self, students: Iterable[str]) -> Selection:
        """This selection for a class whose hand-ins are ``students``: a shard's share is dealt from them."""
        if self.shard is None:
            return self
        return replace(self, grades=self.shard.share(students).__contains__)

    def reads(self, student: str) -> bool:
        """Whether this run reads ``student``'s hand-in at all: a run that writes the class's files reads
        every one (the reports show them all); a shard reads its own only."""
        return self.class_files or self.grades(student)

    def check(self, known: Iterable[str], *, roster: Iterable[str] = ()) -> None:
        """Before anything is graded or written: every student named is a hand-in's id (one line if not)."""
        ids = set(known)
        unknown = sorted(self.students - ids)
        if not unknown:
            return
        on_roster = set(roster)
        said = []
        for student in unknown:
            if student in on_roster:
                said.append(f"{student!r} is on the roster but handed nothing in")
                continue
            close = difflib.get_close_matches(student, sorted(ids), n=1)
            said.append(f"{student!r} is no hand-in's id" + (f" (did you mean {close[0]!r}?)" if close else ""))
        raise SelectionError(f"--student: {'; '.join(said)}; name students by their id in the gradebook")

    def refuse_class_options(self, given: Iterable[str]) -> None:
        """Refuse a shard the options ``given`` that write a class's file (``--junit``): it never writes one."""
        for option in given:
            if self.shard is not None:
                raise SelectionError(
                    f"--shard {self.shard} and {option}: a shard writes results and feedback only; give {option} "
                    "to the run that builds the class's files once every shard is done"
                )

    def regrades(self, student: str) -> bool:
        """Whether ``student`` is graded even where their result is current."""
        return self.again and self.grades(student)

    def for_what_is_missing(self) -> str:
        """What to do when hand-ins this run does not grade have no current result for its class files."""
        if self.merge:
            return (
                "run the shards that grade them again (a shard redoes only what is missing), or grade them "
                "here with --student ID, then merge again"
            )
        return "grade them too (add --student ID for each), or run without --student"


def choose(
    *,
    students: Iterable[str] = (),
    shard: str | None = None,
    merge: bool = False,
    force: bool = False,
) -> Selection:
    """The selection a command line asks for; SelectionError, in one line, for one that cannot be."""
    named = tuple(students)
    if merge:
        for option, given in (("--shard", shard is not None), ("--student", bool(named)), ("--force", force)):
            if given:
                raise SelectionError(
                    f"--merge and {option}: choose one (--merge grades nothing: it builds the class's files "
                    "from the results the shards wrote)"
                )
        return Selection.of_no_one()
    if shard is None:
        return Selection.of_students(named) if named else Selection.every()
    parsed = Shard.parse(shard)
    if named:
        raise SelectionError(
            f"--shard {shard} and --student: choose one (a shard grades its share of the class, --student the "
            "students named)"
        )
    return Selection.of_shard(parsed)
