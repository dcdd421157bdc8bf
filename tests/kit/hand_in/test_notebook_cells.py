"""A notebook is graded on the student's cells: the kit's checks and demos, marked in their metadata, never run."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from commands import grade
from results import hidden_points

from autograder.authoring import notebooks as exercises
from autograder.hand_in import kit_cells
from autograder.hand_in.bounded import DEFAULT_LIMITS
from autograder.hand_in.cells import notebook_cells
from autograder.kit_root import KIT_ROOT
from autograder.parts import PARTS, part_of

PART = "real_tokenizer"


def _solved(part: str = PART):
    return exercises.build(part_of(part), "solved", points=hidden_points())


def _run_cells(notebook, part: str = PART) -> dict[int, str]:
    """What the worker runs of ``notebook``: each cell's place and the lines of it that are kept."""
    text = nbformat.writes(notebook).encode("utf-8")
    name = f"{part}.ipynb"
    cells, _ = notebook_cells(Path(name), {name: text}, name, DEFAULT_LIMITS, set(part_of(part).functions))
    return {cell.index: cell.source for cell in cells if cell.source.strip()}


def _place_of(notebook, first_line: str) -> int:
    return next(
        place for place, cell in enumerate(notebook.cells, start=1) if cell.source.splitlines()[0] == first_line
    )


@pytest.mark.unit
def test_every_code_cell_of_every_committed_notebook_carries_the_kits_mark_of_its_role():
    for path in sorted(exercises.EXERCISES.rglob("*.ipynb")):
        notebook = json.loads(path.read_text(encoding="utf-8"))
        for place, cell in enumerate(notebook["cells"], start=1):
            if cell["cell_type"] != "code":
                continue
            source = "".join(cell["source"])
            role = kit_cells.kit_role(cell["metadata"], source)
            assert role in kit_cells.ROLES, f"{path.name}, cell {place}: no mark; run `grade make-notebooks`"
            if role == kit_cells.EXERCISE:
                assert source.startswith(f"def {cell['metadata'][kit_cells.KEY]['function']}(")


@pytest.mark.unit
@pytest.mark.parametrize("part", PARTS, ids=[part.module for part in PARTS])
def test_the_worker_runs_no_demo_and_no_check_of_a_solved_notebook(part):
    notebook = _solved(part.module)
    run = _run_cells(notebook, part.module)
    roles = {place: cell.metadata.get(kit_cells.KEY, {}).get("role") for place, cell in enumerate(notebook.cells, 1)}
    assert kit_cells.DEMO in roles.values() and kit_cells.CHECK in roles.values(), "the kit marks its cells"
    for place, role in roles.items():
        if role in kit_cells.NEVER_RUN:
            assert place not in run, f"{part.module}: the kit's {role} cell {place} runs when grading:\n{run[place]}"
    exercise_places = [
        place
        for place, cell in enumerate(notebook.cells, start=1)
        if cell.metadata.get(kit_cells.KEY, {}).get("role") == kit_cells.EXERCISE
    ]
    assert all(place in run for place in exercise_places), "every exercise cell runs"


@pytest.mark.unit
def test_a_demo_that_calls_a_modules_function_does_not_count_as_changing_the_module():
    """With its marks gone (pasted into a fresh notebook), the slicer alone cuts it: ``regex.findall`` in a
    demo reads regex, it does not change what ``encode`` reads."""
    notebook = _solved()
    for cell in notebook.cells:
        cell.metadata.pop(kit_cells.KEY, None)
    run = _run_cells(notebook)
    walk = _place_of(notebook, 'sentence = "Tokenizers aren\'t magic: GPT-2 splits 2025 too."')
    assert walk not in run, run.get(walk)


@pytest.mark.unit
def test_a_modules_attribute_set_in_a_cell_still_counts_as_changing_it():
    sources = [
        "import regex\n\ndef word_tokenize(text):\n    return regex.findall(r'\\w+', text)",
        "regex.DEFAULT_VERSION = regex.VERSION1\nprint(regex.findall('a', 'banana'))",
    ]
    cells = [nbformat.v4.new_code_cell(source) for source in sources]
    run = _run_cells(nbformat.v4.new_notebook(cells=cells), "simple_tokenizers")
    assert run.get(2, "").strip() == "regex.DEFAULT_VERSION = regex.VERSION1", run


@pytest.mark.unit
def test_a_demo_the_student_edited_is_the_students_cell():
    """A helper written into a demo cell runs, as it did top to bottom; the demo's own lines are still cut."""
    notebook = _solved()
    demo = next(cell for cell in notebook.cells if cell.source.startswith("table = bytes_to_unicode()"))
    demo.source += "\n\n\ndef my_helper(text):\n    return text.upper()"
    place = notebook.cells.index(demo) + 1
    run = _run_cells(notebook)
    assert "def my_helper(text):" in run[place]
    assert "print(" not in run[place]


@pytest.mark.unit
def test_a_cell_the_student_added_runs_as_the_slicer_cuts_it():
    """Its definitions and what a graded function reads of it run; a call for its output is cut."""
    notebook = _solved()
    exercise = next(cell for cell in notebook.cells if cell.source.startswith("def decode("))
    exercise.source = exercise.source.replace("def decode(", "def _decode_unused(", 1)
    added = nbformat.v4.new_code_cell(
        'print(encode("hi", vocab, merges))\nREPLACE = "?"\n\n\ndef decode(ids, vocab):\n'
        '    return _decode_unused(ids, vocab).replace("\\ufffd", REPLACE)'
    )
    notebook.cells.insert(3, added)
    run = _run_cells(notebook)
    assert "def decode(ids, vocab):" in run[4] and 'REPLACE = "?"' in run[4]
    assert "print(" not in run[4], "a call for its output, reading the demos' vocab, is cut"


@pytest.mark.unit
def test_a_function_reading_a_name_only_a_kit_demo_defines_gets_a_line_naming_the_cell():
    """Top to bottom it ran; graded, the demo is left out: the note says where the name lives and what to do."""
    notebook = _solved()
    exercise = next(cell for cell in notebook.cells if cell.source.startswith("def decode("))
    exercise.source += "\n\n\ndef decode_with_table(ids):\n    return decode(ids, vocab)"
    text = nbformat.writes(notebook).encode("utf-8")
    wanted = {*part_of(PART).functions, "decode_with_table"}
    _, notes = notebook_cells(Path("n.ipynb"), {"n.ipynb": text}, "n.ipynb", DEFAULT_LIMITS, wanted)
    demo = _place_of(notebook, 'vocab, merges = load("data/gpt2")')
    assert [note for note in notes if "vocab" in note] == [
        f'cell {demo} (vocab, merges = load("data/gpt2")): vocab, which your code reads, is defined only in '
        "this cell of the kit's, which grading does not run: define it in a cell of your own"
    ], notes
    assert not [note for note in notes if "merges" in note.split(":")[1]], "merges is read by no function"


def _part_6_hand_ins(tmp_path: Path) -> dict[str, Path]:
    """A student's solved Part 6 notebook, the kit's own nbgrader notebook, and the solution as a module, each
    in a folder of its own beside the data the notebooks read."""
    sources = {
        "solved": exercises.render(_solved()),
        "nbgrader": exercises.committed_path(part_of(PART), "nbgrader").read_text(encoding="utf-8"),
    }
    folders = {}
    for name, text in sources.items():
        folder = tmp_path / name
        shutil.copytree(exercises.EXERCISES / "data", folder / "data")
        (folder / f"{PART}.ipynb").write_text(text, encoding="utf-8")
        folders[name] = folder
    module = tmp_path / "module"
    module.mkdir()
    shutil.copy(KIT_ROOT / "solutions" / f"{PART}.py", module / f"{PART}.py")
    folders["module"] = module
    return folders


def test_the_part_6_notebooks_grade_as_their_functions_with_no_line_about_the_kits_cells(tmp_path):
    """Graded as a hand-in, a solved Part 6 notebook scores what its module scores, and its report says nothing
    of the kit's demos: none raised, none printed, none changed a name a graded function reads."""
    folders = _part_6_hand_ins(tmp_path)
    graded = {name: grade(folder, "--part", PART, timeout=600) for name, folder in folders.items()}
    for name, (process, document) in graded.items():
        assert document, f"{name}: {process.stderr[-2000:]}"
    module_score = graded["module"][1]["score"]
    for name in ("solved", "nbgrader"):
        output = graded[name][1]["output"]
        assert "raised" not in output and "printed this while loading" not in output, f"{name}:\n{output}"
        assert graded[name][1]["score"] == module_score, f"{name}:\n{output}"


@pytest.mark.slow  # the real nbgrader's generate_assignment: half a minute
def test_nbgrader_keeps_the_kits_marks_through_its_release(tmp_path):
    """generate_assignment (its output cleared, solutions and hidden tests cut) keeps each cell's own metadata."""
    pytest.importorskip("nbgrader", reason="nbgrader is in the dev extra")
    course = tmp_path / "course"
    shutil.copytree(exercises.NBGRADER_COURSE, course)
    process = subprocess.run(
        [sys.executable, "-m", "nbgrader", "generate_assignment", exercises.NBGRADER_ASSIGNMENT, "--force"],
        cwd=course,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert process.returncode == 0, process.stderr[-3000:]
    released = course / "release" / exercises.NBGRADER_ASSIGNMENT / f"{PART}.ipynb"
    notebook = json.loads(released.read_text(encoding="utf-8"))
    roles = [cell["metadata"].get(kit_cells.KEY, {}).get("role") for cell in notebook["cells"]]
    code_roles = [role for role, cell in zip(roles, notebook["cells"], strict=True) if cell["cell_type"] == "code"]
    assert None not in code_roles and kit_cells.DEMO in code_roles
    run = _run_cells(nbformat.reads(released.read_text(encoding="utf-8"), as_version=4))
    demos = [place for place, role in enumerate(roles, start=1) if role == kit_cells.DEMO]
    assert not set(demos) & set(run), "the release's demos are still the kit's"
