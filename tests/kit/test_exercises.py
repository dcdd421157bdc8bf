"""The exercise notebooks: generated from one source, run clean, graded as submissions, and work in nbgrader."""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from conftest import full_marks, grade, hidden_points

from autograder import exercises
from autograder.parts import PARTS
from autograder.points import SuitePoints
from autograder.release import hidden_test_lines, release_leaks
from autograder.reports import RENDERERS
from autograder.stubs import BEGIN, END


@pytest.fixture(scope="module")
def points() -> SuitePoints:
    return hidden_points()


def test_committed_notebooks_are_what_the_generator_makes():
    expected = exercises.expected_notebooks()
    assert len(expected) == 2 * len(PARTS) + 1
    for path, text in expected.items():
        assert path.is_file(), f"{path} is missing: run `grade make-notebooks`"
        assert path.read_text(encoding="utf-8") == text, f"{path} is stale: run `grade make-notebooks` and commit it"


def test_every_function_is_an_exercise_with_its_check(points):
    for part in PARTS:
        notebook = exercises.build(part, "student", points=points)
        code = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
        for function in part.functions:
            stub = next(index for index, source in enumerate(code) if source.startswith(f"def {function}("))
            assert "raise NotImplementedError" in code[stub] and BEGIN not in code[stub]
            assert code[stub + 1] == f"check({function})"


def test_nbgrader_cells_carry_schema_3_metadata_and_the_points(points):
    for part in PARTS:
        notebook = exercises.build(part, "nbgrader", points=points)
        graded = [cell for cell in notebook.cells if cell.metadata.get("nbgrader", {}).get("grade")]
        assert {cell.metadata.nbgrader.grade_id for cell in graded} == {f"test_{name}" for name in part.functions}
        for cell in graded:
            meta = cell.metadata.nbgrader
            assert meta.schema_version == 3 and meta.locked and not meta.solution
            key = (part.module, meta.grade_id.removeprefix("test_"))
            assert meta.points == points.counted(key)
            assert exercises.HIDDEN_BEGIN in cell.source and exercises.HIDDEN_END in cell.source
        solutions = [cell for cell in notebook.cells if cell.metadata.get("nbgrader", {}).get("solution")]
        assert len(solutions) == len(part.functions)
        assert all(BEGIN in cell.source and END in cell.source for cell in solutions)


def _errors(notebook) -> list[str]:
    return [f"{cell.source[:60]!r}: {output.ename}: {output.evalue}"
            for cell in notebook.cells if cell.cell_type == "code"
            for output in cell.get("outputs", []) if output.output_type == "error"]


def _printed(cell) -> str:
    return "".join(output.get("text", "") + output.get("data", {}).get("text/plain", "")
                   for output in cell.get("outputs", []))


def test_solved_notebooks_run_clean_top_to_bottom(points, tmp_path):
    """Every cell, the checks and the explorations, runs against the solutions without an error."""
    from nbclient import NotebookClient

    shutil.copytree(exercises.EXERCISES / "data", tmp_path / "data")
    for part in PARTS:
        notebook = exercises.build(part, "solved", points=points)
        NotebookClient(notebook, timeout=300, kernel_name="python3",
                       resources={"metadata": {"path": str(tmp_path)}}).execute()
        assert _errors(notebook) == [], part.module
        checks = [cell for cell in notebook.cells if cell.cell_type == "code" and cell.source.startswith("check(")]
        assert len(checks) == len(part.functions)
        for cell in checks:
            assert "(100%)" in _printed(cell), cell.source
        assert any("image/png" in output.get("data", {}) for cell in notebook.cells
                   for output in cell.get("outputs", [])), "the exploration draws its plot"


def test_a_check_cell_shows_the_failing_call_and_the_hint(points, tmp_path):
    from nbclient import NotebookClient

    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell('from autograder.notebook import checker\n\ncheck = checker("bpe")'),
        nbformat.v4.new_code_cell("def merge_pair(tokens, pair):\n    return list(tokens)"),
        nbformat.v4.new_code_cell("check(merge_pair)"),
    ])
    NotebookClient(notebook, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    shown = _printed(notebook.cells[2])
    assert "call:" in shown and "expected:" in shown and "hint:" in shown and "Score: 0 / 2" in shown


def _write(notebook, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(exercises.render(notebook), encoding="utf-8")


def test_notebooks_named_after_the_modules_are_graded_as_the_modules(points, tmp_path):
    for flavour, score in (("solved", float(full_marks())), ("student", 0)):
        folder = tmp_path / flavour
        for part in PARTS:
            _write(exercises.build(part, flavour, points=points), folder / f"{part.module}.ipynb")
        shutil.copytree(exercises.EXERCISES / "data", folder / "data")
        _, document = grade(folder)
        assert document["score"] == score, flavour
        if flavour == "solved":
            assert "raised" not in document["output"], "check cells and explorations load cleanly in the cage"
    outcomes = {test["extra_data"]["outcome"] for test in document["tests"]}
    assert outcomes == {"not started"}


def _nbgrader(*arguments: str, course: Path) -> subprocess.CompletedProcess[str]:
    process = subprocess.run([sys.executable, "-m", "nbgrader", *arguments], cwd=course,
                             capture_output=True, text=True, timeout=600)
    assert process.returncode == 0, process.stderr[-3000:]
    return process


def test_nbgrader_round_trip(tmp_path):
    """The real nbgrader: release without solutions or hidden tests; autograde gives 100 and 0."""
    api = pytest.importorskip("nbgrader.api", reason="nbgrader is in the dev extra")
    course = tmp_path / "course"
    shutil.copytree(exercises.NBGRADER_COURSE, course)
    _nbgrader("generate_assignment", exercises.NBGRADER_ASSIGNMENT, "--force", course=course)
    release = course / "release" / exercises.NBGRADER_ASSIGNMENT
    released = "".join(path.read_text(encoding="utf-8") for path in release.glob("*.ipynb"))
    assert BEGIN not in released and "HIDDEN TESTS" not in released and 'suite=\\"hidden\\"' not in released
    assert release_leaks(release) == [], "solution code or hidden tests in the release"

    source = course / "source" / exercises.NBGRADER_ASSIGNMENT
    for student, origin in (("alice", source), ("bob", release)):
        shutil.copytree(origin, course / "submitted" / student / exercises.NBGRADER_ASSIGNMENT)
    _nbgrader("autograde", exercises.NBGRADER_ASSIGNMENT, course=course)
    database = f"sqlite:///{course / 'gradebook.db'}"
    with api.Gradebook(database) as book:  # nbgrader's own autograde: a bonus cell is worth 0 there
        assert f"{book.find_submission('bpe', 'alice').score:g}" == full_marks(bonus=False)
        assert book.find_submission("bpe", "bob").score == 0

    # The kit's own path: the same submitted/ folder graded in the cage, partial credit into the same gradebook.
    out = tmp_path / "graded"
    process = subprocess.run([sys.executable, "-m", "autograder.cli", "batch", str(course), "-o", str(out),
                              "--quiet", "--nbgrader-db", str(course / "gradebook.db")],
                             capture_output=True, text=True, timeout=600)
    assert process.returncode == 0, process.stderr
    with (out / "gradebook.csv").open(encoding="utf-8") as stream:
        totals = {row["id"]: row["total"] for row in csv.DictReader(stream)}
    assert totals == {"alice": full_marks(), "bob": "0"}
    with api.Gradebook(database) as book:  # the kit's export adds the bonus as nbgrader's extra credit
        assert f"{book.find_submission('bpe', 'alice').score:g}" == full_marks()
        assert book.find_grade("test_merge_pair", "bpe", "bpe", "bob").auto_score == 0


def test_feedback_never_holds_hidden_test_source(reference_with):
    from bug_corpus import BUGS

    folder = reference_with(**{module: code for module, _, code in [BUGS["merge_pair edits the list in place"],
                                                                     BUGS["char_tokenize drops spaces"]]})
    _, document = grade(folder, "--part", "simple_tokenizers", "--part", "bpe")
    for output_format, render in RENDERERS.items():  # every format is rendered from this one document
        text = render(document)
        assert "merge_pair" in text
        assert [line for line in hidden_test_lines() if line in text] == [], output_format
