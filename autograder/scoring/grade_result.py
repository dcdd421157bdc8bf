"""A hand-in's grade in memory: the typed model that every step after scoring reads.

Made once by ``results.build_result`` (or by joining parts, ``grading.hand_in``), changed only by making a new one
(``dataclasses.replace``): an instructor's adjustment, a batch's stamp, a feedback mode's view. Stored and sent
as Gradescope's results.json: ``to_gradescope`` writes it, Gradescope's published fields at the top and per
test and the kit's own in ``extra_data``; ``from_json`` reads it back, so a record the kit wrote reads to the
same result and writes to the same bytes. Older records (fields added since missing) still read; what
``extra_data`` holds that this kit does not know is kept, and written back after the fields it knows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import MISSING, dataclass, field, fields
from enum import Enum, StrEnum
from typing import Any

from autograder.testing.outcomes import Outcome, Visibility

# Optional fields are left out of the JSON where they are None: a record written without one reads back
# without it, and writes the same bytes again.


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"not a results document: max_score is {value!r}")
    return value


def _present(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    return {key: value for key, value in pairs if value is not None}


class TestStatus(StrEnum):
    """Gradescope's word for a test: ``outcome`` says what happened, in the kit's words."""

    PASSED = "passed"
    FAILED = "failed"


# Gradescope's own fields of a test, in results.json's order; every other field of TestResult is the kit's, in
# its extra_data, in the order TestResult declares them.
GRADESCOPE_TEST_FIELDS = ("name", "score", "max_score", "status", "output", "visibility", "tags")


@dataclass(frozen=True, kw_only=True)
class TestResult:
    """One test: Gradescope's fields, then what the kit says of it (``extra_data`` in the JSON), each declared
    once here, in the JSON's order. A field with a default may be missing from an older record."""

    name: str
    score: float
    max_score: float  # 0 for a bonus test: Gradescope's extra credit
    status: TestStatus
    output: str  # what the student reads: call, expected, got, hint
    visibility: Visibility
    tags: tuple[str, ...]
    part: str  # "Part 2: Character-level BPE", or "Grader" for the grader's own trouble
    module: str
    function: str
    test: str  # pytest's name for it, with a parametrized case in brackets
    points: float  # what it is worth (a bonus test's too, though its max_score is 0)
    bonus: bool
    doc: str  # the line the student reads: the test's docstring
    outcome: Outcome
    call: str
    expected: str
    got: str
    hint: str
    # The contract rule whose fix the hint names (rubric.hint), "" where it names none (left out of the JSON).
    hint_id: str = field(default="", metadata={"absent": ""})
    detail: str
    example: str  # a property's failing inputs
    load_failed: bool = False  # the file did not load: reports show the cause once for all its tests
    summary: str | None = None  # a load failure in the kit's words alone (scoring.feedback_policy's scores)
    printed: str | None = None  # what the test's calls printed, for the instructor (a student's view drops it)
    fix_first: str = ""  # the student's own failing functions this one calls: the root cause to fix first
    # The fields student code made that a student's view leaves out (testing.own_words); ``output`` already does.
    withheld: tuple[str, ...] | None = None

    @property
    def passed(self) -> bool:
        return self.outcome is Outcome.PASSED

    def changed(self, **changes: Any) -> TestResult:
        """``dataclasses.replace(self, **changes)``, made without passing every field through ``__init__``:
        a class's feedback makes a view of each of its tests (tens of thousands), and replace's cost was most
        of the views' time."""
        unknown = changes.keys() - self.__dict__.keys()
        if unknown:
            raise TypeError(f"TestResult has no field {', '.join(sorted(unknown))}")
        copy = object.__new__(TestResult)
        copy.__dict__.update(self.__dict__, **changes)
        return copy

    def to_gradescope(self) -> dict[str, Any]:
        values = self.__dict__
        document = {name: _plain(values[name]) for name in GRADESCOPE_TEST_FIELDS}
        document["extra_data"] = {
            name: _plain(values[name])
            for name, absent in _EXTRA_FIELDS
            if values[name] is not None and values[name] != absent
        }
        return document

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> TestResult:
        """The test a results.json holds; KeyError where a field with no default is missing."""
        extra = raw["extra_data"]
        # Made as ``changed`` makes a copy, without passing every field through ``__init__``: a merge reads every
        # test of a class (tens of thousands), and a frozen dataclass's ``__init__`` was a third of reading them.
        # Every field is read (from _READING, made from the declaration), so none can be missed here.
        values = {}
        for name, top, read, default in _READING:
            found = (raw if top else extra).get(name, _MISSING)
            if found is _MISSING:
                if default is _MISSING:
                    raise KeyError(name)
                values[name] = default
            else:
                values[name] = found if read is None or found is None else read(found)
        made = object.__new__(cls)
        made.__dict__.update(values)
        return made


_MISSING: Any = object()
# How a field's JSON value becomes its value, where it is not the JSON value itself.
_READERS: dict[str, Callable[[Any], Any]] = {
    "status": TestStatus,
    "visibility": Visibility,
    "tags": tuple,
    "outcome": Outcome,
    "withheld": tuple,
}
# extra_data's fields: (name, the value that is left out of the JSON besides None).
_EXTRA_FIELDS = tuple(
    (each.name, each.metadata.get("absent", _MISSING))
    for each in fields(TestResult)
    if each.name not in GRADESCOPE_TEST_FIELDS
)
# Every field: (name, whether it is Gradescope's, its reader, its default for an older record).
_READING = tuple(
    (
        each.name,
        each.name in GRADESCOPE_TEST_FIELDS,
        _READERS.get(each.name),
        each.default if each.default is not MISSING else _MISSING,
    )
    for each in fields(TestResult)
)


def _plain(value: Any) -> Any:
    """A field's value as JSON holds it: an enum's value, a tuple's list."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return list(value)
    return value


@dataclass(frozen=True)
class BatchStamp:
    """What ``grade batch`` graded a result from: for resuming, and for the summary's identical code."""

    student: str
    fingerprint: str
    code_hash: str
    # Winnowed fingerprints of the code, part by part: (part module, its fingerprints) (course.batch.similarity)
    similarity: tuple[tuple[str, tuple[int, ...]], ...] | None = None
    similarity_version: int | None = None  # how the code hash and fingerprints were taken (similarity.VERSION)
    imports: tuple[str, ...] | None = None  # what the graded code imports from outside (similarity.measures)
    builds_code: tuple[str, ...] | None = None  # how it would run code built at run time (similarity.measures)
    # What graded it, for a merge to name a result another kit or grading made (the fingerprint mixes them in):
    kit: str | None = None  # the kit's version
    grading: str | None = None  # the tests, reference, limits, parts, course secret and cage (grading_hash)
    course: str | None = None  # the course file's points (CoursePoints.digest), where it gives any

    def to_json(self) -> dict[str, Any]:
        return _present(
            [
                ("student", self.student),
                ("fingerprint", self.fingerprint),
                ("kit", self.kit),
                ("grading", self.grading),
                ("course", self.course),
                ("code_hash", self.code_hash),
                ("similarity", _stored_by_part(self.similarity)),
                ("similarity_version", self.similarity_version),
                ("imports", None if self.imports is None else list(self.imports)),
                ("builds_code", None if self.builds_code is None else list(self.builds_code)),
            ]
        )

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> BatchStamp:
        def listed(key: str) -> tuple[Any, ...] | None:
            return None if raw.get(key) is None else tuple(raw[key])

        return cls(
            student=raw["student"],
            fingerprint=raw["fingerprint"],
            code_hash=raw["code_hash"],
            similarity=_by_part(raw.get("similarity")),
            similarity_version=raw.get("similarity_version"),
            imports=listed("imports"),
            builds_code=listed("builds_code"),
            kit=raw.get("kit"),
            grading=raw.get("grading"),
            course=raw.get("course"),
        )


def _stored_by_part(prints: tuple[tuple[str, tuple[int, ...]], ...] | None) -> dict[str, list[int]] | None:
    return None if prints is None else {part: list(found) for part, found in prints}


def _by_part(raw: Any) -> tuple[tuple[str, tuple[int, ...]], ...] | None:
    """A stamp's fingerprints as stored: by part, or (an older kit's) one list for the whole program, read as
    the whole hand-in's (its measuring version is older too: the batch measures it again)."""
    if raw is None:
        return None
    if isinstance(raw, Mapping):
        return tuple((part, tuple(found)) for part, found in raw.items())
    return (("", tuple(raw)),)


@dataclass(frozen=True)
class AdjustmentEntry:
    """An instructor's change to a grade (course.batch.adjustments), as the feedback shows it: points added, or
    (``total``) the grade's whole total, set by hand."""

    target: str
    points: float
    comment: str
    total: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "points": self.points,
            "comment": self.comment,
            **_present([("total", self.total or None)]),
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> AdjustmentEntry:
        return cls(target=raw["target"], points=raw["points"], comment=raw["comment"], total=raw.get("total", False))


@dataclass(frozen=True)
class LateEntry:
    """What handing in late cost (course.late), as the feedback shows it."""

    said: str  # how late, against which due date, and who says when it came
    rule: str  # the course's late rule, in words
    penalty: float  # the points taken off (0 for a hand-in late under a rule that takes nothing)

    def to_json(self) -> dict[str, Any]:
        return {"said": self.said, "rule": self.rule, "penalty": self.penalty}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> LateEntry:
        return cls(said=raw["said"], rule=raw["rule"], penalty=raw["penalty"])


@dataclass(frozen=True)
class GradeResult:
    """A hand-in's grade: Gradescope's fields, its tests, then what the kit says of the whole."""

    score: float
    max_score: float
    execution_time: float
    output: str
    tests: tuple[TestResult, ...]
    visibility: Visibility = Visibility.VISIBLE
    stdout_visibility: Visibility = Visibility.HIDDEN
    submission: str | None = None
    suite: str | None = None
    notes: tuple[str, ...] | None = None
    from_code: tuple[str, ...] | None = None  # of the notes, those the worker said: student code can shape them
    student_seconds: float | None = None  # spent waiting for the student's code: what ranks the slowest hand-ins
    graded_from: Mapping[str, str] | None = None  # part module -> the release's work folder it counted from
    read: Mapping[str, tuple[str, ...]] | None = None  # the hand-in's files the worker read, by part (part_cache)
    batch: BatchStamp | None = None  # in a batch's results only
    adjustments: tuple[AdjustmentEntry, ...] | None = None  # the instructor's, in a batch's feedback only
    late: LateEntry | None = None  # what lateness cost, in a batch's feedback only (course.late)
    feedback: str | None = None  # how much of the tests the feedback shows (scoring.feedback_policy)
    gradescope_max_score: float | None = None  # in Gradescope's upload only, where the top level has none
    # extra_data keys this kit does not know (an older or newer kit's), kept and written back after its own.
    unread: Mapping[str, Any] = field(default_factory=dict)

    def tests_of(self, module: str) -> Iterator[TestResult]:
        return (test for test in self.tests if test.module == module)

    def to_gradescope(self) -> dict[str, Any]:
        """results.json's fields. Gradescope's upload (``gradescope_max_score`` set) has full marks in
        ``extra_data`` only, as Gradescope publishes no top-level ``max_score``."""
        details = [
            ("submission", self.submission),
            ("suite", self.suite),
            ("notes", None if self.notes is None else list(self.notes)),
            ("from_code", None if self.from_code is None else list(self.from_code)),
            ("student_seconds", self.student_seconds),
            ("graded_from", None if self.graded_from is None else dict(self.graded_from)),
            ("read", None if self.read is None else {part: list(names) for part, names in self.read.items()}),
            ("batch", None if self.batch is None else self.batch.to_json()),
            ("adjustments", None if self.adjustments is None else [entry.to_json() for entry in self.adjustments]),
            ("late", None if self.late is None else self.late.to_json()),
            ("feedback", self.feedback),
            *self.unread.items(),
            ("max_score", self.gradescope_max_score),
        ]
        top = [("score", self.score), ("max_score", self.max_score if self.gradescope_max_score is None else None)]
        return {
            **_present(top),
            "execution_time": self.execution_time,
            "output": self.output,
            "visibility": self.visibility.value,
            "stdout_visibility": self.stdout_visibility.value,
            "tests": [test.to_gradescope() for test in self.tests],
            "extra_data": _present(details),
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> GradeResult:
        """The result a results.json holds; KeyError, TypeError or ValueError where it is not one."""
        if not isinstance(raw, Mapping) or not isinstance(raw.get("extra_data", {}), Mapping):
            raise ValueError("not a results document: a JSON object with an extra_data object is")
        extra = dict(raw.get("extra_data", {}))
        notes, from_code, read = extra.pop("notes", None), extra.pop("from_code", None), extra.pop("read", None)
        batch, adjustments, late = extra.pop("batch", None), extra.pop("adjustments", None), extra.pop("late", None)
        known = {key: extra.pop(key, None) for key in ("submission", "suite", "student_seconds", "graded_from")}
        feedback, gradescope_max_score = extra.pop("feedback", None), extra.pop("max_score", None)
        return cls(
            score=raw["score"],
            max_score=_number(raw.get("max_score", gradescope_max_score)),
            execution_time=raw["execution_time"],
            output=raw["output"],
            tests=tuple(TestResult.from_json(test) for test in raw["tests"]),
            visibility=Visibility(raw.get("visibility", Visibility.VISIBLE)),
            stdout_visibility=Visibility(raw.get("stdout_visibility", Visibility.HIDDEN)),
            notes=None if notes is None else tuple(notes),
            from_code=None if from_code is None else tuple(from_code),
            read=None if read is None else {part: tuple(names) for part, names in read.items()},
            batch=None if batch is None else BatchStamp.from_json(batch),
            adjustments=None if adjustments is None else tuple(map(AdjustmentEntry.from_json, adjustments)),
            late=None if late is None else LateEntry.from_json(late),
            feedback=feedback,
            gradescope_max_score=gradescope_max_score,
            unread=extra,
            **known,
        )
