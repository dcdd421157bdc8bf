"""The package imports along the pipeline: no step imports a later one, and what runs in the cage imports
nothing of the kit."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import autograder

PACKAGE = Path(autograder.__file__).parent
# The steps a hand-in goes through, in order: each may import the ones before it, never one after it. The
# modules at the top of the package (parts, atomic_files, kit_root, the version) come before every step.
ORDER = ("handin", "cage", "testing", "scoring", "grading", "reports", "course", "notebook", "authoring", "cli")
# Copied into the cage and run there as files, beside student code: it can import nothing of the kit's.
INSIDE = "autograder.cage.inside"
# Imports against the order that stay: (importing module, imported module) -> why. None does: an idea used
# on two floors lives on the lower one (the class summary's figures in reports/, beside their renderer).
EXCEPTIONS: dict[tuple[str, str], str] = {}


def modules() -> Iterator[tuple[str, Path]]:
    """Every module of the package, by its dotted name."""
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts), path


def imported(name: str, path: Path) -> Iterator[str]:
    """What module ``name`` imports, anywhere in it (in a function, for the type checker alone), as dotted
    names: ``from autograder import cli`` imports ``autograder.cli``."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            within = package[: len(package) - node.level + 1] if node.level else []
            source = ".".join([*within, *([node.module] if node.module else [])])
            yield source
            if source == "autograder":
                yield from (f"autograder.{alias.name}" for alias in node.names)


def step(name: str) -> int:
    """Where a module of the package stands in ORDER; -1 for the modules at the top of the package."""
    parts = name.split(".")
    return ORDER.index(parts[1]) if len(parts) > 1 and parts[1] in ORDER else -1


def kit_imports() -> Iterator[tuple[str, str]]:
    for name, path in modules():
        for target in imported(name, path):
            if target == "autograder" or target.startswith("autograder."):
                yield name, target


@pytest.mark.unit
def test_no_step_imports_a_later_one():
    against = {
        (name, target)
        for name, target in kit_imports()
        if step(target) > step(name) and (name, target) not in EXCEPTIONS
    }
    assert not against, "imports against the pipeline's order " + ", ".join(
        f"{name} -> {target}" for name, target in sorted(against)
    )


@pytest.mark.unit
def test_what_runs_in_the_cage_imports_nothing_of_the_kit():
    inside = {(name, target) for name, target in kit_imports() if name.startswith(INSIDE)}
    assert not inside, f"cage/inside imports the kit: {sorted(inside)}"


@pytest.mark.unit
def test_every_exception_is_still_needed():
    assert set(EXCEPTIONS) <= set(kit_imports()), "an exception no longer imported: take it off EXCEPTIONS"


def import_circles() -> list[list[str]]:
    """The groups of the package's modules that reach one another through their imports (counting those in a
    function): each such group is a circle, whichever step its modules belong to."""
    known = {name for name, _ in modules()}
    graph: dict[str, set[str]] = {name: set() for name in known}
    for name, target in kit_imports():
        if target in known and target != name:
            graph[name].add(target)

    def reach(start: str) -> set[str]:
        seen: set[str] = set()
        waiting = list(graph[start])
        while waiting:
            name = waiting.pop()
            if name not in seen:
                seen.add(name)
                waiting.extend(graph[name])
        return seen

    reached = {name: reach(name) for name in known}
    circles = {frozenset({name, *(other for other in reached[name] if name in reached[other])}) for name in known}
    return sorted(sorted(circle) for circle in circles if len(circle) > 1)


@pytest.mark.unit
def test_no_module_imports_one_that_imports_it_back():
    assert not import_circles(), f"modules that import one another: {import_circles()}"
