"""What the README and the instructors' pages promise: ``pip install -e .``, with no extra, is enough to grade.

A fresh venv gets the kit as an instructor installs it there, with none of what ``[dev]`` adds (the
notebooks' Jupyter, the docs site, lint and types, the kit's own tests' tools), and grades the reference
with the hidden suite and a small class of a module hand-in, a notebook and the stubs.
"""

from __future__ import annotations

import csv
import json
import shutil
import sys

import pytest
from allowed_versions import run
from classroom import SUBMISSIONS, Student, write_submission

from autograder.kit_root import KIT_ROOT

# One module of each that [dev] brings (its extras included) and grading must not need.
ONLY_WITH_DEV = ("nbformat", "jupyterlab", "ipykernel", "mkdocs", "ruff", "mypy", "xdist", "selenium", "nbgrader")


@pytest.mark.slow
def test_a_plain_install_grades_the_reference_and_a_class(tmp_path):
    environment = tmp_path / "venv"
    run([sys.executable, "-m", "venv", environment])
    python, grade = environment / "bin" / "python", environment / "bin" / "grade"
    run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-e", KIT_ROOT])
    found = "import importlib.util; print(*[name for name in {!r} if importlib.util.find_spec(name)])"
    assert run([python, "-c", found.format(ONLY_WITH_DEV)]).stdout.strip() == "", "[dev]'s packages came along"

    reference = json.loads(run([grade, "solutions", "--format", "json", "--no-cache"], cwd=KIT_ROOT).stdout)
    assert reference["max_score"] > 0 and reference["score"] >= reference["max_score"], "the reference's full marks"

    submissions = tmp_path / "class"
    write_submission(submissions, Student("ada", "correct"))
    write_submission(submissions, Student("bea", "not started"))
    shutil.copytree(SUBMISSIONS / "correct" / "notebook", submissions / "cyd")
    run([grade, "batch", submissions, "-o", tmp_path / "out", "--quiet"], cwd=tmp_path)
    with (tmp_path / "out" / "gradebook.csv").open(encoding="utf-8", newline="") as table:
        totals = {row["id"]: float(row["total"]) for row in csv.DictReader(table)}
    assert set(totals) == {"ada", "bea", "cyd"}
    assert totals["ada"] > totals["cyd"] > totals["bea"] == 0, f"each graded as its work earns: {totals}"
    assert all((tmp_path / "out" / student / "results.json").is_file() for student in totals)


@pytest.mark.unit
def test_the_project_lists_every_package_of_the_kit():
    """setuptools installs the packages pyproject.toml lists and no others: hand_in/lms/ was left out of the
    list, which an editable install hides (it finds subfolders by path) and a wheel would not."""
    import tomllib

    listed = tomllib.loads((KIT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]
    found = sorted(
        ".".join(init.parent.relative_to(KIT_ROOT).parts) for init in (KIT_ROOT / "autograder").rglob("__init__.py")
    )
    assert sorted(listed) == found, "pyproject.toml's [tool.setuptools] packages: list each package of autograder/"
