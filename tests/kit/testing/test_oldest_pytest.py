"""The grader on the oldest pytest that pyproject.toml allows, and the private pytest API its collector takes.

pyproject.toml pins pytest to the range the kit tests: the newest release in it is the one CI installs,
the oldest is graded with here, in a venv of its own (a plain one: the packages of this run must not
stand in for the ones pinned). pytest 8.0 to 9.0 lost every failed test's hint without a word while the
scores stayed right, so the check is the hint a student reads, not the score.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
from pathlib import Path

import pytest
from allowed_versions import installed_version, kit_venv, oldest_allowed, run

from autograder.kit_root import KIT_ROOT

COLLECTED = KIT_ROOT / "autograder" / "testing" / "collected.py"
# Merges nothing: every test of a merge that happens fails on its assertion, beside its hint.
MERGES_NOTHING = "def merge_pair(tokens, pair):\n    return list(tokens)\n"
# What autograder.testing.collected takes from pytest that pytest keeps private (pytest.main's own steps),
# as (module, attribute path).
PRIVATE_API = (
    ("_pytest.config", "_prepareconfig"),
    ("pytest", "Config._do_configure"),
    ("pytest", "Config._ensure_unconfigure"),
)


def hints_written(test_file: Path) -> set[str]:
    """The hint texts a graded test file writes out whole (``hint("...")``)."""
    return {
        node.args[0].value
        for node in ast.walk(ast.parse(test_file.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "hint"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    }


@pytest.mark.slow
def test_the_oldest_allowed_pytest_grades_with_every_hint(tmp_path):
    oldest = oldest_allowed("pytest")
    environment = tmp_path / "venv"
    python = kit_venv(environment, f"pytest=={oldest}")
    assert installed_version(python, "pytest") == oldest

    (tmp_path / "bpe.py").write_text(MERGES_NOTHING, encoding="utf-8")
    graded = run([environment / "bin" / "grade", "bpe.py", "--suite", "hidden", "--format", "json"], cwd=tmp_path)
    tests = [test["extra_data"] for test in json.loads(graded.stdout)["tests"]]
    assert not [test for test in tests if test["outcome"] == "grader error"], f"pytest {oldest}: {tests}"
    failed = [test for test in tests if test["function"] == "merge_pair" and test["outcome"] == "failed"]
    assert len(failed) >= 3, f"pytest {oldest}: a merge_pair that merges nothing failed only {failed}"
    shown = [test["hint"] for test in failed]
    written = hints_written(KIT_ROOT / "tests" / "hidden" / "bpe" / "test_merge_pair.py")
    assert all(shown) and set(shown) <= written, f"pytest {oldest} lost the hints: {shown}"


@pytest.mark.unit
@pytest.mark.parametrize(("module", "path"), PRIVATE_API, ids=[".".join(entry) for entry in PRIVATE_API])
def test_pytest_still_has_the_private_api_the_collector_takes(module, path):
    found: object = importlib.import_module(module)
    for name in path.split("."):
        assert hasattr(found, name), (
            f"pytest {pytest.__version__} has no {module}.{path}, which autograder.testing.collected calls to keep "
            f"one session open: keep pyproject.toml's pytest below {pytest.__version__}, or port CollectedSuite"
        )
        found = getattr(found, name)
    if path == "_prepareconfig":
        assert callable(found)
        assert {"args", "plugins"} <= set(inspect.signature(found).parameters), (
            f"pytest {pytest.__version__}'s _prepareconfig no longer takes (args, plugins) as collected.py calls it"
        )


@pytest.mark.unit
def test_the_collector_takes_no_private_pytest_api_left_unchecked():
    """Every ``_pytest`` import and private ``Config`` method in collected.py is in PRIVATE_API."""
    taken: set[tuple[str, str]] = set()
    for node in ast.walk(ast.parse(COLLECTED.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("_pytest"):
            taken.update((node.module, alias.name) for alias in node.names)
        if (  # a private name taken from a configuration: self._config, config, item.config
            isinstance(node, ast.Attribute)
            and ast.unparse(node.value).endswith("config")
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ):
            taken.add(("pytest", f"Config.{node.attr}"))
    assert taken <= set(PRIVATE_API), f"add to PRIVATE_API: {sorted(taken - set(PRIVATE_API))}"
