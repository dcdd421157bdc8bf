"""The results document itself, as Gradescope reads it: the one way a results.json is written."""

from __future__ import annotations

import json
from collections.abc import Mapping


def render(document: Mapping[str, object]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
