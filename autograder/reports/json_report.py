"""The result as Gradescope reads it, results.json: the one way one is written."""

from __future__ import annotations

import json
from typing import Any

from autograder.scoring.grade_result import GradeResult


def render(result: GradeResult) -> str:
    return text(result.to_gradescope())


def text(document: dict[str, Any]) -> str:
    """``document`` (a result's JSON, or Gradescope's upload shape of it) as a file's text."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
