"""The shape of the one results document (Gradescope's results.json) that every report is rendered from.

Built by ``results.build_document``, scored by ``scoring``, read by the
reports, the batch and the platform adapters; written to disk as plain JSON.
Gradescope's published fields at the top and per test; the kit's own in
``extra_data``. ``outcome`` holds an ``Outcome``'s value: read it with
``scoring.outcome_of``.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict


class GradedTestDetails(TypedDict):
    """What the kit says of one test, beside Gradescope's fields."""

    part: str  # "Part 2: Character-level BPE", or "Grader" for the grader's own trouble
    module: str
    function: str
    test: str  # pytest's name for it, with a parametrized case in brackets
    points: float  # what it is worth (a bonus test's too, though its max_score is 0)
    bonus: bool
    doc: str  # the line the student reads: the test's docstring
    outcome: str  # an Outcome's value
    call: str
    expected: str
    got: str
    hint: str
    detail: str
    example: str  # a property's failing inputs
    load_failed: bool  # the file did not load: reports show the cause once for all its tests
    summary: NotRequired[str]  # a load failure in the kit's words alone (reports.disclosure's scores)
    printed: NotRequired[str]  # what the test's calls printed, for the instructor (a student's view drops it)
    fix_first: str  # the student's own failing functions this one calls: the root cause to fix first


class GradedTest(TypedDict):
    name: str
    score: float
    max_score: float  # 0 for a bonus test: Gradescope's extra credit
    status: str  # Gradescope's "passed" or "failed"
    output: str  # what the student reads: call, expected, got, hint
    visibility: str
    tags: list[str]
    extra_data: GradedTestDetails


class BatchStamp(TypedDict):
    """What ``grade batch`` graded a result from: for resuming, and for the summary's identical code."""

    student: str
    fingerprint: str
    code_hash: str
    similarity: NotRequired[list[int]]  # winnowed fingerprints of the code (course.batch.similarity)
    similarity_version: NotRequired[int]  # how the code hash and fingerprints were taken (similarity.VERSION)
    imports: NotRequired[list[str]]  # what the graded code imports from outside (similarity.measures)
    builds_code: NotRequired[list[str]]  # how it would run code built at run time (similarity.measures)


class AdjustmentEntry(TypedDict):
    """An instructor's change to a grade (course.batch.adjustments), as the feedback shows it."""

    target: str
    points: float
    comment: str


class DocumentDetails(TypedDict, total=False):
    submission: str
    suite: str
    notes: list[str]
    from_code: list[str]  # of the notes, those the worker said: student code can shape them (disclosure)
    batch: BatchStamp  # in a batch's results only
    max_score: float  # in Gradescope's copy only, where the top level has no max_score
    student_seconds: float  # spent waiting for the student's code: what ranks the slowest hand-ins
    graded_from: dict[str, str]  # part module -> the release's work folder it counted from, where there were two
    adjustments: list[AdjustmentEntry]  # the instructor's, in a batch's feedback only
    feedback: str  # how much of the tests the feedback shows (reports.disclosure), in a batch's feedback only
    read: dict[str, list[str]]  # the hand-in's files the worker read, by the part reading them (part_cache)


class ResultsDocument(TypedDict):
    score: float
    max_score: float
    execution_time: float
    output: str
    visibility: str
    stdout_visibility: str
    tests: list[GradedTest]
    extra_data: DocumentDetails
