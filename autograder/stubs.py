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

from autograder.parts import PARTS
from autograder.suites import KIT_ROOT

BEGIN = "### BEGIN SOLUTION"
END = "### END SOLUTION"
TODO = re.compile(r"^(?P<indent>\s*)### (?P<todo>TODO\b.*)$")
HEADER = "# Part {number}: fill in each TODO, then run `grade` in this folder to check your work.\n"


class MarkerError(ValueError):
    pass


def make_stub(source: str, *, name: str = "solution") -> str:
    """The student's version of one solution file."""
    lines = source.splitlines(keepends=True)
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
            todo = TODO.match(line.rstrip("\n"))
            out.append(f"{todo['indent']}# {todo['todo']}\n" if todo else line)
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
