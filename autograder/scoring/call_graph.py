"""Which of a student's graded functions call which: so feedback can name the one to fix first.

A student's ``train_bpe`` calls their own ``merge_pair``; when ``merge_pair``
is wrong, ``train_bpe`` fails too, and its hints would blame the wrong code.
Scores stay as they are (the caller really does not work), but the report
says which to fix first, as check50 does with its dependencies. Read from
the hand-in's source in the trusted process (never run): the last ``def`` of
a name is the one that counts, as when the module runs.

>>> source = "def merge_pair(t, p):\\n    return t\\n\\ndef train_bpe(x, n):\\n    return merge_pair(x, n)\\n"
>>> calls_in(source, {"merge_pair", "train_bpe"})
{'merge_pair': set(), 'train_bpe': {'merge_pair'}}
"""

from __future__ import annotations

import ast

from autograder.hand_in import student_syntax
from autograder.hand_in.loaded import HandInKind, LoadedHandIn
from autograder.parts import PARTS, SCRIPT_MODULES

Key = tuple[str, str]  # (module, function)


def calls_in(source: str, functions: set[str]) -> dict[str, set[str]]:
    """For each of ``functions`` defined in ``source``, the others of ``functions`` it calls (directly)."""
    tree = student_syntax.parse(source)
    if tree is None:
        return {}
    found: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in functions:
            called = {
                inner.func.id
                for inner in ast.walk(node)
                if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name)
            }
            found[node.name] = (called & functions) - {node.name}
    return found


def student_calls(loaded: LoadedHandIn, modules: set[str] | None = None) -> dict[Key, set[str]]:
    """Per graded function of the hand-in (of its parts ``modules``, or all), the graded functions of its
    own part it calls."""
    graph: dict[Key, set[str]] = {}
    for part in PARTS:
        if modules is not None and part.module not in modules:
            continue
        source = _source_of(loaded, part.module)
        if source:
            for function, called in calls_in(source, set(part.functions)).items():
                graph[(part.module, function)] = called
    return graph


def _source_of(loaded: LoadedHandIn, module: str) -> str:
    if loaded.kind is HandInKind.SCRIPT:  # one notebook or file holds the parts whose names do not clash
        return "\n".join(cell.source for cell in loaded.cells) if module in SCRIPT_MODULES else ""
    cells = dict(loaded.module_cells).get(module)
    if cells is not None:
        return "\n".join(cell.source for cell in cells)
    content = loaded.files.get(f"{module}.py")
    return content.decode("utf-8", "replace") if content else ""


def roots(loaded: LoadedHandIn, failing: set[Key]) -> dict[Key, list[str]]:
    """For each failing function, the failing functions of its part it calls (to fix first), if any.

    Only a part with two failing functions can have one to fix first, so only those parts' sources are
    read: a hand-in that passes (most of a class) costs no parsing.
    """
    found: dict[Key, list[str]] = {}
    modules = [module for module, _ in failing]
    graph = student_calls(loaded, {module for module in modules if modules.count(module) > 1})
    for (module, function), called in graph.items():
        if (module, function) in failing:
            first = sorted(name for name in called if (module, name) in failing)
            if first:
                found[(module, function)] = first
    return found
