"""What the class got wrong: statistics, item analysis and things to look at, as HTML and Markdown.

The figures (``class_figures``) are counted by ``course.batch.summary``; here they are worded into one list of
sections, which both renderings show, so they always say the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from urllib.parse import quote

from autograder.reports.class_figures import (
    ClassSummary,
    Flagged,
    FunctionFigures,
    NeedsHelp,
    NotGraded,
    OverFull,
    Overview,
    SlowHandIn,
    StoppedHandIn,
    StudentLine,
)
from autograder.reports.html import page
from autograder.scoring.student_text import markdown_code, markdown_text, visible

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


def build_sections(summary: ClassSummary) -> list[Section]:
    sections = [_overview(summary.overview), _needs_help(summary.needs_help), _over_full(summary.over_full)]
    if summary.overview.graded:
        count = summary.overview.graded
        sections += [_functions(summary.functions, count), _item_analysis(summary), _stopped(summary.stopped)]
        sections += [_slowest(summary.slowest)]
    sections += [_identical(summary), _similar(summary), _imports(summary.imports), _built(summary.builds_code)]
    sections += [_not_graded(summary.not_graded), _students(summary.students)]
    return [section for section in sections if section.lines or section.rows]


def _overview(overview: Overview) -> Section:
    section = Section("Class")
    section.lines.append(
        f"{overview.students} students: {overview.graded} graded, {overview.without_submission} without a "
        f"submission, {overview.could_not_grade} could not be graded."
    )
    scores = overview.scores
    if scores is not None:
        section.lines.append(
            f"Score (percent): mean {scores.mean:.1f}, median {scores.median:.1f}, population standard deviation "
            f"{scores.spread:.1f}, lowest {scores.lowest:.1f}, highest {scores.highest:.1f}; "
            f"{scores.full_marks} passed every test (before late penalties and adjustments)."
        )
    return section


def _needs_help(lines: tuple[NeedsHelp, ...]) -> Section:
    """The students to look at first, each by name, with every reason."""
    section = Section("Needs help first", headers=["student", "why", "score"])
    for line in lines:
        score = f"{line.percent:.1f}%" if line.percent is not None else "no grade"
        section.rows.append([_who(line.student, line.name), "; ".join(line.why), score])
    return section


def _functions(functions: tuple[FunctionFigures, ...], count: int) -> Section:
    """``count``: the graded students, each function's figures out of them all."""
    section = Section("By function", headers=["part", "function", "mean points", "full marks", "not started"])
    for figures in functions:
        section.rows.append(
            [
                figures.part,
                Code(figures.function),
                f"{figures.mean:.1f} / {figures.worth:g}" + (" bonus" if figures.bonus else ""),
                f"{100 * figures.full_marks / count:.0f}%",
                f"{100 * figures.not_started / count:.0f}%",
            ]
        )
    return section


def _item_analysis(summary: ClassSummary) -> Section:
    section = Section(
        "Hardest tests first",
        lines=[
            "Pass rate among the students who started the function; the most common wrong answer is what failing "
            "functions returned; fix first names the student's own failing function that a failing one calls."
        ],
        headers=["part", "function", "test", "points", "pass rate", "most common wrong answer", "fix first"],
    )
    for test in summary.hardest:
        _, bracket, case = test.test.partition("[")
        label = f"{test.doc} [{_readable(case.rstrip(']'))}]" if bracket else test.doc  # a parametrized test's case
        common, cause = test.wrong_answer, test.fix_first
        answer: Cell = (Code(_clip(common[0])), f" ({common[1]}×)") if common else ""
        first: Cell = (Code(cause[0]), f" ({cause[1]}×)") if cause else ""
        rate = f"{100 * test.passed / test.tried:.0f}%"
        section.rows.append([test.part, Code(test.function), label, f"{test.points:g}", rate, answer, first])
    if summary.passed_by_everyone:
        section.lines.append(f"{summary.passed_by_everyone} test(s) that every graded student passed are left out.")
    if summary.did_not_load:
        section.lines.append(
            f"{summary.did_not_load} hand-in(s) with a file that does not load are left out of these tests: each "
            "is one line of Needs help first, with the file."
        )
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


def _stopped(stopped: tuple[StoppedHandIn, ...]) -> Section:
    section = Section("Timeouts and crashes", headers=["student", "timed out", "crashed the worker", "first one"])
    for each in stopped:
        section.rows.append(
            [_who(each.student, each.name), str(each.timed_out), str(each.crashed), _clip(each.first, 90)]
        )
    return section


def _slowest(slowest: tuple[SlowHandIn, ...]) -> Section:
    section = Section("Slowest submissions", headers=["student", "seconds in their code", "score"])
    for each in slowest[:SLOWEST_SHOWN]:
        section.rows.append(
            [_who(each.student, each.name), f"{each.seconds:.1f}", f"{each.score:g} / {each.max_score:g}"]
        )
    return section


def _identical(summary: ClassSummary) -> Section:
    section = Section(
        "Identical code",
        lines=["Same program once comments, docstrings and layout are set aside: worth a look, not proof."],
        headers=["students", "score"],
    )
    for group in summary.identical:
        section.rows.append([", ".join(map(_who, group.students, group.names)), f"{group.score:g}"])
    if not section.rows:
        section.lines = []
    return section


def _similar(summary: ClassSummary) -> Section:
    section = Section(
        "Similar code",
        lines=[
            f"Pairs with a part in which they share at least {summary.similar_threshold:.0%} of the smaller one's "
            "fingerprints, once every name the student chose is set aside and functions are put in one order "
            "(code identical to the other's is in the section above; the stubs count for no one): worth a look, "
            f"not proof. A part with fewer than {summary.similar_smallest} fingerprints of its own (about one "
            "short function) is compared with no one: too little to tell a copy from the one way to write it."
        ],
        headers=["students", "parts alike (shared)", "scores"],
    )
    pairs = summary.similar
    for pair in pairs[:SIMILAR_SHOWN]:
        parts = ", ".join(f"{part} ({shared:.0%})" for part, shared in pair.parts)
        section.rows.append(
            [
                f"{_who(pair.first, pair.first_name)}, {_who(pair.second, pair.second_name)}",
                parts,
                f"{pair.first_score:g}, {pair.second_score:g}",
            ]
        )
    if len(pairs) > SIMILAR_SHOWN:
        section.lines.append(f"The {SIMILAR_SHOWN} most alike of {len(pairs)} pairs are shown.")
    if summary.not_compared:
        section.lines.append(f"{summary.not_compared} graded hand-in(s) have no part that big: compared with no one.")
    if not section.rows:
        section.lines = section.lines[1:] if summary.not_compared else []
    return section


def _who(student: str, name: str) -> str:
    """A student as the summary's lists name them: the id, and the name where there is one."""
    return f"{student} ({name})" if name else student


IMPORTS_SAID = (
    "Graded code that imports beyond the standard library, regex and the hand-in's own modules: a library may "
    "be doing the exercise. Worth a look, not proof."
)


BUILT_SAID = (
    "Graded code that would run code built at run time (exec, eval or compile of built text, marshal, code "
    "objects, ctypes): the grader refuses it, so a copy hidden that way earned nothing and showed nothing. "
    "Worth a look."
)


def _imports(flagged: tuple[Flagged, ...]) -> Section:
    return _listed(flagged, "Imports to look at", IMPORTS_SAID, "imports")


def _built(flagged: tuple[Flagged, ...]) -> Section:
    return _listed(flagged, "Code built at run time", BUILT_SAID, "builds code with")


def _listed(flagged: tuple[Flagged, ...], title: str, said: str, header: str) -> Section:
    """A section of the students ``flagged``, with what each was flagged for under ``header``."""
    section = Section(title, lines=[said], headers=["student", header, "score"])
    for each in flagged:
        section.rows.append([_who(each.student, each.name), Code(", ".join(each.what)), f"{each.score:g}"])
    if not section.rows:
        section.lines = []
    return section


def _students(students: tuple[StudentLine, ...]) -> Section:
    """Every student, each linked to the feedback page they were given."""
    section = Section("Students", headers=["student", "name", "score", "status", "feedback"])
    for line in students:
        score = f"{line.percent:.1f}%" if line.percent is not None else ""
        page = (Link("page", line.feedback),) if line.feedback is not None else ""
        section.rows.append([line.student, line.name, score, line.status, page])
    return section


def _over_full(over_full: tuple[OverFull, ...]) -> Section:
    """Totals no hand-in can earn from the tests: an adjustment or a total set by hand to check."""
    section = Section("Totals to check", headers=["student", "total", "most the tests give"])
    if over_full:
        section.lines.append(
            f"{len(over_full)} total(s) above full marks plus every bonus point: check their rows in adjustments.csv."
        )
    for line in over_full:
        section.rows.append([line.student, f"{line.score:g}", f"{line.most:g}"])
    return section


def _not_graded(not_graded: tuple[NotGraded, ...]) -> Section:
    section = Section("Not graded, and roster mismatches", headers=["student", "status", "why"])
    for line in not_graded:
        section.rows.append([_who(line.student, line.name), line.status, line.why])
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
