"""What the class got wrong, counted: the figures of ``reports.class_figures``, built once from the batch's
records and worded by ``reports.class_summary``.

Every figure a report shows is counted here, and nothing here is worded for a page: how many students got
a function right, which tests were hardest and with what wrong answer, whose code looks alike.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from autograder.course.batch import similarity, store
from autograder.course.batch.gradebook import CANNOT_GRADE, GRADED_BY_HAND, NO_SUBMISSION, NOT_ON_ROSTER, StudentRecord
from autograder.parts import part_of
from autograder.reports.class_figures import (
    ClassSummary,
    Flagged,
    FunctionFigures,
    HardTest,
    IdenticalCode,
    NeedsHelp,
    NotGraded,
    OverFull,
    Overview,
    ScoreFigures,
    SimilarPair,
    SlowHandIn,
    StoppedHandIn,
    StudentLine,
)
from autograder.scoring.grade_result import GradeResult
from autograder.scoring.scoring import FunctionTotal, full_marks, function_totals, percent
from autograder.testing.outcomes import Outcome


@dataclass(frozen=True)
class StartingCode:
    """What every student was handed (the stubs): sharing it is not copying."""

    code_hash: str | None = None
    fingerprints: dict[str, frozenset[int]] = field(default_factory=dict)  # by part module


# The lowest-scoring graded students named for help, those below the class median among them.
LOWEST_NAMED = 5


def summarize(records: list[StudentRecord], *, stubs: StartingCode, most: float | None = None) -> ClassSummary:
    """The class's figures, from each student's record; ``stubs``: what everyone was handed; ``most``: full
    marks plus every bonus point, above which a total is flagged."""
    graded = [record for record in records if record.result is not None]
    documents = [record.result for record in graded if record.result is not None]
    tested = [record.result for record in graded if record.result is not None and record.status != GRADED_BY_HAND]
    hardest, passed_by_everyone = _hardest(tested)
    return ClassSummary(
        overview=_overview(records, documents),
        functions=_functions(tested),
        hardest=hardest,
        passed_by_everyone=passed_by_everyone,
        stopped=_stopped(graded),
        slowest=_slowest(graded),
        identical=_identical(graded, stubs),
        similar=_similar(graded, stubs),
        similar_threshold=similarity.THRESHOLD,
        similar_smallest=similarity.SMALLEST,
        not_compared=sum(1 for parts in _compared(graded, stubs).values() if not parts),
        imports=_flagged(graded, "imports"),
        builds_code=_flagged(graded, "builds_code"),
        not_graded=_not_graded(records),
        students=_students(records),
        over_full=_over_full(graded, most),
        needs_help=_needs_help(records),
        did_not_load=sum(1 for document in tested if any(test.load_failed for test in document.tests)),
    )


def _over_full(graded: list[StudentRecord], most: float | None) -> tuple[OverFull, ...]:
    if most is None:
        return ()
    return tuple(
        OverFull(record.id, document.score, most)
        for record, document in _with_documents(graded)
        if round(document.score, 4) > round(most, 4)
    )


def _overview(records: list[StudentRecord], documents: list[GradeResult]) -> Overview:
    counts = Counter(record.status for record in records)
    scores = None
    if documents:
        percents = [percent(document) for document in documents]
        scores = ScoreFigures(
            mean=statistics.fmean(percents),
            median=statistics.median(percents),
            spread=statistics.pstdev(percents) if len(percents) > 1 else 0.0,
            lowest=min(percents),
            highest=max(percents),
            full_marks=sum(1 for document in documents if full_marks(document)),
        )
    return Overview(len(records), len(documents), counts[NO_SUBMISSION], counts[CANNOT_GRADE], scores)


def _functions(documents: list[GradeResult]) -> tuple[FunctionFigures, ...]:
    per_student: dict[tuple[str, str], list[FunctionTotal]] = defaultdict(list)
    for document in documents:
        for total in function_totals(document):
            per_student[(total.part, total.function)].append(total)
    return tuple(
        FunctionFigures(
            part=part,
            function=function,
            mean=sum(total.score for total in totals) / len(documents),
            worth=totals[0].max_score,
            full_marks=sum(1 for total in totals if total.status is Outcome.PASSED),
            not_started=sum(1 for total in totals if total.status is Outcome.NOT_STARTED),
            bonus=totals[0].bonus,
        )
        for (part, function), totals in per_student.items()
    )


def _hardest(documents: list[GradeResult]) -> tuple[tuple[HardTest, ...], int]:
    """The tests some student failed, by pass rate among the students who started their function (lowest
    first), a file that does not load left out (it is one cause, not a failure of each test); and how many
    tests every one of them passed."""
    Key = tuple[str, str, str]  # (part, function, test): train_bpe is in four parts
    passes: Counter[Key] = Counter()
    seen: Counter[Key] = Counter()
    wrong: dict[Key, Counter[str]] = defaultdict(Counter)
    causes: dict[Key, Counter[str]] = defaultdict(Counter)
    info: dict[Key, tuple[str, float]] = {}
    for document in documents:
        for test in document.tests:
            if test.outcome is Outcome.NOT_STARTED:
                continue  # a student who has not started it did not find it hard
            if test.load_failed:
                continue  # one cause for every test of the file: one line of Needs help first, not a row each
            key = (test.part.split(":")[0], test.function, test.test)
            info[key] = (test.doc, test.points)
            seen[key] += 1
            if test.passed:
                passes[key] += 1
                continue
            if test.outcome is Outcome.FAILED and test.got:
                wrong[key][test.got] += 1
            if test.fix_first:
                causes[key][test.fix_first] += 1
    hardest: list[HardTest] = []
    everyone = 0
    for key in sorted(seen, key=lambda key: (passes[key] / seen[key], key)):
        if passes[key] == seen[key]:
            everyone += 1
            continue
        doc, points = info[key]
        common = wrong[key].most_common(1)
        cause = causes[key].most_common(1)
        hardest.append(
            HardTest(
                part=key[0],
                function=key[1],
                test=key[2],
                doc=doc,
                points=points,
                passed=passes[key],
                tried=seen[key],
                wrong_answer=common[0] if common else None,
                fix_first=cause[0] if cause else None,
            )
        )
    return tuple(hardest), everyone


def _stopped(graded: list[StudentRecord]) -> tuple[StoppedHandIn, ...]:
    stopped: list[StoppedHandIn] = []
    for record, document in _with_documents(graded):
        timed_out = [test for test in document.tests if test.outcome is Outcome.TIMED_OUT]
        crashed = [test for test in document.tests if test.outcome is Outcome.CRASHED]
        if timed_out or crashed:
            first = (timed_out or crashed)[0].detail
            stopped.append(StoppedHandIn(record.id, len(timed_out), len(crashed), first, name=record.name))
    return tuple(stopped)


def _slowest(graded: list[StudentRecord]) -> tuple[SlowHandIn, ...]:
    """Ranked by the time spent in the student's code, never the grader's own start (the first hand-in of each
    grader pays for imports and Part 5's reference timing)."""
    ranked = sorted(_with_documents(graded), key=lambda pair: -_code_seconds(pair[1]))
    return tuple(
        SlowHandIn(record.id, _code_seconds(document), document.score, document.max_score, name=record.name)
        for record, document in ranked
    )


def _code_seconds(document: GradeResult) -> float:
    seconds = document.student_seconds
    return document.execution_time if seconds is None else seconds  # older results lack it


def _with_documents(records: list[StudentRecord]) -> list[tuple[StudentRecord, GradeResult]]:
    """The records that have a results document, each with it."""
    return [(record, record.result) for record in records if record.result is not None]


def _identical(graded: list[StudentRecord], stubs: StartingCode) -> tuple[IdenticalCode, ...]:
    """Groups of the same program, among hand-ins with a part big enough to compare: two near-empty hand-ins
    (the stubs and a line) are the same for want of anything else to write."""
    compared = _compared(graded, stubs)
    groups: dict[str, list[StudentRecord]] = defaultdict(list)
    for record in graded:
        stamp = record.result.batch if record.result is not None else None
        code = stamp.code_hash if stamp is not None else None
        if code and code != stubs.code_hash and compared.get(record.id, True):
            groups[code].append(record)
    identical: list[IdenticalCode] = []
    for members in sorted(groups.values(), key=lambda members: [member.id for member in members]):
        if len(members) > 1:
            score = members[0].result.score if members[0].result is not None else 0
            identical.append(
                IdenticalCode(tuple(member.id for member in members), tuple(member.name for member in members), score)
            )
    return tuple(identical)


def _prints(graded: list[StudentRecord]) -> dict[str, dict[str, tuple[int, ...]]]:
    """Each graded student's fingerprints by part, where the batch measured them: of the parts graded (an
    assignment of some parts leaves the others out), and of a whole notebook."""
    found: dict[str, dict[str, tuple[int, ...]]] = {}
    for record, document in _with_documents(graded):
        if document.batch is not None and document.batch.similarity is not None:
            graded_parts = {test.module for test in document.tests} | {similarity.WHOLE_NOTEBOOK}
            found[record.id] = {part: prints for part, prints in document.batch.similarity if part in graded_parts}
    return found


def _compared(graded: list[StudentRecord], stubs: StartingCode) -> dict[str, dict[str, frozenset[int]]]:
    """Each measured student's parts big enough to compare (similarity.SMALLEST)."""
    return similarity.own_prints(_prints(graded), base=stubs.fingerprints)


def _similar(graded: list[StudentRecord], stubs: StartingCode) -> tuple[SimilarPair, ...]:
    """Pairs alike in a part once every name the student chose is set aside and functions are put in one
    order; code identical to the other's is left to ``_identical``, and the stubs count for no one."""
    by_id = {record.id: (record, document) for record, document in _with_documents(graded)}
    pairs: list[SimilarPair] = []
    for alike in similarity.similar_pairs(_prints(graded), base=stubs.fingerprints):
        (first, first_result), (second, second_result) = by_id[alike.first], by_id[alike.second]
        first_stamp, second_stamp = first_result.batch, second_result.batch  # both measured: they have prints
        if first_stamp is not None and second_stamp is not None and first_stamp.code_hash == second_stamp.code_hash:
            continue  # the same program: listed as identical code
        parts = tuple((_part_title(part), shared) for part, shared in alike.parts)
        pairs.append(
            SimilarPair(first.id, second.id, first.name, second.name, parts, first_result.score, second_result.score)
        )
    return tuple(pairs)


def _part_title(module: str) -> str:
    """How the summary names a part: "Part 2", or "the notebook" for a one-notebook hand-in's whole code."""
    return "the notebook" if module == similarity.WHOLE_NOTEBOOK else f"Part {part_of(module).number}"


def _flagged(graded: list[StudentRecord], key: str) -> tuple[Flagged, ...]:
    """The students whose batch stamp lists something under ``key`` (imports, builds_code)."""
    flagged: list[Flagged] = []
    for record, document in _with_documents(graded):
        listed = getattr(document.batch, key, None) or ()
        if listed:
            flagged.append(Flagged(record.id, tuple(listed), document.score, name=record.name))
    return tuple(flagged)


def _not_graded(records: list[StudentRecord]) -> tuple[NotGraded, ...]:
    lines: list[NotGraded] = []
    for record in records:
        if record.status in (CANNOT_GRADE, GRADED_BY_HAND):  # the tests gave no grade: a total set by hand may
            lines.append(NotGraded(record.id, record.status, record.reason, name=record.name))
        elif record.status == NO_SUBMISSION:
            lines.append(NotGraded(record.id, record.status, "on the roster, nothing handed in", name=record.name))
        if record.note == NOT_ON_ROSTER:
            lines.append(NotGraded(record.id, NOT_ON_ROSTER, f"handed in {record.origin}", name=record.name))
    return tuple(lines)


def _students(records: list[StudentRecord]) -> tuple[StudentLine, ...]:
    """Every student, with the feedback page they were given."""
    return tuple(
        StudentLine(
            record.id,
            record.name,
            percent(record.result) if record.result is not None else None,
            record.status,
            f"{record.id}/{store.FEEDBACK_PAGE}" if record.status != NO_SUBMISSION else None,
        )
        for record in records
    )


def _needs_help(records: list[StudentRecord]) -> tuple[NeedsHelp, ...]:
    """Who to look at first: no grade (nothing handed in, could not be graded), a file that does not load, an
    upload with nothing started, the lowest scores (at most ``LOWEST_NAMED``, below the median), late work,
    and code flagged for a look. One line per student with every reason; no grade first, then lowest score."""
    scored = sorted(
        (percent(record.result), record.id)
        for record in records
        if record.result is not None and record.status != GRADED_BY_HAND
    )
    median = statistics.median(score for score, _ in scored) if scored else 0.0
    lowest = {student for score, student in scored[:LOWEST_NAMED] if score < median}
    lines: list[NeedsHelp] = []
    for record in records:
        why: list[str] = []
        document = record.result
        if record.status == NO_SUBMISSION:
            why.append("nothing handed in")
        elif record.status == CANNOT_GRADE:
            why.append(f"could not grade: {record.reason}" if record.reason else "could not grade")
        if document is not None and record.status != GRADED_BY_HAND:
            broken = sorted({test.module for test in document.tests if test.load_failed})
            if broken:
                why.append(f"does not load: {', '.join(broken)} (every test of it fails for that one cause)")
            elif document.tests and all(test.outcome is Outcome.NOT_STARTED for test in document.tests):
                why.append("nothing started (empty upload or the stubs as handed out)")
            elif record.id in lowest:
                why.append(f"among the lowest scores ({percent(document):.0f}%)")
        late = record.standing.late if record.standing is not None else record.late
        if late:
            why.append(f"late: {record.lateness}" if record.standing is not None else "marked late by the LMS")
        if document is not None and document.batch is not None:
            flagged = [*(document.batch.imports or ()), *(document.batch.builds_code or ())]
            if flagged:
                why.append(f"flagged for a look: {', '.join(flagged)}")
        if why:
            score = percent(document) if document is not None else None
            lines.append(NeedsHelp(record.id, record.name, tuple(why), score))
    return tuple(sorted(lines, key=lambda line: (line.percent is not None, line.percent or 0.0, line.student)))
