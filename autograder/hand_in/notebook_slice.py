"""What of a notebook its graded functions need: the definitions, not the demonstrations.

An exercise notebook mixes the functions a student writes with cells that
try them out: a training run of 2,000 merges, a plot, a table of examples.
Grading needs only the first kind, and running the second at every start of
a worker cost seconds per grading (more on each restart after a timeout).
So a notebook is cut, statement by statement at the top level of its cells,
to what the graded functions can reach:

- every ``def`` and ``class`` runs (defining is cheap), and every star import;
- an assignment or an import runs when it binds a name that a needed function
  uses, or that another needed statement uses (``PATTERN = re.compile(...)``),
  and so on to a fixed point; needed functions are the graded ones and those
  they use, and a function uses the names it reads but does not bind itself
  (a parameter called ``merges`` is not the exploration's ``merges``);
- a statement that may change a needed name runs too: an item or attribute
  assigned on it (``TABLE["x"] = 1``), or a method called on it
  (``PATTERNS.update(...)``), so a notebook grades as it runs top to bottom;
  a function called on a module (``regex.findall(...)``, a name that only
  ``import`` binds) reads it and changes nothing;
- a compound statement (``if``, ``try``, ``with``, ``for``) runs when it
  defines something, or binds a needed name;
- everything else is left out: calls made for their output, prints, plots,
  asserts.

Dropped lines become blank lines, so every line keeps its number in
tracebacks. A cell that does not parse is kept whole: its SyntaxError is
reported as before.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterator
from dataclasses import dataclass

from autograder.hand_in import student_syntax


@dataclass
class _Statement:
    cell: int
    node: ast.stmt
    first: int  # first line, decorators included (1-based, in its cell)
    last: int
    binds: frozenset[str]
    uses: frozenset[str]
    called_on: frozenset[str]  # the names a method is called on: changed, unless they are modules
    always: bool  # an import or a definition: run whatever is needed


def needed_cells(sources: list[str], wanted: set[str]) -> list[str]:
    """Each cell's source with the top-level statements the ``wanted`` functions cannot reach blanked out."""
    return sliced(sources, wanted)[0]


def sliced(sources: list[str], wanted: set[str]) -> tuple[list[str], set[str]]:
    """``needed_cells``, and the names the kept statements read that no statement of ``sources`` binds and
    Python does not provide (what a notebook's run would take from cells left out of ``sources``)."""
    statements: list[_Statement] = []
    parsed: dict[int, bool] = {}
    for index, source in enumerate(sources):
        tree = student_syntax.parse(source)
        if tree is None:
            parsed[index] = False
            continue
        parsed[index] = True
        statements += [_describe(index, node) for node in tree.body]
    modules = {name for statement in statements if isinstance(statement.node, ast.Import) for name in statement.binds}
    modules -= {  # a module's name bound to something else somewhere: not only a module
        inner.id
        for statement in statements
        if not isinstance(statement.node, ast.Import)
        for inner in ast.walk(statement.node)
        if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store | ast.Del)
    }
    for statement in statements:
        statement.binds |= statement.called_on - modules
    needed = set(wanted)
    kept = {number for number, statement in enumerate(statements) if statement.always}
    changed = True
    while changed:  # to a fixed point: what a needed statement uses is needed too
        changed = False
        for number, statement in enumerate(statements):
            if statement.binds & needed:
                if number not in kept:
                    kept.add(number)
                    changed = True
                if not statement.uses <= needed:
                    needed |= statement.uses
                    changed = True
    bound = {name for statement in statements for name in statement.binds}
    read = {name for statement in statements if statement.binds & needed for name in statement.uses}
    unbound = read - bound - set(dir(builtins)) - {"__name__", "__file__"}
    cut = [_cut(source, index, statements, kept) if parsed[index] else source for index, source in enumerate(sources)]
    return cut, unbound


def defined_names(source: str) -> set[str]:
    """The names a cell's top-level statements bind; none when it does not parse."""
    tree = student_syntax.parse(source)
    return set() if tree is None else {name for node in tree.body for name in _binds(node)}


def _describe(cell: int, node: ast.stmt) -> _Statement:
    decorators = getattr(node, "decorator_list", [])
    first = min([node.lineno, *(decorator.lineno for decorator in decorators)])
    last = node.end_lineno or node.lineno
    # Definitions always run (a test may call any of them); an import only when something kept reads its
    # name, so an exploration's matplotlib or tokenizers is never loaded to grade. A star import binds
    # names no one can see, so it always runs.
    definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    always = isinstance(node, definition) or (isinstance(node, ast.ImportFrom) and node.names[0].name == "*")
    if isinstance(node, ast.If | ast.Try | ast.With | ast.For | ast.While | ast.AsyncWith | ast.AsyncFor):
        always = any(isinstance(inner, definition) for inner in ast.walk(node))
    return _Statement(
        cell, node, first, last, frozenset(_binds(node)), frozenset(_uses(node)), frozenset(_called_on(node)), always
    )


def _binds(node: ast.stmt) -> Iterator[str]:
    """The names a top-level statement binds (an assignment's targets, a definition's name, an import's)."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        yield node.name
        return
    if isinstance(node, ast.Import | ast.ImportFrom):
        for alias in node.names:
            yield (alias.asname or alias.name).split(".")[0]
        return
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store | ast.Del):
            yield inner.id
        elif isinstance(inner, ast.Subscript | ast.Attribute) and isinstance(inner.ctx, ast.Store | ast.Del):
            yield from _root(inner.value)  # CACHE["x"] = ... changes CACHE
        elif isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield inner.name
        elif isinstance(inner, ast.alias):
            yield (inner.asname or inner.name).split(".")[0]


def _called_on(node: ast.stmt) -> Iterator[str]:
    """The names a top-level statement calls a method on: ``PATTERNS.update(...)`` may change PATTERNS."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Import | ast.ImportFrom):
        return
    for inner in ast.walk(node):
        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute):
            yield from _root(inner.func.value)


def _root(node: ast.expr) -> Iterator[str]:
    """The name an item or attribute chain starts from (``TABLE`` of ``TABLE["a"].b``), if it is a name."""
    while isinstance(node, ast.Subscript | ast.Attribute):
        node = node.value
    if isinstance(node, ast.Name):
        yield node.id


def _uses(node: ast.stmt) -> Iterator[str]:
    """The names a statement reads; for a function, only those it does not bind itself (its globals)."""
    loads = {inner.id for inner in ast.walk(node) if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Load)}
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        # A parameter or a local named `merges` is not the exploration's `merges`: counting it would keep
        # the cell that trains 1,000 merges in every grading of the notebook.
        local = {inner.arg for inner in ast.walk(node) if isinstance(inner, ast.arg)}
        local |= {
            inner.id for inner in ast.walk(node) if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store)
        }
        declared = {
            name for inner in ast.walk(node) if isinstance(inner, ast.Global | ast.Nonlocal) for name in inner.names
        }
        outside = [*node.decorator_list, *node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]
        read_outside = {
            inner.id for part in outside for inner in ast.walk(part) if isinstance(inner, ast.Name)
        }  # decorators and defaults are read where the function is defined
        loads = (loads - (local - declared)) | declared | read_outside
    yield from loads


def _cut(source: str, cell: int, statements: list[_Statement], kept: set[int]) -> str:
    lines = source.split("\n")
    keep = [False] * len(lines)
    for number, statement in enumerate(statements):
        if statement.cell == cell and number in kept:
            for line in range(statement.first - 1, min(statement.last, len(lines))):
                keep[line] = True
    return "\n".join(line if keep[number] else "" for number, line in enumerate(lines))
