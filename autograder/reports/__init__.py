"""One renderer per format, each ``render(result) -> str`` over the same grade result.

Each is imported when it is asked for: ``grade`` prints its first line before any of them (or rich) loads.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from autograder.scoring.grade_result import GradeResult

Renderer = Callable[["GradeResult"], str]

# Format name -> the module of this package that renders it.
FORMATS: dict[str, str] = {
    "text": "text",
    "json": "json_report",
    "markdown": "markdown",
    "html": "html",
    "junit": "junit",
    "classroom": "classroom",  # GitHub Classroom's grading reporter
}


def renderer(name: str) -> Renderer:
    render: Renderer = importlib.import_module(f"autograder.reports.{FORMATS[name]}").render
    return render
