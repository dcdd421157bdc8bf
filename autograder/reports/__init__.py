"""One renderer per format, each ``render(document) -> str`` over the same results document."""

from __future__ import annotations

from collections.abc import Callable

from autograder.engine.document import ResultsDocument
from autograder.reports import classroom, html, json_report, junit, markdown, text

Renderer = Callable[[ResultsDocument], str]

RENDERERS: dict[str, Renderer] = {
    "text": text.render,
    "json": json_report.render,
    "markdown": markdown.render,
    "html": html.render,
    "junit": junit.render,
    "classroom": classroom.render,  # GitHub Classroom's grading reporter
}
