"""A student's own function, found in what they handed in and shown highlighted beside its failing tests.

Pygments does the highlighting (rich brings it); the page carries its colours
once, as classes, so a page with many functions stays small.
"""

from __future__ import annotations

import ast
from functools import cache

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

from autograder.engine import student_syntax

Sources = list[tuple[str, str]]  # (module, source) in the order handed in; module "" for a whole notebook


def function_source(sources: Sources, module: str, function: str) -> str | None:
    """The last top-level definition of ``function`` in ``module`` (any module for a notebook), decorators
    included: Python keeps the last ``def`` of a name, so that is the one the tests ran."""
    found: str | None = None
    for where, source in sources:
        if where not in (module, ""):
            continue
        tree = student_syntax.parse(source)
        if tree is None:
            continue
        lines = source.splitlines()
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == function:
                start = min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])
                found = "\n".join(lines[start - 1 : node.end_lineno])
    return found


def highlighted(source: str) -> str:
    """``source`` as HTML: Pygments escapes it, so what a student wrote stays text."""
    return highlight(source, PythonLexer(), _formatter())


def style() -> str:
    """The CSS the highlighted code needs, once per page."""
    return str(_formatter().get_style_defs(".highlight"))


@cache
def _formatter() -> HtmlFormatter[str]:
    return HtmlFormatter(cssclass="highlight")
