"""The portable path (cage/inside/spawns): each part's process started with subprocess, as on a machine with no
fork (Windows), gives what the fork path gives. Forced here with BPE_KIT_CAGE=portable at the best cage this
machine builds, and compared test by test with the fork path: the scores, and the words once the one line on
bounds (the portable path's alone) and the figures a run measures (seconds, mebibytes) are left out."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from bug_corpus import BUGS
from classroom import SOLUTIONS
from results import timed

from autograder.authoring import notebooks as exercises
from autograder.cage.isolation import FORCE_VARIABLE
from autograder.parts import PARTS
from autograder.reports import renderer
from autograder.scoring.grade_result import GradeResult
from autograder.scoring.points import SuitePoints

KIT = SOLUTIONS.parent
STUBS = KIT / "student_template"
FORCE_PORTABLE = "portable"  # BPE_KIT_CAGE=portable, as a user types it
BOUNDS_LINE = "note: student code runs in a process started for each part"
# Figures a run measures, different from one run to the next on either path: "31.8 s", "2.5 MiB", "1.9x".
MEASURED = re.compile(r"\d+(\.\d+)?(?= ?(s|ms|MiB|KiB|x)\b)")
# Mistakes of most parts: wrong answers, a crash, a loop and a call too slow by far. None is near a timed test's
# bound, which a loaded machine tips one way on one run and the other on the next, whichever the path.
CORPUS_SPREAD = (
    "char_tokenize drops spaces",
    "word vocab without [UNK]",
    "merge_pair edits the list in place",
    "train_bpe crashes on text shorter than two characters",
    "train_bpe loops forever on short input",
    "word merge_pair edits the table in place",
    "fast trainer is the naive recount (right, but slow)",
    "byte table: every byte stands for itself",
    "train_bytes breaks a tie toward the smallest pair",
)


def _environment(portable: bool) -> dict[str, str]:
    environment = {key: value for key, value in os.environ.items() if key != FORCE_VARIABLE}
    environment["COLUMNS"] = "400"  # the bounds line on one line of text, to leave it out whole
    if portable:
        environment[FORCE_VARIABLE] = FORCE_PORTABLE
    return environment


def graded(path: Path, *arguments: str, portable: bool) -> dict[str, Any]:
    """The real `grade` of ``path``: its results document, from which its text report is rendered too (one
    grading, so a timed test that a loaded machine tips one way or the other tips the two alike)."""
    process = subprocess.run(
        [sys.executable, "-m", "autograder.cli", str(path), "--format", "json", "--no-cache", *arguments],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=1200,
        cwd=path.parent,
        env=_environment(portable),
    )
    assert process.returncode in (0, 1), process.stderr[-2000:]
    return json.loads(process.stdout)


def report(document: dict[str, Any]) -> str:
    """The text report `grade` prints for ``document``."""
    return renderer("text")(GradeResult.from_json(document))


def _bounds_left_out(value: Any) -> Any:
    """``value`` with the one line on bounds, the portable path's alone, left out of every string in it."""
    if isinstance(value, str):
        return "\n".join(line for line in value.split("\n") if not line.startswith(BOUNDS_LINE))
    if isinstance(value, dict):
        return {key: _bounds_left_out(item) for key, item in value.items()}
    if isinstance(value, list):
        return [
            _bounds_left_out(item) for item in value if not (isinstance(item, str) and item.startswith(BOUNDS_LINE))
        ]
    return value


def _comparable(value: Any) -> Any:
    """``value`` without the line on bounds, with the figures a run measures left out of every string in it."""
    value = _bounds_left_out(value)
    if isinstance(value, str):
        return MEASURED.sub("#", value)
    if isinstance(value, dict):
        return {key: _comparable(item) for key, item in value.items() if key != "execution_time"}
    if isinstance(value, list):
        return [_comparable(item) for item in value]
    return value


def _untimed(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with a timed test's words left out (results.timed: both paths graded alike, the score is
    kept), its name, score and status kept."""
    tests = [
        {key: test[key] for key in ("name", "score", "max_score", "status")} if timed(test) else test
        for test in document["tests"]
    ]
    return {**document, "tests": tests}


def _says_its_bounds(document: dict[str, Any]) -> bool:
    return any(note.startswith(BOUNDS_LINE) for note in document["extra_data"]["notes"])


def _assert_same(path: Path, *arguments: str) -> None:
    forked = graded(path, *arguments, portable=False)
    started = graded(path, *arguments, portable=True)
    assert forked["tests"], "the grading ran no test"
    scores = [(test["name"], test["score"], test["status"]) for test in started["tests"]]
    assert scores == [(test["name"], test["score"], test["status"]) for test in forked["tests"]]
    started_words, forked_words = _comparable(_untimed(started)), _comparable(_untimed(forked))
    for started_test, forked_test in zip(started_words["tests"], forked_words["tests"], strict=True):
        assert started_test == forked_test, forked_test["name"]
    assert started_words == forked_words
    assert _says_its_bounds(started), "not the portable path"
    assert not _says_its_bounds(forked)
    assert report(started).count("note: student code runs in a process started") == 1, "its bounds, once"
    assert _comparable(report(_bounds_left_out(started))) == _comparable(report(_bounds_left_out(forked)))


def _with_bug(folder: Path, name: str) -> Path:
    module, _, source = BUGS[name]
    folder.mkdir(parents=True)
    text = (SOLUTIONS / f"{module}.py").read_text(encoding="utf-8") + "\n\n" + source
    (folder / f"{module}.py").write_text(text, encoding="utf-8")
    return folder / f"{module}.py"


def test_one_part_scores_and_reads_the_same_through_the_portable_path():
    """Part 1's reference, through the fork path and through the portable path: the same tests in the same
    order, the same scores and the same words; the portable path's report alone says its bounds, once."""
    _assert_same(SOLUTIONS / "simple_tokenizers.py", "--suite", "public")


def test_a_wrong_function_fails_with_the_same_words_through_the_portable_path(tmp_path):
    _assert_same(_with_bug(tmp_path / "hand-in", "merge_pair edits the list in place"), "--suite", "public")


@pytest.mark.slow  # the whole public suite four times over
@pytest.mark.parametrize("hand_in", ["reference", "stubs"])
def test_the_whole_public_suite_scores_and_reads_the_same_through_the_portable_path(hand_in):
    _assert_same(SOLUTIONS if hand_in == "reference" else STUBS, "--suite", "public")


@pytest.mark.slow  # each mistake's part graded through each path
@pytest.mark.parametrize("name", CORPUS_SPREAD)
def test_a_known_mistake_scores_and_reads_the_same_through_the_portable_path(name, tmp_path):
    _assert_same(_with_bug(tmp_path / "hand-in", name), "--suite", "public")


def _check_outputs(part_module: str, flavour: str, folder: Path, portable: bool, points: SuitePoints) -> list[str]:
    """What each check cell of ``part_module``'s notebook printed, run top to bottom in a real kernel."""
    from nbclient import NotebookClient

    part = next(part for part in PARTS if part.module == part_module)
    notebook = exercises.build(part, flavour, points=points)
    previous = os.environ.copy()
    os.environ.clear()
    os.environ.update(_environment(portable))  # the kernel's environment is this process's
    try:
        NotebookClient(
            notebook,
            timeout=600,
            kernel_name="python3",
            allow_errors=True,
            resources={"metadata": {"path": str(folder)}},
        ).execute()
    finally:
        os.environ.clear()
        os.environ.update(previous)
    printed = []
    for cell in notebook.cells:
        if cell.cell_type == "code" and cell.source.startswith("check("):
            text = "".join(
                output.get("text", "") + output.get("data", {}).get("text/plain", "") for output in cell.outputs
            )
            printed.append(_comparable(text))
    return printed


@pytest.mark.slow  # four notebooks run top to bottom in a kernel
@pytest.mark.parametrize("flavour", ["solved", "student"])
def test_a_notebooks_check_cells_say_the_same_through_the_portable_path(flavour, tmp_path):
    from results import hidden_points

    shutil.copytree(exercises.EXERCISES / "data", tmp_path / "data")
    forked = _check_outputs("simple_tokenizers", flavour, tmp_path, False, hidden_points())
    started = _check_outputs("simple_tokenizers", flavour, tmp_path, True, hidden_points())
    assert forked and all("Public checks:" in text for text in forked)
    assert started == forked


# What Windows lacks: a module-level import of one of these on the student's path, and a student there gets no score.
POSIX_ONLY_MODULES = frozenset(
    {"fcntl", "resource", "termios", "pwd", "grp", "posix", "pty", "tty", "_posixsubprocess"}
)


def _module_level_imports(path: Path) -> set[str]:
    """The modules a file imports as it is imported: at its top level, or in a top-level ``if``/``try``."""
    names: set[str] = set()
    waiting: list[ast.AST] = list(ast.parse(path.read_text(encoding="utf-8")).body)
    while waiting:
        node = waiting.pop()
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
        elif isinstance(node, (ast.If, ast.Try)):
            waiting.extend(ast.iter_child_nodes(node))
    return names


@pytest.mark.unit
def test_the_student_path_imports_no_posix_only_module_as_it_loads():
    """Every module of the kit's package, the grader's and the worker's alike: ``grade`` on a student's machine
    may import any of them."""
    files = sorted((KIT / "autograder").rglob("*.py"))
    assert len(files) > 50
    found = {str(path.relative_to(KIT)): _module_level_imports(path) & POSIX_ONLY_MODULES for path in files}
    assert {name: modules for name, modules in found.items() if modules} == {}


# A grader on which os.fork, fcntl and resource are missing and select takes no pipe, as on Windows: each is
# taken away before the kit loads (a sitecustomize, which the worker's interpreter, started with -S, skips:
# the test above covers its modules).
WINDOWS_LIKE = """
import os, select, sys

class _Missing:
    def find_spec(self, name, path=None, target=None):
        if name in {"fcntl", "resource", "termios"}:
            raise ImportError(f"no {name} on this platform")
        return None

sys.meta_path.insert(0, _Missing())
for _name in ("fork", "forkpty", "killpg", "setpgid"):
    if hasattr(os, _name):
        delattr(os, _name)

def _select(readers, writers, errors, timeout=None):
    raise OSError("select takes sockets only on this platform")

select.select = _select
"""


@pytest.mark.slow  # the whole public suite, through the portable path chosen because fork is missing
def test_a_grader_without_fork_fcntl_resource_or_select_on_pipes_gives_the_reference_full_marks(tmp_path):
    (tmp_path / "sitecustomize.py").write_text(WINDOWS_LIKE, encoding="utf-8")
    environment = {key: value for key, value in os.environ.items() if key != FORCE_VARIABLE}
    environment["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(KIT)])
    environment["COLUMNS"] = "400"
    process = subprocess.run(
        [sys.executable, "-m", "autograder.cli", str(SOLUTIONS), "--suite", "public", "--no-cache"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=1200,
        cwd=tmp_path,
        env=environment,
    )
    assert process.returncode == 0, process.stdout[-3000:] + process.stderr[-3000:]
    assert "(os.fork is missing here)" in process.stdout
    summary = [line for line in process.stdout.splitlines() if line.startswith("Public checks:")]
    assert summary and re.match(r"Public checks: (\d+) of \1 passed", summary[0]), summary
