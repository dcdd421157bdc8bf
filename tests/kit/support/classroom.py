"""Build a class of submissions, as an instructor receives them, for batch tests and benchmarks.

Every submission is the reference solutions with at most one function
swapped for a student's version (a later ``def`` replaces an earlier one),
or the untouched stubs: so each one's score is known from the corpus.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from autograder.kit_root import KIT_ROOT
from autograder.parts import PARTS

SOLUTIONS = KIT_ROOT / "solutions"
TEMPLATE = KIT_ROOT / "student_template"
SUBMISSIONS = Path(__file__).parent / "submissions"  # the kit's own hand-ins: correct alternatives to the reference

# Misbehaviour the cage must contain without slowing the rest of the class.
HANGS = (
    "bpe",
    "train_bpe",
    """
def train_bpe(text, num_merges):
    while True:
        pass
""",
)
CRASHES = (
    "bpe",
    "encode",
    """
def encode(text, merges, vocab):
    import os
    os._exit(3)
""",
)
FLOODS = (
    "simple_tokenizers",
    "char_tokenize",
    """
def char_tokenize(text):
    print("x" * 10_000_000)
    return list(text)
""",
)


@dataclass(frozen=True)
class Student:
    id: str
    kind: str  # correct, buggy, not started, hangs, crashes, floods
    change: tuple[str, str, str] | None = None  # (module, function, code appended)


def write_submission(folder: Path, student: Student) -> Path:
    """The student's folder: the stubs for "not started", else the solutions with one change."""
    target = folder / student.id
    target.mkdir(parents=True)
    source = TEMPLATE if student.kind == "not started" else SOLUTIONS
    for part in PARTS:
        text = (source / f"{part.module}.py").read_text(encoding="utf-8")
        if student.change is not None and student.change[0] == part.module:
            text += "\n\n" + student.change[2]
        (target / f"{part.module}.py").write_text(text, encoding="utf-8")
    return target


def mixed_class(size: int, *, hanging: int = 2, crashing: int = 2, not_started: int | None = None) -> Iterator[Student]:
    """``size`` students: half correct, most of the rest with one corpus bug, some not started, a few misbehaving."""
    from bug_corpus import BUGS  # tests/kit/support is on sys.path for tests and benchmarks alike

    idle = size // 8 if not_started is None else not_started
    bugs = itertools.cycle(sorted(BUGS.items()))
    number = itertools.count(1)

    def student(kind: str, change: tuple[str, str, str] | None = None) -> Student:
        return Student(f"s{next(number):04d}", kind, change)

    special = [student("hangs", HANGS) for _ in range(hanging)] + [student("crashes", CRASHES) for _ in range(crashing)]
    special += [student("not started") for _ in range(idle)]
    remaining = size - len(special)
    correct = remaining // 2
    yield from special
    for _ in range(correct):
        yield student("correct")
    for _ in range(remaining - correct):
        name, change = next(bugs)
        yield student("buggy", change)


def renamed_copy(source: Path, target: Path) -> Path:
    """A copy of the modules in ``source`` as a student hiding a copy would make it: every local name and
    parameter renamed, every module's functions in reverse order, comments and docstrings dropped."""
    import ast
    import builtins

    kept = set(dir(builtins))

    class Rename(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.Name:
            if node.id not in kept and not node.id[0].isupper():
                node.id = f"my_{node.id}"
            return node

        def visit_arg(self, node: ast.arg) -> ast.arg:
            node.arg = f"my_{node.arg}"
            return node

    target.mkdir(parents=True)
    for path in sorted(source.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        functions = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
        defined = {node.name for node in functions}
        Rename().visit(tree)
        for node in ast.walk(tree):  # the contract's function names stay: the tests call them
            if isinstance(node, ast.Name) and node.id.startswith("my_") and node.id[3:] in defined:
                node.id = node.id[3:]
        tree.body = [node for node in tree.body if node not in functions] + list[ast.stmt](functions[::-1])
        (target / path.name).write_text(ast.unparse(tree) + "\n", encoding="utf-8")
    return target


# Part 1's char_tokenize reaches for the worker that forked the process it runs in (its parent), which holds
# no call but forks every part's process: it says what it could open of its memory, in the error it raises.
PROBES_THE_WORKER = '''
import os


def char_tokenize(text):
    """Reach for the worker that forked this process: its memory, and its processes."""
    said = []
    for how in ("rb", "r+b"):
        try:
            with open(f"/proc/{os.getppid()}/mem", how):
                said.append(f"opened the worker's memory ({how})")
        except OSError as error:
            said.append(f"{how}: {type(error).__name__}")
    raise ValueError("; ".join(said))
'''
