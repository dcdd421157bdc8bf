"""Feedback as Markdown: what a student reads in an LMS or a README."""

from __future__ import annotations

from autograder.reports import feedback
from autograder.reports.text import score_text
from autograder.scoring import feedback_policy
from autograder.scoring.grade_result import GradeResult
from autograder.scoring.student_text import fenced, markdown_code, markdown_text


def render(document: GradeResult) -> str:
    lines = [
        f"# Feedback for {markdown_text(document.submission or 'your submission')}",
        "",
        f"**{score_text(document)}**",
        "",
        "| part | function | status | points |",
        "| --- | --- | --- | --- |",
    ]
    for row in feedback.rows(document):
        function = f"`{row.function}`" if row.function else "(every function)"
        lines.append(f"| {row.part} | {function} | {row.status.value} | {row.points} |")
    found = feedback.entries(document)
    idle = feedback.not_started_line(document)
    if found or idle:
        lines += ["", "## What to fix", ""]
    for entry in found:
        lines += [f"### {markdown_text(entry.title)}", "", fenced(entry.text), ""]
    if idle:
        lines += [idle + ".", ""]
    adjusted = feedback.adjustment_rows(document)
    if adjusted:
        lines += ["", "## Adjustments by your instructor", "", "| for | points | comment |", "| --- | --- | --- |"]
        lines += [
            f"| {markdown_text(what)} | {points} | {markdown_text(comment)} |" for what, points, comment in adjusted
        ]
        lines.append("")
    late = feedback.late_line(document)
    if late:
        lines += ["", "## Late", "", markdown_text(late), ""]
    if feedback_policy.shows_passing(document):
        lines += ["", "## What passed", ""]
        for entry in feedback.passing_entries(document):
            lines += [f"- {markdown_text(entry.title)}" + (f": {markdown_code(entry.text)}" if entry.text else "")]
        lines.append("")
    if document.output:
        lines += ["", "## Notes", "", fenced(document.output)]
    return "\n".join(lines) + "\n"
