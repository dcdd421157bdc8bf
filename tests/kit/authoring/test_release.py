"""What leaves the repository: the student release (no leak, works after one install) and the Gradescope package."""

from __future__ import annotations

import base64
import json
import os
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import nbformat
import pytest
from classroom import SOLUTIONS
from results import full_marks

from autograder.authoring.release import (
    RELEASE_NAME,
    ReleaseError,
    build_gradescope,
    build_release,
    hidden_test_lines,
    pinned,
)
from autograder.authoring.stubs import expected_stubs, solution_lines
from autograder.hand_in.policy import POLICY_PAGE
from autograder.kit_root import KIT_ROOT
from autograder.parts import PARTS
from autograder.scoring.points import suite_points

# Its hand-ins step outside the plain-Python policy on purpose, to test the worker and the cage.
pytestmark = pytest.mark.without_policy

# Gradescope's published results.json fields (gradescope-autograders.readthedocs.io, "Autograder Specifications").
RESULT_FIELDS = {
    "score",
    "execution_time",
    "output",
    "output_format",
    "test_output_format",
    "test_name_format",
    "visibility",
    "stdout_visibility",
    "extra_data",
    "tests",
    "leaderboard",
}
TEST_FIELDS = {
    "score",
    "max_score",
    "status",
    "name",
    "name_format",
    "number",
    "output",
    "output_format",
    "tags",
    "visibility",
    "extra_data",
}
VISIBILITIES = {"hidden", "after_due_date", "after_published", "visible"}


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("release")
    folder, archive = build_release(out, github_classroom=True)
    assert archive == out / f"{RELEASE_NAME}.zip" and folder == out / RELEASE_NAME
    return folder


@pytest.mark.unit
def test_the_release_holds_the_stubs_notebooks_public_tests_and_grader(release):
    names = {path.relative_to(release).as_posix() for path in release.rglob("*") if path.is_file()}
    assert not any(name.startswith(("solutions/", "tests/hidden/", "tests/kit/")) for name in names)
    for file_name, text in expected_stubs().items():
        assert (release / "modules" / file_name).read_text(encoding="utf-8") == text
    assert {f"notebooks/{part.module}.ipynb" for part in PARTS} <= names
    assert "notebooks/data/shakespeare.txt" in names and "tests/public/bpe/test_merge_pair.py" in names
    assert "README.md" in names and "pip install -e ." in (release / "README.md").read_text(encoding="utf-8")
    assert (release / "README.md").read_bytes() == (KIT_ROOT / "docs" / "students.md").read_bytes()
    assert (release / POLICY_PAGE).read_bytes() == (KIT_ROOT / POLICY_PAGE).read_bytes(), "a refusal names it"
    assert ".github/workflows/classroom.yml" in names
    with zipfile.ZipFile(release.parent / f"{RELEASE_NAME}.zip") as archive:
        assert {name.removeprefix(f"{RELEASE_NAME}/") for name in archive.namelist()} == names


def environment_with_these_packages(folder: Path) -> Path:
    """A new virtual environment that also sees the packages of the one running the tests; its python.

    Offline, so it cannot download what it needs: it reads them where this
    interpreter does. Not ``--system-site-packages``: inside a venv that
    means the base interpreter's packages (an older setuptools, no pytest),
    not this venv's. A ``.pth`` naming this interpreter's site folders works
    the same from a venv and from a plain interpreter; its plain path lines
    add the folders without running their own ``.pth`` files, so the kit's
    editable install does not follow into the new environment.
    """
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    own = subprocess.run(
        [str(python), "-c", "import site; print(site.getsitepackages()[0])"], capture_output=True, text=True, check=True
    ).stdout.strip()
    ours = [path for path in site.getsitepackages() if Path(path).is_dir()]
    (Path(own) / "packages-of-the-test-run.pth").write_text("\n".join(ours) + "\n", encoding="utf-8")
    return python


@pytest.mark.slow
def test_a_student_installs_the_release_with_one_command_and_grades(release, tmp_path):
    """The README's `pip install -e .` in a fresh environment, then `grade` there: stubs 0, solutions full marks."""
    student = tmp_path / RELEASE_NAME
    shutil.copytree(release, student)
    environment = tmp_path / "venv"
    # Offline: the environment sees the test run's packages, and setuptools builds without isolation.
    python = environment_with_these_packages(environment)
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-deps", "-e", "."],
        cwd=student,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, install.stderr[-2000:]
    grade_command = environment / "bin" / "grade"

    def grade_here(*arguments: str) -> dict[str, Any]:
        process = subprocess.run(
            [str(grade_command), *arguments, "--format", "json"],
            cwd=student,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert process.returncode == 0, process.stderr
        return json.loads(process.stdout)

    where = subprocess.run(
        [str(python), "-c", "import autograder.testing.suites as s; print(s.KIT_ROOT)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert where.stdout.strip() == str(student), "the release's own grader and public tests"
    # The release's help lists the student's commands; an instructor's says it is not there.
    helped = subprocess.run([str(grade_command), "--help"], cwd=student, capture_output=True, text=True, check=True)
    assert "submission" in helped.stdout
    assert not any(command in helped.stdout for command in ("batch", "release", "gradescope", "make-stubs"))
    refused = subprocess.run([str(grade_command), "make-stubs"], cwd=student, capture_output=True, text=True)
    assert refused.returncode == 2 and "for instructors" in refused.stderr
    assert not (student / "student_template").exists(), "and it made nothing"
    untouched = grade_here()
    assert untouched["extra_data"]["suite"] == "public"
    assert untouched["score"] == 0
    assert {test["extra_data"]["outcome"] for test in untouched["tests"]} == {"not started"}
    notebooks = grade_here("notebooks")  # the README's command: the folder, never an instructor command
    assert notebooks["extra_data"]["submission"] == "notebooks" and notebooks["score"] == 0
    # A notebook's check cell, in a kernel of that environment: the release's public tests, the student's cells.
    run_notebook = (
        "import nbformat\nfrom nbclient import NotebookClient\n"
        "notebook = nbformat.read('bpe.ipynb', as_version=4)\n"
        "NotebookClient(notebook, timeout=120, kernel_name='python3', allow_errors=True).execute()\n"
        "cell = next(c for c in notebook.cells if c.cell_type == 'code' and c.source.startswith('check('))\n"
        "print(''.join(o.get('text', '') or o.get('data', {}).get('text/plain', '') for o in cell.outputs))\n"
    )
    checked = subprocess.run(
        [str(python), "-c", run_notebook], cwd=student / "notebooks", capture_output=True, text=True, timeout=300
    )
    assert "not started" in checked.stdout and "Public checks: 0 of " in checked.stdout, checked.stderr[-2000:]
    for part in PARTS:
        shutil.copy2(SOLUTIONS / f"{part.module}.py", student / "modules")
    finished = grade_here()
    course = suite_points("hidden")  # the course's points, which the release's course.toml carries
    assert finished["score"] == course.full_marks + course.bonus_total
    assert "each part counts from the folder where it scores better: Part 1 from modules/" in finished["output"]


@pytest.mark.unit
@pytest.mark.parametrize(
    "where",
    [
        "a solution line in a public test",
        "a hidden test's statement in a notebook",
        "a hidden test's statement in a public test",
    ],
)
def test_the_release_build_fails_on_a_leak_by_content(where, tmp_path):
    kit = tmp_path / "kit"
    for part in ("autograder", "solutions", "tests/public", "tests/hidden", "exercises", "docs", "pyproject.toml"):
        copy = shutil.copytree if (KIT_ROOT / part).is_dir() else shutil.copy2
        copy(KIT_ROOT / part, kit / part)
    if where.startswith("a solution"):
        target = kit / "tests" / "public" / "bpe" / "test_merge_pair.py"
        with target.open("a", encoding="utf-8") as stream:
            stream.write(f"\n\ndef helper_copied_from_elsewhere():\n    {sorted(solution_lines())[0]}\n")
        shown = "tests/public/bpe/test_merge_pair.py"
    elif where.endswith("in a public test"):  # a hidden input reused in the public suite ships with it
        target = kit / "tests" / "public" / "bpe" / "test_merge_pair.py"
        with target.open("a", encoding="utf-8") as stream:
            stream.write(f"\n\ndef test_borrowed(submission):\n    {sorted(hidden_test_lines())[0]}\n")
        shown = "tests/public/bpe/test_merge_pair.py"
    else:
        target = kit / "exercises" / "bpe.ipynb"
        notebook = nbformat.read(target, as_version=4)
        notebook.cells.append(nbformat.v4.new_code_cell(f"# a peek at the grader\n{sorted(hidden_test_lines())[0]}"))
        nbformat.write(notebook, target)
        shown = "notebooks/bpe.ipynb"
    with pytest.raises(ReleaseError, match=f"{shown}: holds"):
        build_release(tmp_path / "out", kit=kit)
    assert not (tmp_path / "out" / RELEASE_NAME).exists(), "nothing is written when the build fails"


def test_grade_release_refuses_to_replace_a_folder_it_did_not_make(tmp_path):
    (tmp_path / RELEASE_NAME).mkdir()
    (tmp_path / RELEASE_NAME / "notes.txt").write_text("mine", encoding="utf-8")
    process = subprocess.run(
        [sys.executable, "-m", "autograder.cli", "release", str(tmp_path)], capture_output=True, text=True, timeout=120
    )
    assert process.returncode == 2 and "was not made by `grade release`" in process.stderr
    assert (tmp_path / RELEASE_NAME / "notes.txt").read_text(encoding="utf-8") == "mine"


@pytest.mark.parametrize(
    ("build", "inside"),
    [
        (lambda kit, out: build_release(out, kit=kit), "autograder/out"),
        (lambda kit, out: build_release(out, kit=kit), "exercises/data/out"),
        (lambda kit, out: build_gradescope(out / "package.zip", kit=kit), "tests/hidden/out"),
    ],
)
def test_a_build_refuses_an_output_inside_a_folder_it_copies(build, inside, tmp_path):
    kit = tmp_path / "kit"
    for needed in ("autograder", "solutions", "tests/hidden", "tests/public", "exercises/data"):
        (kit / needed).mkdir(parents=True)
    out = kit / inside
    with pytest.raises(ReleaseError, match="which the build copies whole; choose a folder outside it"):
        build(kit, out)
    assert not out.exists()


@pytest.mark.slow
def test_classroom_format_is_the_grading_reporters_shape(tmp_path):
    folder = tmp_path / "student"
    folder.mkdir()
    shutil.copy2(SOLUTIONS / "simple_tokenizers.py", folder)
    process = subprocess.run(
        [sys.executable, "-m", "autograder.cli", str(folder), "--format", "classroom"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    result = json.loads(base64.b64decode(base64.b64encode(process.stdout.encode())))  # as the workflow ships it
    assert set(result) == {"version", "status", "max_score", "tests"} and result["version"] == 1
    assert result["status"] == "fail", "the other parts are not started"
    assert {test["status"] for test in result["tests"]} == {"pass", "fail"}
    assert all({"name", "status", "message", "score"} <= set(test) for test in result["tests"])
    assert sum(test["score"] for test in result["tests"]) == float(full_marks("simple_tokenizers"))


# -- Gradescope ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def autograder_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fake /autograder: the package unzipped into source/, setup.sh run as Gradescope runs it."""
    root = tmp_path_factory.mktemp("fake") / "autograder"
    package = build_gradescope(root.parent / "autograder.zip")
    with zipfile.ZipFile(package) as archive:
        assert {"setup.sh", "run_autograder", "requirements.txt"} <= set(archive.namelist())
        archive.extractall(root / "source")
    for script in ("setup.sh", "run_autograder"):
        (root / "source" / script).chmod(0o755)  # zipfile does not restore modes; Gradescope's unzip does
    shutil.copy2(root / "source" / "run_autograder", root / "run_autograder")
    setup = subprocess.run(
        ["bash", str(root / "source" / "setup.sh")],
        cwd=root / "source",
        env={**os.environ, "AUTOGRADER_ROOT": str(root), "BPE_KIT_PYTHON": sys.executable},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert setup.returncode == 0, setup.stderr[-3000:]
    return root


@pytest.mark.unit
def test_gradescopes_requirements_pin_the_versions_this_grader_runs():
    """The image installs what the instructor's grader runs, not whatever a range allows on the day it builds."""
    import importlib.metadata

    assert pinned("regex>=2023.0") == f"regex=={importlib.metadata.version('regex')}"
    assert pinned("rich[jupyter]>=13 ; python_version >= '3.11'") == (
        f"rich[jupyter]=={importlib.metadata.version('rich')}; python_version >= '3.11'"
    )
    assert pinned("not-installed-here>=1; sys_platform == 'win32'") == "not-installed-here>=1; sys_platform == 'win32'"


SETUP = KIT_ROOT / "autograder" / "templates" / "gradescope_setup.sh"


def _fake_python(folder: Path, name: str, *, runs: bool) -> None:
    """A program called ``name``: a shim whose Python is missing (pyenv's, "No such file"), or one that runs and
    writes down that it was asked for a venv, then stops setup.sh there."""
    body = f'echo "{name} $*" >> "{folder}/asked"; exit 1' if runs else 'echo "no such file" >&2; exit 127'
    if runs:
        body = f'case "$1" in -c) exit 0;; esac; {body}'
    (folder / name).write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    (folder / name).chmod(0o755)


def test_gradescopes_setup_takes_the_first_python_that_runs_not_the_first_name_on_path(tmp_path):
    """A python3.13 on PATH that is a shim with nothing behind it is passed over for a python3.12 that runs."""
    _fake_python(tmp_path, "python3.13", runs=False)
    _fake_python(tmp_path, "python3.12", runs=True)
    env = {"PATH": f"{tmp_path}:/usr/bin:/bin", "AUTOGRADER_ROOT": str(tmp_path / "root")}
    subprocess.run(["bash", str(SETUP)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert (tmp_path / "asked").read_text(encoding="utf-8").startswith("python3.12 -m venv")


def test_gradescopes_setup_refuses_a_named_python_that_does_not_run_in_one_line(tmp_path):
    _fake_python(tmp_path, "python3.13", runs=False)
    env = {"PATH": "/usr/bin:/bin", "BPE_KIT_PYTHON": str(tmp_path / "python3.13")}
    setup = subprocess.run(["bash", str(SETUP)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert setup.returncode == 1
    assert setup.stderr.strip().splitlines() == [
        f"setup.sh: BPE_KIT_PYTHON={tmp_path / 'python3.13'} does not run as Python 3.11 or newer with venv: "
        "name one that does"
    ]


def run_autograder(root: Path, files: dict[str, str]) -> dict[str, Any]:
    submission = root / "submission"
    shutil.rmtree(submission, ignore_errors=True)
    shutil.rmtree(root / "results", ignore_errors=True)
    for name, text in files.items():
        (submission / name).parent.mkdir(parents=True, exist_ok=True)
        (submission / name).write_text(text, encoding="utf-8")
    submission.mkdir(exist_ok=True)
    process = subprocess.run(
        [str(root / "run_autograder")],
        env={**os.environ, "AUTOGRADER_ROOT": str(root)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert process.returncode == 0, process.stderr[-3000:]
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    assert set(results) <= RESULT_FIELDS
    assert isinstance(results["score"], int | float) and results["stdout_visibility"] == "hidden"
    for test in results["tests"]:
        assert set(test) <= TEST_FIELDS and {"name", "score", "max_score", "status"} <= set(test)
        assert test["status"] in ("passed", "failed") and test["visibility"] in VISIBILITIES
    return results


def solution_files(*modules: str) -> dict[str, str]:
    return {f"{module}.py": (SOLUTIONS / f"{module}.py").read_text(encoding="utf-8") for module in modules}


@pytest.mark.slow
def test_gradescope_grades_a_good_submission_with_the_hidden_tests(autograder_root):
    results = run_autograder(autograder_root, solution_files(*(part.module for part in PARTS)))
    assert f"{results['score']:g}" == full_marks()
    assert results["extra_data"]["suite"] == "hidden"
    bonus = [test for test in results["tests"] if test["extra_data"]["bonus"]]
    assert bonus and all(test["max_score"] == 0 and test["score"] > 0 for test in bonus), "extra credit"


@pytest.mark.slow
def test_gradescope_grades_a_repository_made_from_the_release(autograder_root):
    files = {f"modules/{name}": text for name, text in solution_files("simple_tokenizers", "bpe").items()}
    files["notebooks/bpe.ipynb"] = (KIT_ROOT / "exercises" / "bpe.ipynb").read_text(encoding="utf-8")
    results = run_autograder(autograder_root, {**files, "README.md": "mine"})
    assert f"{results['score']:g}" == full_marks("simple_tokenizers", "bpe")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("files", "says"),
    [
        ({"bpe.py": "def merge_pair(tokens, pair:\n    return tokens\n"}, "SyntaxError"),
        ({"bpe.py": "import sys\nsys.exit(0)\n"}, ""),
        (
            {
                "bpe.py": "class Anything(list):\n    def __eq__(self, other):\n        return True\n\n"
                "def merge_pair(tokens, pair):\n    return Anything()\n"
            },
            "",
        ),
        ({"notes.txt": "I could not finish"}, "could not be graded"),
    ],
    ids=["broken", "exits at import", "always-equal answer", "nothing gradable"],
)
def test_gradescope_always_writes_results_and_a_bad_submission_earns_nothing(autograder_root, files, says):
    results = run_autograder(autograder_root, files)
    assert results["score"] == 0
    text = results["output"] + "".join(test["output"] for test in results["tests"])
    assert says in text
