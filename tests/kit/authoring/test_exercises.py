"""The exercise notebooks: generated from one source, run clean, graded as submissions (nbgrader: test_nbgrader.py)."""

from __future__ import annotations

import re
import shutil

import nbformat
import pytest
from commands import grade
from results import hidden_points

from autograder.authoring import notebooks as exercises
from autograder.authoring.release import hidden_test_lines
from autograder.authoring.stubs import BEGIN, END
from autograder.parts import PARTS
from autograder.reports import FORMATS, renderer
from autograder.scoring.grade_result import GradeResult
from autograder.scoring.points import SuitePoints


@pytest.fixture(scope="module")
def points() -> SuitePoints:
    return hidden_points()


@pytest.mark.unit
def test_committed_notebooks_are_what_the_generator_makes():
    expected = exercises.expected_notebooks()
    assert len([path for path in expected if path.suffix == ".ipynb"]) == 2 * len(PARTS)
    for path, text in expected.items():
        assert path.is_file(), f"{path} is missing: run `grade make-notebooks`"
        assert path.read_text(encoding="utf-8") == text, f"{path} is stale: run `grade make-notebooks` and commit it"


def test_the_readmes_show_what_the_grader_prints_for_their_mistake():
    from autograder.authoring.readme_example import expected_documents

    for path, text in expected_documents().items():
        assert path.read_text(encoding="utf-8") == text, f"{path}: run `grade make-notebooks` and commit it"
        assert "got:" in text and "hint:" in text


def lead_ins(source: str, name: str) -> list[list[str]]:
    """For each code cell of a prose source, the paragraphs since the cell before that end with a colon: the
    lines that lead into it."""
    found: list[list[str]] = []
    leading: list[str] = []
    for block in exercises.parse(source, name=name):
        if block.kind == "markdown":
            paragraphs = [paragraph.strip() for paragraph in block.text.split("\n\n") if paragraph.strip()]
            leading += [paragraph for paragraph in paragraphs if paragraph.endswith(":")]
            if paragraphs and not paragraphs[-1].endswith(":"):
                leading = []  # prose after the lead-in: a lead-in before it leads into nothing here
        else:
            found.append(leading)
            leading = []
    return found


@pytest.mark.unit
def test_no_code_cell_has_two_lead_ins():
    """A paragraph ending in a colon leads into the code after it; two in a row are a leftover draft."""
    duplicated = "Here is the rank at work:\n\nWatch the rank at work, on abc:\n\n```python\nprint(1)\n```\n"
    assert [len(cell) for cell in lead_ins(duplicated, "example")] == [2], "the lint sees a doubled lead-in"
    for part in PARTS:
        path = exercises.EXERCISES / "src" / f"{part.module}.md"
        doubled = [cell for cell in lead_ins(path.read_text(encoding="utf-8"), str(path)) if len(cell) > 1]
        assert doubled == [], f"{path.name}: one lead-in per code cell: {doubled}"


def quoted_twice(source: str) -> list[str]:
    """The labels of ``{{label: value}}`` claims that a prose source quotes more than once."""
    labels = [match["label"] for match in exercises.CLAIM.finditer(source)]
    return sorted({label for label in labels if labels.count(label) > 1})


@pytest.mark.unit
def test_no_lesson_quotes_one_figure_twice():
    """A figure quoted in two places is two sources of truth; the second sentence should refer to the first."""
    assert quoted_twice("{{merges: 11}} merges, and later again {{merges: 11}}.") == ["merges"]
    for part in PARTS:
        path = exercises.EXERCISES / "src" / f"{part.module}.md"
        assert quoted_twice(path.read_text(encoding="utf-8")) == [], f"{path.name}: quote each figure once"


# A figure distinctive enough that its second appearance is the same fact: four digits or more, a decimal, a
# percentage. Shorter whole numbers (2, 256, 400) are as often an input the prose names as a result it quotes.
DISTINCT_FIGURE = re.compile(r"\d{1,3}(?:,\d{3})+|\d{4,}|\d+\.\d+|\d+%")
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.DOTALL)


def figures_restated(source: str) -> list[str]:
    """The claims of a prose source whose figure its prose also writes out unchecked (outside any claim or code),
    where it can drift from what the notebook prints while the checked copy stays right."""
    prose = CODE.sub(" ", exercises.CLAIM.sub(" ", source))
    restated = []
    for claim in exercises.CLAIM.finditer(source):
        for figure in DISTINCT_FIGURE.findall(claim["value"]):
            if re.search(rf"(?<![\d,.]){re.escape(figure)}(?![\d%]|[,.]\d)", prose):
                restated.append(f"{claim['label']}: {figure}")
    return restated


@pytest.mark.unit
def test_no_lesson_writes_a_checked_figure_out_again():
    """Issue 51: "the same algorithm with 100,000 merges" stood above {{GPT-4 merges: 100,000}}, and only the
    second was held against the notebook."""
    assert figures_restated("It has 100,000 merges. There are {{GPT-4 merges: 100,000}} merges.") == [
        "GPT-4 merges: 100,000"
    ]
    assert figures_restated("About 1.5 per word ({{tokens per word: 1.52}}), `x = 1.52` in code.") == []
    assert figures_restated("{{one token: 62%}} of words, and 62% again.") == ["one token: 62%"]
    for part in PARTS:
        path = exercises.EXERCISES / "src" / f"{part.module}.md"
        restated = figures_restated(path.read_text(encoding="utf-8"))
        assert restated == [], f"{path.name}: refer to the checked figure instead of writing it again: {restated}"


@pytest.mark.unit
def test_every_function_is_an_exercise_with_its_check(points):
    for part in PARTS:
        notebook = exercises.build(part, "student", points=points)
        code = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
        for function in part.functions:
            stub = next(index for index, source in enumerate(code) if source.startswith(f"def {function}("))
            assert "raise NotImplementedError" in code[stub] and BEGIN not in code[stub]
            assert code[stub + 1] == f"check({function})"


@pytest.mark.unit
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
    return [
        f"{cell.source[:60]!r}: {output.ename}: {output.evalue}"
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if output.output_type == "error"
    ]


def _printed(cell) -> str:
    return "".join(
        output.get("text", "") + output.get("data", {}).get("text/plain", "") for output in cell.get("outputs", [])
    )


@pytest.mark.slow  # every notebook top to bottom, its demos and trainings included
def test_solved_notebooks_run_clean_top_to_bottom(points, tmp_path):
    """Every cell, the checks and the explorations, runs against the solutions without an error."""
    from nbclient import NotebookClient

    shutil.copytree(exercises.EXERCISES / "data", tmp_path / "data")
    printed_by_part = {}
    for part in PARTS:
        notebook = exercises.build(part, "solved", points=points)
        # Solved and saved beside the next: Part 5 times the student's own Part 3 trainer, read from word_bpe.ipynb.
        (tmp_path / f"{part.module}.ipynb").write_text(exercises.render(notebook), encoding="utf-8")
        NotebookClient(
            notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
        ).execute()
        assert _errors(notebook) == [], part.module
        checks = [cell for cell in notebook.cells if cell.cell_type == "code" and cell.source.startswith("check(")]
        assert len(checks) == len(part.functions)
        for cell in checks:
            assert "(100%)" in _printed(cell), cell.source
        assert any(
            "image/png" in output.get("data", {}) for cell in notebook.cells for output in cell.get("outputs", [])
        ), "the exploration draws its plot"
        printed = printed_by_part[part.module] = "\n".join(
            _printed(cell) for cell in notebook.cells if cell.cell_type == "code"
        )
        unsupported = [claim for claim in exercises.claims(part) if claim not in printed]
        assert unsupported == [], f"{part.module}: the prose quotes what the notebook does not print"
    assert "recount (your Part 3)" in printed_by_part["fast_bpe"], (
        "Part 5 timed the student's own Part 3 trainer, read from word_bpe.ipynb"
    )


def test_a_check_cell_shows_the_failing_call_and_the_hint(points, tmp_path):
    from nbclient import NotebookClient

    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell('from autograder.notebook.jupyter import checker\n\ncheck = checker("bpe")'),
            nbformat.v4.new_code_cell("def merge_pair(tokens, pair):\n    return list(tokens)"),
            nbformat.v4.new_code_cell("check(merge_pair)"),
        ]
    )
    NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    shown = _printed(notebook.cells[2])
    assert "call:" in shown and "expected:" in shown and "hint:" in shown and "Public checks: 0 of " in shown


@pytest.mark.attack
def test_feedback_never_holds_hidden_test_source(reference_with):
    from bug_corpus import BUGS

    folder = reference_with(
        **{
            module: code
            for module, _, code in [BUGS["merge_pair edits the list in place"], BUGS["char_tokenize drops spaces"]]
        }
    )
    _, document = grade(folder, "--part", "simple_tokenizers", "--part", "bpe")
    for output_format in FORMATS:  # every format is rendered from this one document
        text = renderer(output_format)(GradeResult.from_json(document))
        assert "merge_pair" in text
        assert [line for line in hidden_test_lines() if line in text] == [], output_format
