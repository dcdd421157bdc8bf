"""Which parts of a hand-in the plain-Python policy refuses, and why: one line per construct.

A part's code is its module's file (or its notebook's cells, as the worker runs them) and every file of
the hand-in's own that it imports, followed to the end. A construct outside the policy in any of them
costs that part: the worker never imports it, and each of its tests scores 0 with the refusal's lines. A
file imported by several parts costs each of them; the other parts grade as usual. A hand-in of one
notebook or script runs whole for every part, so a refusal in it costs every part.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterable

from autograder.hand_in import student_syntax
from autograder.hand_in.cells import Cell
from autograder.hand_in.policy import POLICY_PAGE, Refusal
from autograder.hand_in.policy_check import Checked, Source, check_file, check_source
from autograder.parts import MODULES, SCRIPT_MODULES, part_of

# The kit's own tests of the cage set this to "1": they attack the cage, the boundary, with code the policy
# would refuse before it ran. Never set for grading.
WITHOUT_POLICY_VARIABLE = "BPE_KIT_WITHOUT_POLICY"
# What a part's tests show when its code is refused (the lines follow, one per construct).
REFUSED = "the grader did not run {module}: its code is outside the plain-Python policy (" + POLICY_PAGE + ")"


def refused_parts(
    files: dict[str, bytes],
    *,
    kind: str,
    script_name: str = "",
    cells: tuple[Cell, ...] = (),
    module_cells: tuple[tuple[str, tuple[Cell, ...]], ...] = (),
    allow_modules: Iterable[str] = (),
) -> tuple[tuple[str, tuple[Refusal, ...]], ...]:
    """Each part module whose code the policy refuses, with the refusals, in MODULES order."""
    if os.environ.get(WITHOUT_POLICY_VARIABLE) == "1":
        return ()
    reader = _Reader(files, frozenset(allow_modules))
    found: dict[str, tuple[Refusal, ...]] = {}
    if kind == "script":
        wanted = {function for module in SCRIPT_MODULES for function in part_of(module).functions}
        refusals = reader.part(reader.cells(script_name, cells, wanted))
        if refusals:
            found = dict.fromkeys(SCRIPT_MODULES, refusals)
    else:
        notebooks = dict(module_cells)
        for module in MODULES:
            if module in notebooks:
                wanted = set(part_of(module).functions)
                start = reader.cells(f"{module}.ipynb", notebooks[module], wanted)
            elif f"{module}.py" in files:
                start = reader.file(f"{module}.py")
            else:
                continue
            refusals = reader.part(start)
            if refusals:
                found[module] = refusals
    return tuple((module, found[module]) for module in MODULES if module in found)


class _Reader:
    """The checks of one hand-in's files, each file checked once however many parts import it."""

    def __init__(self, files: dict[str, bytes], allow_modules: frozenset[str]) -> None:
        self.files = files
        self.allow_modules = allow_modules
        self.own = frozenset(_own_modules(files)) | frozenset(MODULES)
        self.checked: dict[str, Checked] = {}

    def file(self, name: str) -> Checked:
        if name not in self.checked:
            self.checked[name] = check_file(self.files[name], Source(name, self.own, self.allow_modules))
        return self.checked[name]

    def cells(self, notebook: str, cells: tuple[Cell, ...], wanted: set[str]) -> Checked:
        """A notebook's cells as the worker runs them, each checked, with what they import together."""
        unreached, reached_uses = _unreached([cell.source for cell in cells], wanted)
        together = Checked()
        for cell in cells:
            label = f"{notebook} cell {cell.name or cell.index}"
            source = Source(
                label, self.own, self.allow_modules, unreached=unreached, reached_uses=reached_uses, notebook=True
            )
            checked = check_source(cell.source, source)
            together.refusals += checked.refusals
            together.imports |= checked.imports
        return together

    def part(self, start: Checked) -> tuple[Refusal, ...]:
        """The refusals of ``start`` and of every own file it imports, followed to the end."""
        refusals = list(start.refusals)
        waiting = sorted(start.imports)
        seen: set[str] = set()
        while waiting:
            module = waiting.pop()
            for name in _files_of(module, self.files):
                if name in seen:
                    continue
                seen.add(name)
                checked = self.file(name)
                refusals += [refusal for refusal in checked.refusals if refusal not in refusals]
                waiting += sorted(checked.imports)
        return tuple(refusals)


def _own_modules(files: dict[str, bytes]) -> set[str]:
    """The top-level names the hand-in's own files can be imported by: a module, or a folder of them."""
    names = set()
    for name in files:
        head, _, rest = name.partition("/")
        if not rest and head.endswith(".py"):
            names.add(head.removesuffix(".py"))
        elif rest.endswith(".py"):
            names.add(head)
    return names


def _files_of(module: str, files: dict[str, bytes]) -> list[str]:
    """The hand-in's files an import of ``module`` (dotted) runs: each package's ``__init__.py`` on the way,
    and the module's own file."""
    parts = module.split(".")
    found = []
    for depth in range(1, len(parts) + 1):
        path = "/".join(parts[:depth])
        for name in (f"{path}/__init__.py", f"{path}.py"):
            if name in files:
                found.append(name)
    return found


def _unreached(sources: list[str], wanted: set[str]) -> tuple[frozenset[str], frozenset[str]]:
    """A notebook's top-level definitions that neither the ``wanted`` functions nor the statements the
    worker runs (the cells as cut: what is left is needed) can reach, by name; and the names the wanted
    functions, and the definitions they reach, read."""
    definitions: dict[str, set[str]] = {}
    needed: set[str] = set(wanted)
    for source in sources:
        tree = student_syntax.parse(source)
        for node in tree.body if tree is not None else []:
            uses = {inner.id for inner in ast.walk(node) if isinstance(inner, ast.Name)}
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                definitions.setdefault(node.name, set()).update(uses)
                needed.update(_names(node.decorator_list))  # a decorator runs as the function is defined
            else:
                needed.update(uses)
    return frozenset(set(definitions) - _closure(needed, definitions)), frozenset(_closure(set(wanted), definitions))


def _closure(names: set[str], definitions: dict[str, set[str]]) -> set[str]:
    """``names`` and every name the definitions among them use, to the end."""
    found = set(names)
    waiting = list(found)
    while waiting:
        for used in definitions.get(waiting.pop(), ()):
            if used not in found:
                found.add(used)
                waiting.append(used)
    return found


def _names(nodes: list[ast.expr]) -> set[str]:
    return {inner.id for node in nodes for inner in ast.walk(node) if isinstance(inner, ast.Name)}
