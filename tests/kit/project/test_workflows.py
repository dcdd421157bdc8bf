"""The kit's own GitHub workflows: each one GitHub's schema accepts, and the student loop on every platform."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from autograder.kit_root import KIT_ROOT

WORKFLOWS = sorted((KIT_ROOT / ".github" / "workflows").glob("*.yml"))
STUDENT_LOOP = KIT_ROOT / ".github" / "workflows" / "student-loop.yml"
CLASSROOM = KIT_ROOT / "autograder" / "templates" / "classroom.yml"


@pytest.mark.parametrize("path", [*WORKFLOWS, CLASSROOM], ids=lambda path: path.name)
def test_each_workflow_of_the_kit_is_one_that_githubs_schema_accepts(path: Path):
    checked = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def _student_loop() -> dict:
    return yaml.safe_load(STUDENT_LOOP.read_text(encoding="utf-8"))


def test_the_student_loop_runs_on_windows_macos_and_linux_with_the_oldest_and_newest_python():
    (job,) = _student_loop()["jobs"].values()
    matrix = job["strategy"]["matrix"]
    assert set(matrix["os"]) == {"windows-latest", "macos-latest", "ubuntu-latest"}
    assert set(matrix["python"]) == {"3.11", "3.13"}
    assert job["strategy"]["fail-fast"] is False
    assert "BPE_KIT_CAGE" not in STUDENT_LOOP.read_text(encoding="utf-8"), "each platform picks its own path"


def test_the_student_loop_installs_the_release_with_the_readmes_own_commands():
    readme = (KIT_ROOT / "docs" / "students.md").read_text(encoding="utf-8")
    (job,) = _student_loop()["jobs"].values()
    installs = [step for step in job["steps"] if step.get("name", "").startswith("install the release")]
    assert {step["if"] for step in installs} == {"runner.os == 'Windows'", "runner.os != 'Windows'"}
    for step in installs:
        commands = [line for line in step["run"].splitlines() if line.startswith(("python -m venv", "pip", ".venv"))]
        commands += [line for line in step["run"].splitlines() if line.startswith("source ")]
        assert len(commands) == 3, step["run"]
        for command in commands:
            assert command in readme or f"`{command}`" in readme, (
                f"{STUDENT_LOOP.name}: `{command}` is not the README's"
            )


def test_the_student_loop_grades_the_stubs_the_reference_and_a_notebooks_check_cells():
    (job,) = _student_loop()["jobs"].values()
    scripts = "\n".join(step.get("run", "") for step in job["steps"])
    assert 'student_loop.py" score "$RUNNER_TEMP/stubs.json" none' in scripts
    assert 'student_loop.py" score "$RUNNER_TEMP/reference.json" full' in scripts
    assert "check-cells notebooks/bpe.ipynb" in scripts


def test_each_bash_step_of_the_student_loop_is_bash():
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash is not installed")
    (job,) = _student_loop()["jobs"].values()
    for step in job["steps"]:
        if "run" in step and step.get("shell", job["defaults"]["run"]["shell"]) == "bash":
            checked = subprocess.run([bash, "-n", "-c", step["run"]], capture_output=True, text=True)
            assert checked.returncode == 0, f"{step['name']}: {checked.stderr}"


def _student_loop_script():
    """The workflow's own checks, loaded from .github/scripts (not a package: the runners run it as a file)."""
    import importlib.util

    path = KIT_ROOT / ".github" / "scripts" / "student_loop.py"
    spec = importlib.util.spec_from_file_location("student_loop", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _report(tmp_path: Path, *tests: dict) -> Path:
    path = tmp_path / "report.json"
    path.write_text(json.dumps({"tests": list(tests)}), encoding="utf-8")
    return path


def _test(name: str, score: float, doc: str = "Encodes a text.") -> dict:
    return {"name": name, "score": score, "max_score": 2, "extra_data": {"doc": doc}}


def test_full_marks_leave_out_a_test_timed_against_the_reference_that_a_slow_runner_lost(tmp_path):
    loop = _student_loop_script()
    slow = _test("encode is fast", 0, "Runs within 3 times the reference's time.")
    assert loop.score(_report(tmp_path, _test("encode", 2), slow), "full") is None


def test_full_marks_still_fail_on_an_untimed_test_below_its_most(tmp_path):
    loop = _student_loop_script()
    problem = loop.score(_report(tmp_path, _test("encode", 1), _test("decode", 2)), "full")
    assert problem is not None and "first encode" in problem


def test_the_workflow_knows_timed_tests_by_the_kits_own_pattern():
    from results import TIMED

    assert _student_loop_script().TIMED.pattern == TIMED.pattern
