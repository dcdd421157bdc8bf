"""The package imports along the pipeline: no step imports a later one, and what runs in the cage imports
nothing of the kit. The architecture page draws that pipeline and maps the package: both say what is in the
code."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import autograder
from autograder.kit_root import KIT_ROOT

PACKAGE = Path(autograder.__file__).parent
ARCHITECTURE = KIT_ROOT / "docs" / "architecture.md"
# The steps a hand-in goes through, in order: each may import the ones before it, never one after it. The
# modules at the top of the package (parts, atomic_files, kit_root, the version) come before every step.
ORDER = ("hand_in", "cage", "testing", "scoring", "grading", "reports", "course", "notebook", "authoring", "cli")
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
    names: ``from autograder.cage import seccomp`` imports ``autograder.cage`` and ``autograder.cage.seccomp``
    (a name imported from a module, ``autograder.cage.seccomp.program``, stands on that module's step and is
    in no circle: no module has its name)."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            within = package[: len(package) - node.level + 1] if node.level else []
            source = ".".join([*within, *([node.module] if node.module else [])])
            yield source
            yield from (f"{source}.{alias.name}" for alias in node.names)


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


@pytest.mark.unit
def test_a_module_imported_from_its_package_counts_as_imported(tmp_path):
    """Else ``from autograder.testing import rubric`` would hide an arrow or a circle behind the package."""
    module = tmp_path / "grader.py"
    module.write_text("def run():\n    from autograder.testing import rubric\n", encoding="utf-8")
    assert "autograder.testing.rubric" in set(imported("autograder.testing.grader", module))


def text_block(page: str, heading: str) -> list[str]:
    """The lines of the first ``text`` block under ``heading`` (a line of its own, as ``## The package map``)."""
    below = page.split(f"\n{heading}\n", 1)[1]
    return below.split("```text\n", 1)[1].split("\n```", 1)[0].splitlines()


@pytest.mark.unit
def test_the_architecture_page_draws_the_steps_in_their_order():
    lines = text_block(ARCHITECTURE.read_text(encoding="utf-8"), "## The pipeline")
    drawn = [found.group(1) for line in lines if (found := re.match(r" (\w+)(?:/|\.py) ", line))]
    assert drawn == list(ORDER), f"the drawing's steps, top to bottom: {drawn}"


# In the map, text that starts left of this column names an entry; text further right goes on with the one above.
NAME_COLUMN = 10


def map_entries(lines: list[str]) -> list[tuple[str, str]]:
    """The map's entries as (path from the kit's folder, what the entry says): ``  cage/`` under
    ``autograder/`` is ``autograder/cage/``, and each level of a folder's contents is indented two more."""
    entries: list[tuple[str, str]] = []
    folders: dict[int, str] = {}  # an indentation -> the folder whose contents are indented so
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if indent >= NAME_COLUMN:
            path, said = entries[-1]
            entries[-1] = (path, f"{said} {line.strip()}")
            continue
        name, _, said = line.strip().partition(" ")
        path = folders.get(indent, "") + name
        folders[indent + 2] = path
        entries.append((path, said.strip()))
    return entries


def named_modules(said: str) -> list[str]:
    """What a package's entry names (after its first colon, where words of its own open it), split at its
    commas and semicolons, with what is in brackets left out: each should be a module's name."""
    while re.search(r"\([^()]*\)", said):
        said = re.sub(r"\([^()]*\)", "", said)
    names = said.partition(":")[2] if ":" in said else said
    return [name.strip() for name in re.split(r"[,;]", names) if name.strip()]


def map_problems(lines: list[str], root: Path) -> list[str]:
    """What the map ``lines`` say that the package under ``root`` does not hold, and what it holds that the map
    does not name: every module and package of it has an entry or is named in its package's entry."""
    problems: list[str] = []
    named: set[str] = set()
    for path, said in map_entries(lines):
        if not (root / path).exists():
            problems.append(f"{path}: on the map, not in the kit")
        named.add(path)
        if path.endswith("/") and (root / path / "__init__.py").exists():
            for name in named_modules(said):
                if not name.isidentifier():
                    problems.append(f"{path}: {name!r} where the entry should name a module")
                elif not (root / path / f"{name}.py").exists():
                    problems.append(f"{path}{name}.py: on the map, not in the kit")
                named.add(f"{path}{name}.py")
    package = root / "autograder"
    held = {f"{folder.parent.relative_to(root).as_posix()}/" for folder in package.rglob("__init__.py")}
    held |= {path.relative_to(root).as_posix() for path in package.rglob("*.py") if path.name != "__init__.py"}
    problems += [f"{path}: in the kit, not on the map" for path in sorted(held - named)]
    return problems


@pytest.mark.unit
def test_the_architecture_map_names_every_module_where_it_is():
    lines = text_block(ARCHITECTURE.read_text(encoding="utf-8"), "## The package map")
    assert not map_problems(lines, KIT_ROOT), "docs/architecture.md's package map:\n" + "\n".join(
        map_problems(lines, KIT_ROOT)
    )


@pytest.mark.unit
def test_a_map_that_leaves_a_module_out_or_names_one_too_many_fails(tmp_path):
    """The map's own check, on a package of three modules: each way the map can be wrong is found."""
    for module in (
        "autograder/__init__.py",
        "autograder/cli.py",
        "autograder/shop/__init__.py",
        "autograder/shop/till.py",
    ):
        (tmp_path / module).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / module).write_text("", encoding="utf-8")
    right = ["autograder/", "  cli.py          the command", "  shop/           what is sold: till (the money)"]
    assert map_problems(right, tmp_path) == []
    assert map_problems(right[:2], tmp_path) == [
        "autograder/shop/: in the kit, not on the map",
        "autograder/shop/till.py: in the kit, not on the map",
    ]
    left_out = [*right[:2], "  shop/           what is sold: nothing yet"]
    assert map_problems(left_out, tmp_path) == [
        "autograder/shop/: 'nothing yet' where the entry should name a module",
        "autograder/shop/till.py: in the kit, not on the map",
    ]
    too_many = [*right, "  kiosk.py        gone"]
    assert map_problems(too_many, tmp_path) == ["autograder/kiosk.py: on the map, not in the kit"]
