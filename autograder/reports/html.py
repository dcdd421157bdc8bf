"""Feedback as a standalone HTML page."""

from __future__ import annotations

from html import escape

from autograder.engine.document import ResultsDocument
from autograder.reports import feedback
from autograder.reports.text import score_text

STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; color: #222; }
table { border-collapse: collapse; } td, th { padding: .3rem .8rem; border-bottom: 1px solid #ddd; }
.passed { color: #17803d; } .failed, .error { color: #b42318; } .timed-out { color: #7a2e9e; }
.not-started { color: #777; } .grader-error { color: #a15c00; font-weight: bold; }
pre { background: #f6f6f6; padding: .6rem; overflow-x: auto; }
"""


def page(title: str, body: str) -> str:
    """A whole HTML page: every page the kit writes (feedback, class summary) has this one skeleton.

    ``title`` is text (escaped here); ``body`` is HTML the caller built, its own text escaped.
    """
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f"<style>{STYLE}</style></head><body>{body}</body></html>\n"
    )


def render(document: ResultsDocument) -> str:
    extra = document["extra_data"]
    title = f"Feedback for {extra.get('submission', 'your submission')}"
    rows = "".join(
        f"<tr><td>{escape(row.part)}</td>"
        f"<td>{f'<code>{escape(row.function)}</code>' if row.function else '(every function)'}</td>"
        f'<td class="{row.status.value.replace(" ", "-")}">{escape(row.status.value)}</td>'
        f"<td>{escape(row.points)}</td></tr>"
        for row in feedback.rows(document)
    )
    idle = feedback.not_started_line(document)
    failing = "".join(
        f"<h3>{escape(entry.title)}</h3><pre>{escape(entry.text)}</pre>" for entry in feedback.entries(document)
    ) + (f"<p>{escape(idle)}.</p>" if idle else "")
    notes = f"<h2>Notes</h2><pre>{escape(document['output'])}</pre>" if document.get("output") else ""
    return page(
        title,
        (
            f"<h1>{escape(title)}</h1><p><strong>{escape(score_text(document))}</strong></p>"
            f"<table><tr><th>part</th><th>function</th><th>status</th><th>points</th></tr>{rows}</table>"
            f"{'<h2>What to fix</h2>' + failing if failing else ''}{notes}"
        ),
    )
