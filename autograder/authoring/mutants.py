"""Single-point mutants of the reference solutions, to measure how sharp the hidden suite is.

A mutant changes one thing inside one solution region (between ``### BEGIN
SOLUTION`` and ``### END SOLUTION``): a comparison, a constant, an arithmetic
or boolean operator, a ``break``, a condition. A suite that grades a mutant
below full marks has killed it. A survivor is either a behaviour the tests
miss, or an equivalent mutant (it behaves as the contract says on every valid
input); the equivalent ones are listed, each with its reason, in
``tests/kit/support/equivalent_mutants.txt``, so that a new survivor stands out.

>>> module = "def f(x):\\n    ### BEGIN SOLUTION\\n    return x < 2\\n    ### END SOLUTION\\n"
>>> for mutant in mutants_of(module):
...     print(mutant.label)
f line 2, column 11: x < 2 -> x <= 2 in `return x < 2`
f line 2, column 15: 2 -> 3 in `return x < 2`
f line 2, column 15: 2 -> 1 in `return x < 2`
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator
from dataclasses import dataclass

BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"

SWAPPED_COMPARISONS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}
SWAPPED_OPERATORS: dict[type[ast.operator], type[ast.operator]] = {ast.Add: ast.Sub, ast.Sub: ast.Add}


@dataclass(frozen=True)
class Mutant:
    label: str  # "merge_pair: i + 1 -> i - 1": the function, what was, what is
    source: str  # the whole module, mutated


def solution_lines(source: str) -> set[int]:
    """The line numbers (1-based) inside the module's solution regions."""
    inside, lines = False, set()
    for number, line in enumerate(source.splitlines(), start=1):
        if line.strip() == BEGIN:
            inside = True
        elif line.strip() == END:
            inside = False
        elif inside:
            lines.add(number)
    return lines


def mutants_of(source: str) -> list[Mutant]:
    """Every single-point mutant of the solution regions of ``source``, in order."""
    tree = ast.parse(source)
    lines = solution_lines(source)
    text = source.splitlines()
    found: list[Mutant] = []
    for path, replacement in _mutations(tree, lines):
        mutated = copy.deepcopy(tree)
        function, original, line, column, start = _apply(mutated, path, replacement)
        where = text[line - 1].strip()
        # Where in the function, counted from its def (an edit elsewhere in the file moves nothing), and
        # the column: one line can hold two places alike.
        place = f"line {line - start}, column {column}"
        found.append(
            Mutant(f"{function} {place}: {original} -> {_describe(replacement)} in `{where}`", ast.unparse(mutated))
        )
    return found


def _mutations(tree: ast.Module, lines: set[int]) -> Iterator[tuple[tuple[int, ...], ast.AST]]:
    """(where, the node to put there) for each mutation: ``where`` is a path of child indexes from the root."""
    for path, node in _walk(tree, ()):
        if getattr(node, "lineno", None) not in lines:
            continue
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in SWAPPED_COMPARISONS:
            compared = copy.deepcopy(node)
            compared.ops = [SWAPPED_COMPARISONS[type(node.ops[0])]()]
            yield path, compared
        if isinstance(node, ast.BinOp) and type(node.op) in SWAPPED_OPERATORS:
            arithmetic = copy.deepcopy(node)
            arithmetic.op = SWAPPED_OPERATORS[type(node.op)]()
            yield path, arithmetic
        if isinstance(node, ast.BoolOp):
            logic = copy.deepcopy(node)
            logic.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
            yield path, logic
        if isinstance(node, ast.Constant) and type(node.value) is int:
            yield path, ast.Constant(node.value + 1)
            if node.value != 0:
                yield path, ast.Constant(node.value - 1)
        if isinstance(node, ast.Break):
            yield path, ast.Continue()
        if isinstance(node, ast.If | ast.While):
            negated = copy.deepcopy(node)
            negated.test = ast.UnaryOp(ast.Not(), negated.test)
            yield path, negated


def _walk(node: ast.AST, path: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], ast.AST]]:
    yield path, node
    for index, child in enumerate(ast.iter_child_nodes(node)):
        yield from _walk(child, (*path, index))


def _apply(tree: ast.Module, path: tuple[int, ...], replacement: ast.AST) -> tuple[str, str, int, int, int]:
    """Put ``replacement`` at ``path``; return the enclosing function's name, the replaced code, its line and
    column, and the line of the function's def."""
    parent: ast.AST = tree
    function, start = "", 0
    for index in path[:-1]:
        parent = list(ast.iter_child_nodes(parent))[index]
        if isinstance(parent, ast.FunctionDef):
            function, start = parent.name, parent.lineno
    target = list(ast.iter_child_nodes(parent))[path[-1]]
    original, line = _describe(target), int(getattr(target, "lineno", 0))
    column = int(getattr(target, "col_offset", 0))
    for field, value in ast.iter_fields(parent):
        if value is target:
            setattr(parent, field, replacement)
            break
        if isinstance(value, list) and any(item is target for item in value):
            value[[id(item) for item in value].index(id(target))] = replacement
            break
    ast.fix_missing_locations(tree)
    return function, original, line, column, start


def _describe(node: ast.AST) -> str:
    if isinstance(node, ast.If | ast.While):
        return f"{'if' if isinstance(node, ast.If) else 'while'} {ast.unparse(node.test)}"
    return ast.unparse(node)
