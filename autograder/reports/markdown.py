"""Feedback as Markdown: what a student reads in an LMS or a README."""

from __future__ import annotations

from autograder.engine.document import ResultsDocument
from autograder.engine.scoring import function_totals, passed
from autograder.engine.student_text import fenced, markdown_text
from autograder.reports.text import points_text, score_text


def render(document: ResultsDocument) -> str:
    extra = document["extra_data"]
    lines = [
        f"# Feedback for {markdown_text(extra.get('submission', 'your submission'))}",
        "",
        f"**{score_text(document)}**",
        "",
        "| part | function | status | points |",
        "| --- | --- | --- | --- |",
    ]
    rows = function_totals(document)
    for row in rows:
        lines.append(f"| {row.part} | `{row.function}` | {row.status.value} | {points_text(row)} |")
    failing = [test for test in document["tests"] if not passed(test)]
    if failing:
        lines += ["", "## What to fix", ""]
    for test in failing:
        data = test["extra_data"]
        lines += [f"### `{data['function']}`: {markdown_text(data['doc'])}", "", fenced(test["output"]), ""]
    if document.get("output"):
        lines += ["", "## Notes", "", fenced(document["output"])]
    return "\n".join(lines) + "\n"
