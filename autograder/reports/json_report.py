"""The results document itself, as Gradescope reads it."""

from __future__ import annotations

import json
from typing import Any


def render(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
