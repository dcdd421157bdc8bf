"""The student's loop: `grade` answers fast, from a cache of unchanged parts, and says one thing to fix."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from classroom import SOLUTIONS
from commands import grade, snapshot

# Its hand-ins step outside the plain-Python policy on purpose, to test the worker and the cage.
pytestmark = pytest.mark.without_policy

STUB_FOLDER = SOLUTIONS.parent / "student_template"


def write_notebook(path: Path, *cells: tuple[str, str]) -> Path:
    """A version 4 notebook of (cell type, source) cells, as Jupyter saves one."""
    shaped: list[dict[str, object]] = [
        {"cell_type": kind, "metadata": {}, "source": source}
        | ({"execution_count": None, "outputs": []} if kind == "code" else {})
        for kind, source in cells
    ]
    path.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": shaped}), encoding="utf-8")
    return path


def _grade_cached(path: Path, cache: Path, *arguments: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    """The real `grade`, with its cache in ``cache`` (the kit's tests otherwise run with the cache off)."""
    process = subprocess.run(
        [sys.executable, "-m", "autograder.cli", str(path), "--format", "json", *arguments],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=path.parent,
        env={**os.environ, "BPE_KIT_CACHE": str(cache)},
    )
    assert process.returncode in (0, 1), process.stderr[-2000:]
    return process, json.loads(process.stdout)


def _two_parts(folder: Path) -> Path:
    folder.mkdir()
    for module in ("simple_tokenizers", "bpe"):
        (folder / f"{module}.py").write_text((SOLUTIONS / f"{module}.py").read_text(encoding="utf-8"), encoding="utf-8")
    return folder


def test_an_unchanged_part_comes_from_the_cache_and_a_changed_one_is_graded_again(tmp_path):
    folder = _two_parts(tmp_path / "work")
    cache = tmp_path / "cache"
    before = snapshot(folder)
    first = _grade_cached(folder, cache, "--part", "simple_tokenizers", "--part", "bpe")[1]
    assert "unchanged since" not in first["output"]
    again = _grade_cached(folder, cache, "--part", "simple_tokenizers", "--part", "bpe")[1]
    assert "unchanged since they were last graded: Part 1, Part 2" in again["output"]
    assert [test["extra_data"] for test in again["tests"]] == [test["extra_data"] for test in first["tests"]]
    broken = (SOLUTIONS / "bpe.py").read_text(
        encoding="utf-8"
    ) + "\n\ndef merge_pair(tokens, pair):\n    return tokens\n"
    (folder / "bpe.py").write_text(broken, encoding="utf-8")
    changed = _grade_cached(folder, cache, "--part", "simple_tokenizers", "--part", "bpe")[1]
    assert "unchanged since they were last graded: Part 1 (" in changed["output"], "only Part 2 is graded again"
    assert changed["score"] < first["score"], "and its new mistake counts"
    assert snapshot(folder) == {**before, "bpe.py": broken.encode()}, "nothing is written beside the work"
    assert list(cache.glob("*.json")), "the cache is where BPE_KIT_CACHE says"
    fresh = _grade_cached(folder, cache, "--no-cache", "--part", "bpe")[1]
    assert "unchanged since" not in fresh["output"]


def test_a_first_grade_in_a_fresh_folder_never_says_unchanged_from_a_run_elsewhere(tmp_path):
    """A student's copy of the stubs has the same content as every other copy: its first run is its own."""
    cache = tmp_path / "cache"
    first_folder, fresh_folder = tmp_path / "A", tmp_path / "B"
    first_folder.mkdir()
    (first_folder / "simple_tokenizers.py").write_bytes((STUB_FOLDER / "simple_tokenizers.py").read_bytes())
    first = _grade_cached(first_folder, cache, "--part", "simple_tokenizers")[1]
    assert "unchanged since" not in first["output"]
    again = _grade_cached(first_folder, cache, "--part", "simple_tokenizers")[1]
    assert "unchanged since they were last graded: Part 1" in again["output"], "the same folder keeps its results"
    fresh_folder.mkdir()
    (fresh_folder / "simple_tokenizers.py").write_bytes((first_folder / "simple_tokenizers.py").read_bytes())
    fresh = _grade_cached(fresh_folder, cache, "--part", "simple_tokenizers")[1]
    assert "unchanged since" not in fresh["output"], fresh["output"]
    assert fresh["score"] == first["score"]


def test_a_kept_result_says_what_this_hand_in_holds_not_what_the_last_one_did(tmp_path):
    """The same code under another file name keeps its results, never the other name's notes."""
    cache = tmp_path / "cache"
    folders = []
    for name in ("bpe (1).py", "Bpe.py"):
        folder = tmp_path / name.split(".")[0]
        folder.mkdir()
        (folder / name).write_bytes((SOLUTIONS / "bpe.py").read_bytes())
        folders.append(folder)
    first = _grade_cached(folders[0], cache, "--part", "bpe")[1]
    assert "graded bpe (1).py as bpe.py" in first["output"]
    second = _grade_cached(folders[1], cache, "--part", "bpe")[1]
    assert "graded Bpe.py as bpe.py" in second["output"] and "bpe (1).py" not in second["output"], second["output"]


def test_a_notebook_runs_what_its_functions_need_and_not_its_demos(tmp_path):
    """A demo that would never end is left out; a constant an earlier cell defines is still there."""
    solution = (SOLUTIONS / "simple_tokenizers.py").read_text(encoding="utf-8")
    cells = [
        "import time\nSPACE = ' '",
        solution.replace("return text.split()", "return [word for word in text.split() if word != SPACE] or []"),
        "while True:  # a demo a student left running\n    time.sleep(1)",
        "char_tokenize('a demo call that prints') \nprint(build_char_vocab(['abc']))",
    ]
    path = write_notebook(
        tmp_path / "simple_tokenizers.ipynb", ("markdown", "# Part 1"), *(("code", cell) for cell in cells)
    )
    started = time.monotonic()
    process, document = grade(path, "--limit", "load_seconds=5")
    assert process.returncode == 0, process.stderr[-2000:]
    assert document["score"] == document["max_score"] == 30, document["output"]
    assert time.monotonic() - started < 60, "the endless demo did not run"


def test_a_notebook_grades_as_it_runs_when_a_later_cell_changes_a_table_a_function_reads(tmp_path):
    """A table filled by a call at the top level (``RULES.update(...)``) is filled when graded too."""
    solution = (SOLUTIONS / "simple_tokenizers.py").read_text(encoding="utf-8")
    cells = [
        "RULES = {}\nSEPARATORS = {}",
        solution.replace("return list(text)", "return list(text) if RULES.get('characters') else []").replace(
            "return text.split()", "return text.split(SEPARATORS.get('word'))"
        ),
        "RULES.update(characters=True)\nSEPARATORS['word'] = None\nprint(char_tokenize('hi'))",
    ]
    path = write_notebook(
        tmp_path / "simple_tokenizers.ipynb", ("markdown", "# Part 1"), *(("code", cell) for cell in cells)
    )
    process, document = grade(path)
    assert process.returncode == 0, process.stderr[-2000:]
    assert document["score"] == document["max_score"] == 30, document["output"]


def test_a_cell_that_fails_is_named_as_jupyter_shows_it(tmp_path):
    path = write_notebook(
        tmp_path / "simple_tokenizers.ipynb",
        ("markdown", "# Part 1"),
        ("code", "VOCAB = build()  # needed below, and broken\n"),
        ("code", "def char_tokenize(text):\n    return VOCAB\n"),
    )
    _, document = grade(path)
    assert "notebook cell 2 (VOCAB = build()" in document["output"], document["output"]


def test_grade_outside_a_hand_in_says_where_to_run_it(tmp_path):
    home = tmp_path / "home"
    for index in range(3):
        (home / f"folder{index}").mkdir(parents=True)
    (home / "notes.txt").write_text("not code", encoding="utf-8")
    process, _ = grade(home)
    assert process.returncode == 2
    assert "no hand-in here: run grade inside your bpe-kit-student folder, or give the path" in process.stderr
    assert process.stderr.count("\n") == 1


def bpe_feedback(folder: Path) -> str:
    """``grade``'s Markdown feedback on the folder's Part 2."""
    return subprocess.run(
        [sys.executable, "-m", "autograder.cli", str(folder), "--part", "bpe", "--format", "markdown"],
        capture_output=True,
        text=True,
        timeout=300,
    ).stdout


def test_a_file_that_does_not_load_is_one_entry_with_its_place_once(tmp_path):
    folder = _two_parts(tmp_path / "work")
    (folder / "bpe.py").write_text("def get_pair_counts(tokens):\n    return {\n", encoding="utf-8")
    feedback = bpe_feedback(folder)
    assert feedback.count("could not be imported") == 1, feedback
    assert feedback.count("line 2") == 1, "the place is named once"
    assert "### bpe: does not load" in feedback


def test_an_error_names_the_students_own_line_nearest_where_it_was_raised(tmp_path):
    folder = _two_parts(tmp_path / "work")
    (folder / "helper.py").write_text("def pairs(tokens):\n    x = 1\n    return {}[tokens[0]]\n", encoding="utf-8")
    bpe = (folder / "bpe.py").read_text(encoding="utf-8")
    (folder / "bpe.py").write_text(
        bpe.replace("def get_pair_counts(", "import helper\n\n\ndef _get_pair_counts(", 1)
        + "\n\ndef get_pair_counts(tokens):\n    return helper.pairs(tokens)\n",
        encoding="utf-8",
    )
    feedback = bpe_feedback(folder)
    assert "raised KeyError" in feedback, feedback
    assert "(helper.py, line 3)" in feedback, "the deepest of the student's frames, in a module bpe.py imports"


@pytest.mark.slow
def test_a_one_part_hand_in_is_not_started_elsewhere_and_missing_functions_are_not_errors(tmp_path):
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "simple_tokenizers.py").write_text("def char_tokenize(text):\n    return list(text)\n", encoding="utf-8")
    process, document = grade(folder)
    outcomes = {(test["extra_data"]["module"], test["extra_data"]["outcome"]) for test in document["tests"]}
    assert ("simple_tokenizers", "error") not in outcomes, "a function not written yet is not started"
    assert ("simple_tokenizers", "passed") in outcomes
    markdown = subprocess.run(
        [sys.executable, "-m", "autograder.cli", str(folder), "--format", "markdown"],
        capture_output=True,
        text=True,
        timeout=300,
    ).stdout
    assert markdown.count("\n") < 60, f"a not-started part is one line, not one per test:\n{markdown}"
    assert "| Part 3: Word-level BPE | (every function) | not started |" in markdown


def test_a_file_named_after_a_part_grades_that_part_only(tmp_path):
    folder = _two_parts(tmp_path / "work")
    _, document = grade(folder / "bpe.py")
    assert {test["extra_data"]["module"] for test in document["tests"]} == {"bpe"}
    assert document["score"] == document["max_score"] == 71


def test_a_single_notebook_is_graded_with_its_data_folder(tmp_path):
    (tmp_path / "notebooks" / "data").mkdir(parents=True)
    (tmp_path / "notebooks" / "data" / "words.txt").write_text("to be", encoding="utf-8")
    path = write_notebook(
        tmp_path / "notebooks" / "simple_tokenizers.ipynb",
        ("code", "WORDS = open('data/words.txt').read().split()"),
        ("code", "def char_tokenize(text):\n    return list(text) if WORDS else []\n"),
    )
    _, document = grade(path)
    char = [test for test in document["tests"] if test["extra_data"]["function"] == "char_tokenize"]
    assert char and all(test["status"] == "passed" for test in char), document["output"]


def test_the_public_examples_say_what_they_are(tmp_path):
    folder = _two_parts(tmp_path / "work")
    process = subprocess.run(
        [sys.executable, "-m", "autograder.cli", str(folder), "--suite", "public", "--part", "bpe"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    # Rich wraps the line at the terminal's width: read it as one line.
    said = " ".join(process.stdout.split())
    assert re.search(
        r"Public checks: \d+ of \d+ passed, [\d.]+ / [\d.]+ points \(\d+%\); your course grade comes from the "
        r"hidden tests\. Took \d+\.\d s\.",
        said,
    ), said


def test_a_property_shows_the_example_it_failed_on_never_an_empty_expected(reference_with):
    wrong = "\n\ndef decode(ids, vocab):\n    return ''.join(sorted(vocab)[i] for i in ids)\n"
    folder = reference_with(only=("bpe",), bpe=wrong)
    _, document = grade(folder, "--part", "bpe")
    properties = [
        test
        for test in document["tests"]
        if test["extra_data"]["test"].startswith("test_hyp") and test["extra_data"]["outcome"] == "failed"
    ]
    assert properties, "the wrong decode fails a property"
    for test in properties:
        assert "expected: ''" not in test["output"]
        assert "example:  " in test["output"], test["output"]


def test_a_slow_import_says_what_it_waits_for(tmp_path):
    """On a terminal, a file that loops at the top shows "importing bpe.py…" while grade waits."""
    folder = _two_parts(tmp_path / "work")
    (folder / "bpe.py").write_text("import time\ntime.sleep(3)\n", encoding="utf-8")
    primary, secondary = pty.openpty()
    try:
        process = subprocess.run(
            [sys.executable, "-m", "autograder.cli", str(folder), "--part", "bpe", "--limit", "load_seconds=2"],
            stdout=subprocess.DEVNULL,
            stderr=secondary,
            timeout=120,
        )
        os.set_blocking(primary, False)
        said = b""
        while True:
            try:
                chunk = os.read(primary, 65536)
            except (BlockingIOError, OSError):
                break
            if not chunk:
                break
            said += chunk
    finally:
        os.close(primary)
        os.close(secondary)
    assert process.returncode in (0, 1)
    text = said.decode("utf-8", "replace")
    assert "importing bpe.py" in text and "load_seconds" in text, text


@pytest.mark.skipif(not STUB_FOLDER.is_dir(), reason="the kit's own stubs")
def test_grade_starts_talking_at_once_on_a_terminal(tmp_path):
    primary, secondary = pty.openpty()
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "autograder.cli", str(STUB_FOLDER), "--part", "simple_tokenizers"],
            stdout=subprocess.DEVNULL,
            stderr=secondary,
        )
        first = os.read(primary, 4096).decode("utf-8", "replace")
        process.wait(timeout=120)
    finally:
        os.close(primary)
        os.close(secondary)
    assert first.startswith("grading "), first


@pytest.mark.unit
def test_a_name_a_function_binds_itself_keeps_no_demo_cell():
    """A parameter or local called `merges` is not the demo's `merges`; a global the function reads is kept."""
    from autograder.hand_in.notebook_slice import needed_cells

    cells = [
        "LIMIT = 3",
        "merges = train_for_minutes()  # the exploration",
        "def encode(text, merges):\n    tokens = list(text)[:LIMIT]\n    return [t for t in tokens if (t, t) not in merges]",
        "def counter():\n    global calls\n    calls += 1",
        "calls = 0",
        "import re\nimport matplotlib.pyplot as plt",
        "def words(text):\n    return re.findall(r'\\w+', text)",
    ]
    kept = needed_cells(cells, {"encode", "counter", "words"})
    assert kept[1].strip() == "", "the demo that binds `merges` is left out"
    assert kept[0] == "LIMIT = 3" and kept[4] == "calls = 0", "globals the functions read stay"
    assert kept[5] == "import re\n", "an import a function reads stays; the plots' import is never loaded"
