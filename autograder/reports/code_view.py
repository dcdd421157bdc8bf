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

from autograder.hand_in import student_syntax

Sources = list[tuple[str, str]]  # (module, source) in the order handed in; module "" for a whole notebook


def functions(sources: Sources) -> dict[tuple[str, str], str]:
    """Each top-level function of ``sources`` by (module, name): the text of its last definition, decorators
    included, as Python keeps the last ``def`` of a name and that is the one the tests ran; a stub is left
    out (a release's folder handed in whole holds a function done in one work folder and its untouched stub
    in the other). Each source is read as syntax once, however many of its functions a page shows."""
    found: dict[tuple[str, str], str] = {}
    for where, source in sources:
        tree = student_syntax.parse(source)
        if tree is None:
            continue
        lines = source.splitlines()
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not _stub(node):
                start = min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])
                found[(where, node.name)] = "\n".join(lines[start - 1 : node.end_lineno])
    return found


def _stub(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A function whose body is, after its docstring, only ``raise NotImplementedError``: a stub's."""
    body = function.body[1:] if ast.get_docstring(function, clean=False) is not None else function.body
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or body[0].exc is None:
        return False
    raised = body[0].exc.func if isinstance(body[0].exc, ast.Call) else body[0].exc
    return isinstance(raised, ast.Name) and raised.id == "NotImplementedError"


def function_source(defined: dict[tuple[str, str], str], module: str, function: str) -> str | None:
    """``function``'s text in ``module``, or in a whole notebook (module "") for a notebook hand-in."""
    return defined.get((module, function), defined.get(("", function)))


def highlighted(source: str) -> str:
    """``source`` as HTML: Pygments escapes it, so what a student wrote stays text."""
    return highlight(source, PythonLexer(), _formatter())


@cache
def style() -> str:
    """The CSS the highlighted code needs, once per page (made once: a class's pages all carry it)."""
    return str(_formatter().get_style_defs(".highlight"))


@cache
def _formatter() -> HtmlFormatter[str]:
    # Xcode's colours: every one reaches WCAG's AA contrast on the page (Pygments' default has a purple and
    # a grey below it).
    return HtmlFormatter(cssclass="highlight", style="xcode")
