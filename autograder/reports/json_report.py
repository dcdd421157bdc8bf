"""The results document itself, as Gradescope reads it."""

from __future__ import annotations

import json

from autograder.engine.document import ResultsDocument


def render(document: ResultsDocument) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
