"""What the class got wrong: statistics, item analysis and things to look at, as HTML and Markdown.

Both renderings come from one list of sections, so they always say the same.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from html import escape
from urllib.parse import quote

from autograder.course.batch import similarity, store
from autograder.course.batch.gradebook import CANNOT_GRADE, NO_SUBMISSION, NOT_ON_ROSTER, StudentRecord
from autograder.reports.html import page
from autograder.scoring.grade_result import GradeResult
from autograder.scoring.scoring import FunctionTotal, full_marks, function_totals, percent
from autograder.scoring.student_text import markdown_code, markdown_text, visible
from autograder.testing.outcomes import Outcome

HISTOGRAM = "summary-histogram.svg"
SLOWEST_SHOWN = 10
SIMILAR_SHOWN = 30


class Code(str):
    """A cell's text shown as code (a function's name, a student's answer); plain ``str`` is shown as text.

    Either way it is shown literally: student text cannot close a code span or start Markdown or HTML.
    """


class Link(str):
    """A cell's text that links to a page beside the summary (a student's feedback)."""

    def __new__(cls, text: str, target: str) -> Link:
        link = super().__new__(cls, text)
        link.target = target
        return link

    target: str


# A table cell: text, code, or pieces of both ("`[3, 2]`" then " (1×)").
Cell = str | tuple[str, ...]


@dataclass
class Section:
    title: str
    lines: list[str] = field(default_factory=list)  # the kit's own sentences: `code` spans allowed
    headers: list[str] = field(default_factory=list)
    rows: list[list[Cell]] = field(default_factory=list)


@dataclass(frozen=True)
class StartingCode:
    """What every student was handed (the stubs): sharing it is not copying."""

    code_hash: str | None = None
    fingerprints: frozenset[int] = frozenset()


def build_sections(records: list[StudentRecord], *, stubs: StartingCode) -> list[Section]:
    graded = [record for record in records if record.result is not None]
    documents = [record.result for record in graded if record.result is not None]
    sections = [_overview(records, documents)]
    if documents:
        sections += [_functions(documents), _item_analysis(documents), _stopped(graded), _slowest(graded)]
    sections += [_identical(graded, stubs.code_hash), _similar(graded, stubs), _imports(graded), _built(graded)]
    sections += [_not_graded(records), _students(records)]
    return [section for section in sections if section.lines or section.rows]


def _overview(records: list[StudentRecord], documents: list[GradeResult]) -> Section:
    section = Section("Class")
    counts = Counter(record.status for record in records)
    section.lines.append(
        f"{len(records)} students: {len(documents)} graded, {counts[NO_SUBMISSION]} without a submission, "
        f"{counts[CANNOT_GRADE]} could not be graded."
    )
    if documents:
        scores = [percent(document) for document in documents]
        spread = statistics.pstdev(scores) if len(scores) > 1 else 0.0
        section.lines.append(
            f"Score (percent): mean {statistics.fmean(scores):.1f}, median {statistics.median(scores):.1f}, "
            f"standard deviation {spread:.1f}, lowest {min(scores):.1f}, highest {max(scores):.1f}; "
            f"{sum(1 for document in documents if full_marks(document))} with full marks."
        )
    return section


def _functions(documents: list[GradeResult]) -> Section:
    section = Section("By function", headers=["part", "function", "mean points", "full marks", "not started"])
    per_student: dict[tuple[str, str], list[FunctionTotal]] = defaultdict(list)
    for document in documents:
        for total in function_totals(document):
            per_student[(total.part, total.function)].append(total)
    count = len(documents)
    for (part, function), totals in per_student.items():
        mean = sum(total.score for total in totals) / count
        full = sum(1 for total in totals if total.status is Outcome.PASSED)
        idle = sum(1 for total in totals if total.status is Outcome.NOT_STARTED)
        section.rows.append(
            [
                part,
                Code(function),
                f"{mean:.1f} / {totals[0].max_score:g}",
                f"{100 * full / count:.0f}%",
                f"{100 * idle / count:.0f}%",
            ]
        )
    return section


def _item_analysis(documents: list[GradeResult]) -> Section:
    section = Section(
        "Hardest tests first",
        lines=[
            "Pass rate among the students who started the function; the most common wrong answer is what failing "
            "functions returned; fix first names the student's own failing function that a failing one calls."
        ],
        headers=["part", "function", "test", "points", "pass rate", "most common wrong answer", "fix first"],
    )
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
    everyone = 0
    for key in sorted(seen, key=lambda key: (passes[key] / seen[key], key)):
        if passes[key] == seen[key]:
            everyone += 1
            continue
        doc, points = info[key]
        _, bracket, case = key[2].partition("[")
        label = f"{doc} [{_readable(case.rstrip(']'))}]" if bracket else doc  # which case of a parametrized test
        common = wrong[key].most_common(1)
        answer: Cell = (Code(_clip(common[0][0])), f" ({common[0][1]}×)") if common else ""
        cause = causes[key].most_common(1)
        first: Cell = (Code(cause[0][0]), f" ({cause[0][1]}×)") if cause else ""
        rate = f"{100 * passes[key] / seen[key]:.0f}%"
        section.rows.append([key[0], Code(key[1]), label, f"{points:g}", rate, answer, first])
    if everyone:
        section.lines.append(f"{everyone} test(s) that every graded student passed are left out.")
    return section


def _readable(case: str) -> str:
    """pytest writes a case's non-ASCII characters as escapes; show them as they are (controls stay escaped)."""
    try:
        case = case.encode("ascii").decode("unicode_escape")
    except (UnicodeError, ValueError):
        pass
    return _clip(" ".join(visible(case).split()), 30)


def _clip(text: str, room: int = 60) -> str:
    return text if len(text) <= room else text[: room - 1] + "…"


def _stopped(graded: list[StudentRecord]) -> Section:
    section = Section("Timeouts and crashes", headers=["student", "timed out", "crashed the worker", "first one"])
    for record, document in _with_documents(graded):
        timed_out = [test for test in document.tests if test.outcome is Outcome.TIMED_OUT]
        crashed = [test for test in document.tests if test.outcome is Outcome.CRASHED]
        if timed_out or crashed:
            first = (timed_out or crashed)[0].detail
            section.rows.append([record.id, str(len(timed_out)), str(len(crashed)), _clip(first, 90)])
    return section


def _slowest(graded: list[StudentRecord]) -> Section:
    """Ranked by the time spent in the student's code, never the grader's own start (the first hand-in of each
    grader pays for imports and Part 5's reference timing)."""
    section = Section("Slowest submissions", headers=["student", "seconds in their code", "score"])
    ranked = sorted(_with_documents(graded), key=lambda pair: -_code_seconds(pair[1]))
    for record, document in ranked[:SLOWEST_SHOWN]:
        section.rows.append(
            [record.id, f"{_code_seconds(document):.1f}", f"{document.score:g} / {document.max_score:g}"]
        )
    return section


def _code_seconds(document: GradeResult) -> float:
    seconds = document.student_seconds
    return document.execution_time if seconds is None else seconds  # older results lack it


def _with_documents(records: list[StudentRecord]) -> list[tuple[StudentRecord, GradeResult]]:
    """The records that have a results document, each with it."""
    return [(record, record.result) for record in records if record.result is not None]


def _identical(graded: list[StudentRecord], stub_hash: str | None) -> Section:
    section = Section(
        "Identical code",
        lines=["Same program once comments, docstrings and layout are set aside: worth a look, not proof."],
        headers=["students", "score"],
    )
    groups: dict[str, list[StudentRecord]] = defaultdict(list)
    for record in graded:
        stamp = record.result.batch if record.result is not None else None
        code = stamp.code_hash if stamp is not None else None
        if code and code != stub_hash:
            groups[code].append(record)
    for members in sorted(groups.values(), key=lambda members: [member.id for member in members]):
        if len(members) > 1:
            score = members[0].result.score if members[0].result is not None else 0
            section.rows.append([", ".join(member.id for member in members), f"{score:g}"])
    if not section.rows:
        section.lines = []
    return section


def _similar(graded: list[StudentRecord], stubs: StartingCode) -> Section:
    section = Section(
        "Similar code",
        lines=[
            f"Pairs that share at least {similarity.THRESHOLD:.0%} of the smaller program's fingerprints once "
            "every name the student chose is set aside and functions are put in one order (code identical to "
            "the other's is in the section above; the stubs count for no one): worth a look, not proof."
        ],
        headers=["students", "shared", "scores"],
    )
    prints: dict[str, list[int]] = {}
    codes: dict[str, str] = {}
    scores: dict[str, float] = {}
    for record, document in _with_documents(graded):
        stamp = document.batch
        if stamp is not None and stamp.similarity is not None:
            prints[record.id] = list(stamp.similarity)
            codes[record.id] = stamp.code_hash
            scores[record.id] = document.score
    pairs = [
        pair for pair in similarity.similar_pairs(prints, base=stubs.fingerprints) if codes[pair[0]] != codes[pair[1]]
    ]
    for first, second, shared in pairs[:SIMILAR_SHOWN]:
        section.rows.append([f"{first}, {second}", f"{shared:.0%}", f"{scores[first]:g}, {scores[second]:g}"])
    if len(pairs) > SIMILAR_SHOWN:
        section.lines.append(f"The {SIMILAR_SHOWN} most alike of {len(pairs)} pairs are shown.")
    if not section.rows:
        section.lines = []
    return section


IMPORTS_SAID = (
    "Graded code that imports beyond the standard library, regex and the hand-in's own modules: a library may "
    "be doing the exercise. Worth a look, not proof."
)


BUILT_SAID = (
    "Graded code that would run code built at run time (exec, eval or compile of built text, marshal, code "
    "objects, ctypes): the grader refuses it, so a copy hidden that way earned nothing and showed nothing. "
    "Worth a look."
)


def _imports(graded: list[StudentRecord]) -> Section:
    return _listed(graded, "Imports to look at", IMPORTS_SAID, ("imports", "imports"))


def _built(graded: list[StudentRecord]) -> Section:
    return _listed(graded, "Code built at run time", BUILT_SAID, ("builds_code", "builds code with"))


def _listed(graded: list[StudentRecord], title: str, said: str, column: tuple[str, str]) -> Section:
    """A section of the students whose batch stamp lists something under ``column`` (its key, its header)."""
    key, header = column
    section = Section(title, lines=[said], headers=["student", header, "score"])
    for record, document in _with_documents(graded):
        listed = getattr(document.batch, key, None) or ()
        if listed:
            section.rows.append([record.id, Code(", ".join(listed)), f"{document.score:g}"])
    if not section.rows:
        section.lines = []
    return section


def _students(records: list[StudentRecord]) -> Section:
    """Every student, each linked to the feedback page they were given."""
    section = Section("Students", headers=["student", "name", "score", "status", "feedback"])
    for record in records:
        score = f"{percent(record.result):.1f}%" if record.result is not None else ""
        page = (Link("page", f"{record.id}/{store.FEEDBACK_PAGE}"),) if record.status != NO_SUBMISSION else ""
        section.rows.append([record.id, record.name, score, record.status, page])
    return section


def _not_graded(records: list[StudentRecord]) -> Section:
    section = Section("Not graded, and roster mismatches", headers=["student", "status", "why"])
    for record in records:
        if record.status == CANNOT_GRADE:
            section.rows.append([record.id, record.status, record.reason])
        elif record.status == NO_SUBMISSION:
            section.rows.append([record.id, record.status, "on the roster, nothing handed in"])
        if record.note == NOT_ON_ROSTER:
            section.rows.append([record.id, NOT_ON_ROSTER, f"handed in {record.origin}"])
    return section


def render_markdown(title: str, sections: list[Section], *, histogram: bool) -> str:
    lines = [f"# {title}", ""]
    for index, section in enumerate(sections):
        lines += [f"## {section.title}", ""]
        for line in section.lines:
            lines += [line, ""]
        if index == 0 and histogram:
            lines += [f"![Distribution of scores]({HISTOGRAM})", ""]
        if section.rows:
            lines.append("| " + " | ".join(section.headers) + " |")
            lines.append("|" + " --- |" * len(section.headers))
            lines += ["| " + " | ".join(_markdown_cell(cell) for cell in row) + " |" for row in section.rows]
            lines.append("")
    return "\n".join(lines)


def render_html(title: str, sections: list[Section], *, histogram: str | None) -> str:
    """The summary page; ``histogram`` is the chart's SVG, held inline (the page is one file)."""
    body = [f"<h1>{escape(title)}</h1>"]
    for index, section in enumerate(sections):
        body.append(f"<h2>{escape(section.title)}</h2>")
        body += [f"<p>{_inline(line)}</p>" for line in section.lines]
        if index == 0 and histogram is not None:
            body.append(histogram)
        if section.rows:
            head = "".join(f"<th>{escape(header)}</th>" for header in section.headers)
            rows = "".join(
                "<tr>" + "".join(f"<td>{_html_cell(cell)}</td>" for cell in row) + "</tr>" for row in section.rows
            )
            body.append(f"<table><tr>{head}</tr>{rows}</table>")
    return page(title, "".join(body))


def _pieces(cell: Cell) -> tuple[str, ...]:
    return cell if isinstance(cell, tuple) else (cell,)


def _markdown_cell(cell: Cell) -> str:
    return "".join(_markdown_piece(piece) for piece in _pieces(cell))


def _markdown_piece(piece: str) -> str:
    if isinstance(piece, Code):
        return markdown_code(piece)
    if isinstance(piece, Link):
        return f"[{markdown_text(piece)}](<{quote(piece.target)}>)"
    return markdown_text(piece)


def _html_cell(cell: Cell) -> str:
    return "".join(_html_piece(piece) for piece in _pieces(cell))


def _html_piece(piece: str) -> str:
    if isinstance(piece, Code):
        return f"<code>{escape(visible(piece))}</code>"
    if isinstance(piece, Link):
        return f'<a href="{escape(quote(piece.target))}">{escape(visible(piece))}</a>'
    return escape(visible(piece))


def _inline(text: str) -> str:
    """Markdown's `code` spans as <code>; everything else escaped."""
    pieces = escape(text).split("`")
    return "".join(f"<code>{piece}</code>" if index % 2 else piece for index, piece in enumerate(pieces))
