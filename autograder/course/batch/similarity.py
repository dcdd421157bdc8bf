"""A fingerprint of what a student wrote, blind to comments, docstrings and layout.

Two submissions with the same fingerprint hold the same program; the class
summary lists them for the instructor to look at (sharing a starting point
is not proof of copying, and the untouched stubs are left out).
"""

from __future__ import annotations

import ast
import hashlib

from autograder.engine.parts import MODULES
from autograder.engine.submission import LoadedSubmission


def code_hash(loaded: LoadedSubmission) -> str:
    if loaded.kind == "modules":
        notebooks = dict(loaded.module_cells)
        sources = []
        for module in MODULES:
            if module in notebooks:
                sources += [cell.source for cell in notebooks[module]]
            elif f"{module}.py" in loaded.files:
                sources.append(loaded.files[f"{module}.py"].decode("utf-8", "replace"))
    else:
        sources = [cell.source for cell in loaded.cells]
    digest = hashlib.sha256()
    for source in sources:
        digest.update(_normalised(source).encode("utf-8") + b"\0")
    return digest.hexdigest()[:16]


def _normalised(source: str) -> str:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return " ".join(source.split())
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree, annotate_fields=False)
