"""Build the exercise notebooks from their prose and from ``solutions/``: one source for every function.

The prose of each part lives in ``exercises/src/<module>.md``: Markdown, with

- fenced ```` ```python ```` blocks, which become code cells as they are;
- a line ``@setup``: the cell with the module's imports and constants (read
  off the solution file) and the import of ``check``;
- a line ``@exercise <function>``: the function's cell, then its check cell;
- a line ``+++``: the end of one Markdown cell and the start of the next;
- ``{{label: value}}`` in the prose: a number the prose quotes from the
  notebook's output. The notebook shows ``value``; a kit test runs the
  notebook and fails unless its output holds the text ``label: value``, so
  prose and output cannot drift apart.

Every code cell carries the kit's mark of its role in its metadata,
``"bpe_kit": {"role": ...}``: ``setup``, ``exercise`` (the student's function),
``check``, or ``demo`` (every fenced block: the prose's demonstrations and
explorations). The grader runs the setup, the exercises and the cells the
student added, never a check or a demo the student left as it was
(``autograder/hand_in/kit_cells.py``).

Three flavours come out of one source:

- ``student``: each function as its stub (the same generator as
  ``student_template/``), followed by ``check(function)``, which runs its
  public tests through the cage. Committed as ``exercises/<module>.ipynb``.
- ``nbgrader``: nbgrader's source version: each function whole, inside
  its ``### BEGIN SOLUTION`` region, in a solution cell; its check cell an
  autograded test cell worth the function's points, with the hidden suite's
  check between ``### BEGIN HIDDEN TESTS`` and ``### END HIDDEN TESTS``.
  Committed as ``exercises/nbgrader/source/bpe/<module>.ipynb``.
- ``solved``: the student notebook with the solutions filled in; built, not
  committed, to prove the notebooks run clean top to bottom.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from autograder.authoring.stubs import BEGIN, END, make_stub, todo_lines
from autograder.hand_in import kit_cells
from autograder.hand_in.notebook_format import import_nbformat
from autograder.kit_root import KIT_ROOT
from autograder.parts import PARTS, Part
from autograder.run_errors import RunError

if TYPE_CHECKING:
    from autograder.scoring.points import SuitePoints

EXERCISES = KIT_ROOT / "exercises"
NBGRADER_COURSE = EXERCISES / "nbgrader"
NBGRADER_ASSIGNMENT = "bpe"
FLAVOURS = ("student", "nbgrader", "solved")
SCHEMA_VERSION = 3
DIRECTIVE = re.compile(r"^@(?P<name>setup|exercise)(?:\s+(?P<argument>\w+))?\s*$")
HIDDEN_BEGIN = "### BEGIN HIDDEN TESTS"
HIDDEN_END = "### END HIDDEN TESTS"
CLAIM = re.compile(r"\{\{(?P<label>[^{}:]+): (?P<value>[^{}]+)\}\}")


class ExerciseSourceError(RunError, ValueError):
    """The prose source is malformed; the message names the file, the line and the fix."""


@dataclass(frozen=True)
class Block:
    kind: str  # markdown, code, setup, exercise
    text: str = ""  # markdown or code; the function's name for exercise


def parse(source: str, *, name: str) -> list[Block]:
    blocks: list[Block] = []
    markdown: list[str] = []
    code: list[str] | None = None

    def flush_markdown() -> None:
        text = "\n".join(markdown).strip("\n")
        if text.strip():
            blocks.append(Block("markdown", text))
        markdown.clear()

    for number, line in enumerate(source.splitlines(), start=1):
        if code is not None:
            if line.strip() == "```":
                blocks.append(Block("code", "\n".join(code)))
                code = None
            else:
                code.append(line)
            continue
        directive = DIRECTIVE.match(line)
        if line.strip() == "```python":
            flush_markdown()
            code = []
        elif line.strip() == "+++":
            flush_markdown()
        elif directive:
            flush_markdown()
            if directive["name"] == "exercise" and not directive["argument"]:
                raise ExerciseSourceError(f"{name}:{number}: @exercise needs the function's name")
            blocks.append(Block(directive["name"], directive["argument"] or ""))
        else:
            markdown.append(line)
    if code is not None:
        raise ExerciseSourceError(f"{name}: a ```python block is never closed; add a line with ```")
    flush_markdown()
    return blocks


def claims(part: Part) -> list[str]:
    """What the notebook's output must hold for the prose to be true: ``label: value`` of each claim."""
    source = (EXERCISES / "src" / f"{part.module}.md").read_text(encoding="utf-8")
    return [f"{match['label']}: {match['value']}" for match in CLAIM.finditer(source)]


def function_sources(solution: str) -> tuple[str, dict[str, str], str]:
    """The notebook's set-up cell (the module's imports, ``check``, its constants), each function's text,
    and the module-level solution regions (helpers the solutions share), markers included.
    """
    tree = ast.parse(solution)
    lines = solution.splitlines()
    regions = _module_regions(lines)
    imports: list[str] = []
    setup: list[str] = []
    functions: dict[str, str] = {}
    starts = [min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))]) for node in tree.body]
    for index, node in enumerate(tree.body):
        if any(first < starts[index] < last for first, last in regions):
            continue  # a helper: in its own cell, never in the set-up students get
        # A node runs to the next one: trailing comments (### END SOLUTION) are not in the syntax tree.
        end = starts[index + 1] - 1 if index + 1 < len(tree.body) else len(lines)
        end = min([end, *(first - 1 for first, _ in regions if starts[index] < first <= end)])
        text = "\n".join(lines[starts[index] - 1 : end]).rstrip()
        if isinstance(node, ast.FunctionDef):
            functions[node.name] = text
        elif index == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the module docstring: the notebook's prose says it better
        elif isinstance(node, ast.ImportFrom) and node.module == "__future__":
            continue
        elif isinstance(node, ast.Import | ast.ImportFrom):
            imports.append(text)
        else:
            setup.append(text)
    head = "\n".join(imports) + "\n\n" if imports else ""
    body = "\n\n" + "\n".join(setup) if setup else ""
    helpers = "\n\n\n".join("\n".join(lines[first - 1 : last]) for first, last in regions)
    return f"{head}from autograder.notebook.jupyter import checker{body}", functions, helpers


def _with_helpers(function: str, helpers: str) -> str:
    """A function whose solution calls the module's helpers, with them nested at the top of its solution.

    A notebook cell must stand alone, and nbgrader turns every solution
    region into ``raise NotImplementedError()``, which at a cell's top level
    would stop "Run All": inside the function's own region they are safe.
    """
    names = re.findall(r"^(?:def|class) (\w+)", helpers, flags=re.MULTILINE)
    lines = function.splitlines()
    if not any(re.search(rf"\b{name}\b", function) for name in names):
        return function
    at = next(index for index, line in enumerate(lines) if line.strip() == BEGIN)
    indent = lines[at][: len(lines[at]) - len(lines[at].lstrip())]
    nested = [
        indent + line if line.strip() else "" for line in helpers.splitlines() if line.strip() not in (BEGIN, END)
    ]
    return "\n".join([*lines[: at + 1], *nested, *lines[at + 1 :]])


def _module_regions(lines: list[str]) -> list[tuple[int, int]]:
    """(BEGIN line, END line), numbered from 1, of each solution region at module level."""
    regions, start = [], 0
    for number, line in enumerate(lines, start=1):
        if line.rstrip() == BEGIN:
            start = number
        elif line.rstrip() == END and start:
            regions.append((start, number))
            start = 0
    return regions


def _solved(function: str) -> str:
    """The solution without markers or TODO lines: what a student who finished would have."""
    lines = function.splitlines()
    todos = todo_lines(lines)
    return "\n".join(
        line for index, line in enumerate(lines) if line.strip() not in (BEGIN, END) and index not in todos
    )


def _nbgrader_solution(function: str) -> str:
    """The solution with its markers, the TODO lines plain comments (nbgrader keeps them in the release)."""
    lines = function.splitlines()
    todos = todo_lines(lines)
    return "\n".join(todos.get(index, line) for index, line in enumerate(lines))


def build(part: Part, flavour: str, *, points: SuitePoints) -> Any:
    """The notebook of ``part`` in ``flavour``, as an nbformat node."""
    nbformat = import_nbformat()

    source_path = EXERCISES / "src" / f"{part.module}.md"
    blocks = parse(source_path.read_text(encoding="utf-8"), name=str(source_path))
    solution = (KIT_ROOT / "solutions" / f"{part.module}.py").read_text(encoding="utf-8")
    setup, functions, helpers = function_sources(solution)
    cells = []
    for block in blocks:
        if block.kind == "markdown":
            cells.append(nbformat.v4.new_markdown_cell(CLAIM.sub(lambda claim: claim["value"], block.text)))
        elif block.kind == "code":
            cells.append(_marked(nbformat.v4.new_code_cell(block.text), kit_cells.DEMO))
        elif block.kind == "setup":
            cells.append(
                _marked(nbformat.v4.new_code_cell(f'{setup}\n\ncheck = checker("{part.module}")'), kit_cells.SETUP)
            )
        else:
            if block.text not in functions:
                raise ExerciseSourceError(f"{source_path}: @exercise {block.text}: no such function in solutions")
            function = _with_helpers(functions[block.text], helpers)
            cells += _exercise_cells(block.text, function, part, flavour, points)
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata = {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    }
    for index, cell in enumerate(notebook.cells):
        cell["id"] = f"{part.module}-{index:02d}"  # stable ids: regenerating changes nothing
    return notebook


def _marked(cell: Any, role: str, function: str = "") -> Any:
    """``cell`` with the kit's mark of its role, which tells the grader whose cell it is (hand_in/kit_cells.py)."""
    cell.metadata[kit_cells.KEY] = kit_cells.mark(role, cell.source, function)
    return cell


def _exercise_cells(name: str, function: str, part: Part, flavour: str, points: SuitePoints) -> list[Any]:
    nbformat = import_nbformat()

    def exercise(source: str) -> Any:
        return _marked(nbformat.v4.new_code_cell(source), kit_cells.EXERCISE, name)

    def check(source: str) -> Any:
        return _marked(nbformat.v4.new_code_cell(source), kit_cells.CHECK, name)

    if flavour == "student":
        return [exercise(make_stub(function, name=name).rstrip("\n")), check(f"check({name})")]
    if flavour == "solved":
        return [exercise(_solved(function)), check(f"check({name})")]
    solution = exercise(_nbgrader_solution(function))
    solution.metadata["nbgrader"] = {
        "grade": False,
        "grade_id": name,
        "locked": False,
        "schema_version": SCHEMA_VERSION,
        "solution": True,
    }
    tests = check(
        f'check({name}, strict=True)\n{HIDDEN_BEGIN}\ncheck({name}, suite="hidden", strict=True)\n{HIDDEN_END}'
    )
    from autograder.course.nbgrader_export import grade_cell_name

    key = (part.module, name)

    tests.metadata["nbgrader"] = {
        "grade": True,
        "grade_id": grade_cell_name(name),
        "locked": True,
        # nbgrader has no extra-credit cell: a bonus is worth 0 here,
        # and `grade batch --nbgrader-db` records it as extra credit
        "points": points.counted(key),
        "schema_version": SCHEMA_VERSION,
        "solution": False,
    }
    return [solution, tests]


def committed_path(part: Part, flavour: str) -> Path:
    if flavour == "student":
        return EXERCISES / f"{part.module}.ipynb"
    if flavour == "nbgrader":
        return NBGRADER_COURSE / "source" / NBGRADER_ASSIGNMENT / f"{part.module}.ipynb"
    raise ValueError(f"the {flavour} notebooks are built, not committed")


def render(notebook: Any) -> str:
    nbformat = import_nbformat()

    return nbformat.writes(notebook) + "\n"


def expected_notebooks() -> dict[Path, str]:
    """Every committed notebook's path and the text the generator makes for it.

    The nbgrader assignment also gets a copy of the data the notebooks read,
    since nbgrader releases and grades from that folder alone.
    """
    from autograder.scoring.points import suite_points

    points = suite_points("hidden")
    expected: dict[Path, str] = {}
    for part in PARTS:
        if not (EXERCISES / "src" / f"{part.module}.md").exists():
            continue
        for flavour in ("student", "nbgrader"):
            expected[committed_path(part, flavour)] = render(build(part, flavour, points=points))
    data = EXERCISES / "data"
    for path in sorted(path for path in data.rglob("*") if path.is_file()):  # the corpora, GPT-2's files
        target = NBGRADER_COURSE / "source" / NBGRADER_ASSIGNMENT / "data" / path.relative_to(data)
        expected[target] = path.read_text(encoding="utf-8")
    return expected


def write_notebooks() -> list[Path]:
    written = []
    for path, text in expected_notebooks().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
