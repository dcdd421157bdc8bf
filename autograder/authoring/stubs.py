"""Generate the student's stubs from the reference solutions: one source for every function.

A solution marks what students write between ``### BEGIN SOLUTION`` and
``### END SOLUTION`` (nbgrader's markers), with a ``### TODO`` line just
before it. The stub keeps everything else (signature, docstring, example),
turns the TODO line into a comment and the region into
``raise NotImplementedError``.
"""

from __future__ import annotations

import re
from pathlib import Path

from autograder.kit_root import KIT_ROOT
from autograder.parts import PARTS
from autograder.run_errors import RunError

BEGIN = "### BEGIN SOLUTION"
END = "### END SOLUTION"
TODO = re.compile(r"^(?P<indent>\s*)### (?P<todo>TODO\b.*)$")
MORE_TODO = re.compile(r"^(?P<indent>\s*)### (?P<todo>.*)$")  # a TODO's next lines
HEADER = "# Part {number}: fill in each TODO, then run `grade` in this folder to check your work.\n"


class MarkerError(RunError, ValueError):
    pass


def todo_lines(lines: list[str]) -> dict[int, str]:
    """Index of each TODO line and its ``###`` continuation lines, with the line as a plain ``#`` comment."""
    found: dict[int, str] = {}
    for index, line in enumerate(lines):
        text = line.rstrip("\n")
        todo = TODO.match(text) or (MORE_TODO.match(text) if index - 1 in found else None)
        if todo and text.strip() not in (BEGIN, END):
            found[index] = f"{todo['indent']}# {todo['todo']}"
    return found


def make_stub(source: str, *, name: str = "solution") -> str:
    """The student's version of one solution file."""
    lines = source.splitlines(keepends=True)
    todos = todo_lines(lines)
    out: list[str] = []
    inside = False
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped == BEGIN:
            if inside:
                raise MarkerError(f"{name}:{number}: {BEGIN} inside another; close the first with {END}")
            inside = True
            indent = line[: len(line) - len(line.lstrip())]
            if indent:  # a region at module level (helpers) is left out whole: a raise there would stop the import
                out.append(f"{indent}raise NotImplementedError\n")
        elif stripped == END:
            if not inside:
                raise MarkerError(f"{name}:{number}: {END} without {BEGIN}")
            inside = False
        elif not inside:
            out.append(todos[number - 1] + "\n" if number - 1 in todos else line)
    if inside:
        raise MarkerError(f"{name}: {BEGIN} is never closed; add {END}")
    return "".join(out)


def expected_stubs(solutions: Path = KIT_ROOT / "solutions") -> dict[str, str]:
    """File name to stub text, for every part that has a solution."""
    stubs = {}
    for part in PARTS:
        path = solutions / f"{part.module}.py"
        if path.exists():
            header = HEADER.format(number=part.number)
            stubs[path.name] = header + make_stub(path.read_text(encoding="utf-8"), name=str(path))
    return stubs


def write_stubs(target: Path) -> list[Path]:
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in expected_stubs().items():
        path = target / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def solution_lines(solutions: Path = KIT_ROOT / "solutions") -> set[str]:
    """Every telling line of a solution region: a release holding one of them has leaked a solution.

    Short lines (``return merged``) and lines the stubs hold anyway (a
    signature's closing line) tell nothing, so they are left out.
    """
    inside_lines: set[str] = set()
    outside_lines: set[str] = set()
    for path in sorted(solutions.glob("*.py")):
        inside = False
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() in (BEGIN, END):
                inside = line.strip() == BEGIN
            elif len(line.strip()) >= 12:
                (inside_lines if inside else outside_lines).add(line.strip())
    return inside_lines - outside_lines


def leaked(text: str, solution: set[str]) -> list[str]:
    """The lines of ``text`` that are lines of a solution region (compared whole, leading space ignored)."""
    return sorted({line.strip() for line in text.splitlines()} & solution)
