"""Feedback as a standalone HTML page."""

from __future__ import annotations

from html import escape
from itertools import groupby

from autograder.reports import code_view, feedback
from autograder.reports.code_view import Sources
from autograder.reports.text import score_text
from autograder.scoring import feedback_policy
from autograder.scoring.grade_result import GradeResult

# Every colour of text reaches WCAG's AA contrast (4.5:1) on the page's white and on the code's grey: the
# kit's pages are checked with axe-core in CI. Long lines (a hint, a call, a student's code) wrap at the
# page's width, so nothing needs scrolling sideways, even on a phone.
STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
table { border-collapse: collapse; } td, th { padding: .3rem .8rem; border-bottom: 1px solid #ddd; }
.passed { color: #17803d; } .failed, .error { color: #b42318; } .timed-out { color: #7a2e9e; }
.not-started { color: #666; } .grader-error { color: #a15c00; font-weight: bold; }
pre { background: #f6f6f6; padding: .6rem; white-space: pre-wrap; overflow-wrap: anywhere; }
.beside { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; align-items: start; }
.beside > div { min-width: 0; }
@media (max-width: 50rem) { .beside { grid-template-columns: 1fr; } }
"""


def page(title: str, body: str, *, style: str = "") -> str:
    """A whole HTML page: every page the kit writes (feedback, class summary) has this one skeleton.

    ``title`` is text (escaped here); ``body`` is HTML the caller built, its own text escaped; ``style``
    is CSS the body needs beyond the kit's own.
    """
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f"<style>{STYLE}{style}</style></head><body><main>{body}</main></body></html>\n"
    )


def render(document: GradeResult, sources: Sources | None = None) -> str:
    """The feedback page; with ``sources`` (the student's code), each function that lost points is shown
    beside its failing tests."""
    title = f"Feedback for {document.submission or 'your submission'}"
    rows = "".join(
        f"<tr><td>{escape(row.part)}</td>"
        f"<td>{f'<code>{escape(row.function)}</code>' if row.function else '(every function)'}</td>"
        f'<td class="{row.status.value.replace(" ", "-")}">{escape(row.status.value)}</td>'
        f"<td>{escape(row.points)}</td></tr>"
        for row in feedback.rows(document)
    )
    idle = feedback.not_started_line(document)
    failing = _beside_code(feedback.entries(document), sources) + (f"<p>{escape(idle)}.</p>" if idle else "")
    adjusted = "".join(
        f"<tr><td>{escape(what)}</td><td>{escape(points)}</td><td>{escape(comment)}</td></tr>"
        for what, points, comment in feedback.adjustment_rows(document)
    )
    passing = "".join(
        f"<li>{escape(entry.title)}{f': <code>{escape(entry.text)}</code>' if entry.text else ''}</li>"
        for entry in (feedback.passing_entries(document) if feedback_policy.shows_passing(document) else [])
    )
    notes = f"<h2>Notes</h2><pre>{escape(document.output)}</pre>" if document.output else ""
    late = feedback.late_line(document)
    return page(
        title,
        (
            f"<h1>{escape(title)}</h1><p><strong>{escape(score_text(document))}</strong></p>"
            f"<table><tr><th>part</th><th>function</th><th>status</th><th>points</th></tr>{rows}</table>"
            f"{'<h2>What to fix</h2>' + failing if failing else ''}"
            + (
                "<h2>Adjustments by your instructor</h2><table><tr><th>for</th><th>points</th><th>comment</th></tr>"
                f"{adjusted}</table>"
                if adjusted
                else ""
            )
            + (f"<h2>Late</h2><p>{escape(late)}</p>" if late else "")
            + (f"<h2>What passed</h2><ul>{passing}</ul>" if passing else "")
            + notes
        ),
        style=code_view.style() if sources is not None else "",
    )


def _beside_code(entries: list[feedback.Entry], sources: Sources | None) -> str:
    """Each function's failing tests, its code beside them when it can be found."""
    html = []
    # Only the modules that lost points are read as syntax (and a whole notebook, module "").
    losing = {"", *(entry.module for entry in entries)}
    shown = [(module, source) for module, source in sources or () if module in losing]
    defined = code_view.functions(shown) if shown else {}
    for (module, function), group in groupby(entries, key=lambda entry: (entry.module, entry.function)):
        tests = "".join(f"<h3>{escape(entry.title)}</h3><pre>{escape(entry.text)}</pre>" for entry in group)
        code = code_view.function_source(defined, module, function) if function else None
        if code is None:
            html.append(tests)
        else:
            html.append(
                f'<div class="beside"><div>{tests}</div><div><h3>Your <code>{escape(function)}</code></h3>'
                f"{code_view.highlighted(code)}</div></div>"
            )
    return "".join(html)
