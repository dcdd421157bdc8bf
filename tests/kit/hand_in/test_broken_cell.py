"""A notebook cell that does not run is an error the student must fix, not a function "not started"."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import nbformat

from autograder.kit_root import KIT_ROOT

SOLUTION = (KIT_ROOT / "solutions" / "simple_tokenizers.py").read_text(encoding="utf-8")


def notebook_with_a_broken_cell(folder: Path) -> Path:
    """Part 1 as a notebook: every function right, but the cell that defines char_tokenize does not compile."""
    folder.mkdir(parents=True)
    broken = "def char_tokenize(text):\n    return list(text\n"
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell(broken),
        nbformat.v4.new_code_cell(SOLUTION.replace("def char_tokenize", "def _unused")),
    ]
    path = folder / "simple_tokenizers.ipynb"
    nbformat.write(notebook, path)
    return path


def test_a_cell_that_does_not_compile_is_an_error_naming_the_cell_and_line(tmp_path):
    path = notebook_with_a_broken_cell(tmp_path / "work")
    command = [sys.executable, "-m", "autograder.cli", str(path), "--suite", "public", "--no-cache"]
    document = json.loads(
        subprocess.run([*command, "--format", "json"], capture_output=True, text=True, timeout=300).stdout
    )
    outcomes = {test["extra_data"]["function"]: test["extra_data"]["outcome"] for test in document["tests"]}
    assert outcomes["char_tokenize"] == "error", outcomes
    assert {outcome for function, outcome in outcomes.items() if function != "char_tokenize"} == {"passed"}
    text = subprocess.run([*command, "--format", "markdown"], capture_output=True, text=True, timeout=300).stdout
    assert "a notebook cell does not run" in text and "never closed" in text and "line 2" in text, text
    assert "char_tokenize scored 0" in text and "not started" not in text, text
    assert text.count("was never closed") == 1, f"the cell's error is said once, where it is an error: {text}"


def test_the_batch_counts_a_broken_cell_as_an_error_not_as_not_started(tmp_path):
    notebook_with_a_broken_cell(tmp_path / "submissions" / "ada")
    out = tmp_path / "out"
    process = subprocess.run(
        [
            sys.executable,
            "-m",
            "autograder.cli",
            "batch",
            str(tmp_path / "submissions"),
            "-o",
            str(out),
            "--quiet",
            "--suite",
            "public",
            "--part",
            "simple_tokenizers",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert process.returncode == 0, process.stderr[-2000:]
    summary = (out / "summary.md").read_text(encoding="utf-8")
    row = next(line for line in summary.splitlines() if "`char_tokenize`" in line and "%" in line)
    assert row.strip(" |").split("|")[-1].strip() == "0%", f"char_tokenize counted as not started: {row}"
    feedback = (out / "ada" / "feedback.md").read_text(encoding="utf-8")
    assert "a notebook cell does not run" in feedback and "never closed" in feedback
