"""The grader at both ends of the hypothesis range pyproject.toml allows, and the private hypothesis API it takes.

The plugin seeds each hidden property from the hand-in's example set and turns its shrinking off through
attributes hypothesis keeps private, reads the failing example from the note hypothesis adds, and the
collector replaces a private step of hypothesis's providers. None of that is promised from one release to
the next, so pyproject.toml bounds hypothesis above as well as below, and each end is graded with here, in
a venv of its own: the kit's tests of the seeding and of the words made again, then a hand-in whose
properties fail, graded twice.
"""

from __future__ import annotations

import ast
import importlib
import json
from pathlib import Path

import pytest
from allowed_versions import dependency, installed_version, kit_venv, oldest_allowed, run
from packaging.version import Version

from autograder.kit_root import KIT_ROOT

PROVIDERS = "hypothesis.internal.conjecture.providers"
# What the kit takes from hypothesis that hypothesis keeps private, as (where, name): "given" for an
# attribute of a @given test, else the module it is read from.
PRIVATE_API = (
    ("given", "_hypothesis_internal_use_settings"),
    ("given", "_hypothesis_internal_use_seed"),
    (PROVIDERS, "_get_local_constants"),
    (PROVIDERS, "_local_constants"),
    (PROVIDERS, "CONSTANTS_CACHE"),
)
# The kit's tests of what those serve: each hand-in's draw (the seed), and a failure's words made again alone.
PLUGIN_TESTS = ("tests/kit/testing/test_example_sets.py", "tests/kit/testing/test_own_words.py")
# Merges nothing: every property of merge_pair fails, on an example hypothesis shrank.
MERGES_NOTHING = "def merge_pair(tokens, pair):\n    return list(tokens)\n"


def taken_from_hypothesis(source: str) -> set[tuple[str, str]]:
    """The private hypothesis names ``source`` uses: a test's ``_hypothesis*`` attributes, and what it reads
    from a module of ``hypothesis.internal``."""
    tree = ast.parse(source)
    internal = {
        alias.asname or alias.name: f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("hypothesis.internal")
        for alias in node.names
    }
    taken = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_hypothesis"):
            taken.add(("given", node.attr))
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in internal:
            taken.add((internal[node.value.id], node.attr))
    return taken


@pytest.mark.unit
@pytest.mark.parametrize(("where", "name"), PRIVATE_API, ids=[".".join(entry) for entry in PRIVATE_API])
def test_hypothesis_still_has_the_private_api_the_kit_takes(where, name):
    import hypothesis
    from hypothesis import given, strategies

    @given(strategies.integers())
    def a_property(number: int) -> None:
        pass

    if where == PROVIDERS and not _draws_local_constants():
        # Before 6.131 hypothesis drew no literal from the process's modules: the collector has nothing to
        # replace, and leaves hypothesis as it is (6.131.0 to 6.131.8 did, by other names: pyproject excludes 6.131).
        assert Version(hypothesis.__version__) < Version("6.131"), hypothesis.__version__
        return
    found = a_property if where == "given" else importlib.import_module(where)
    assert hasattr(found, name), (
        f"hypothesis {hypothesis.__version__} has no {where}.{name}, which the kit sets or reads "
        f"(autograder/testing/plugin.py, collected.py): keep pyproject.toml's hypothesis below "
        f"{hypothesis.__version__}, or port them"
    )


def _draws_local_constants() -> bool:
    try:
        providers = importlib.import_module(PROVIDERS)
    except ImportError:
        return False
    return hasattr(providers, "_get_local_constants")


@pytest.mark.unit
def test_the_kit_takes_no_private_hypothesis_api_left_unchecked():
    """Every private hypothesis name the package uses is in PRIVATE_API, so the check above covers it."""
    taken = set()
    for module in (KIT_ROOT / "autograder").rglob("*.py"):
        taken |= taken_from_hypothesis(module.read_text(encoding="utf-8"))
    assert taken, "the scan finds the plugin's own use"
    assert taken <= set(PRIVATE_API), f"add to PRIVATE_API: {sorted(taken - set(PRIVATE_API))}"


@pytest.mark.slow
@pytest.mark.parametrize("end", ["oldest", "newest"])
def test_the_grader_seeds_and_reports_properties_at_both_ends_of_the_allowed_hypothesis(tmp_path, end):
    allowed = dependency("hypothesis")
    # The newest: what pip picks within the range, as a fresh install of the kit gets it.
    chosen = f"hypothesis=={oldest_allowed('hypothesis')}" if end == "oldest" else str(allowed)
    python = kit_venv(tmp_path / "venv", chosen)
    version = installed_version(python, "hypothesis")
    assert version in allowed.specifier and (
        end == "newest" or Version(version) == Version(oldest_allowed("hypothesis"))
    )

    # Not this file whole: its slow test would make venvs of its own in there.
    private_api = f"{Path(__file__).relative_to(KIT_ROOT)}::test_hypothesis_still_has_the_private_api_the_kit_takes"
    pytest_options = ["-o", "addopts=", "-p", "no:cacheprovider", "-q", "-m", "slow or not slow"]
    run([python, "-m", "pytest", *pytest_options, private_api, *PLUGIN_TESTS], cwd=KIT_ROOT)

    (tmp_path / "bpe.py").write_text(MERGES_NOTHING, encoding="utf-8")
    grade = [tmp_path / "venv" / "bin" / "grade", "bpe.py", "--suite", "hidden", "--format", "json", "--no-cache"]
    first, again = (json.loads(run(grade, cwd=tmp_path).stdout)["tests"] for _ in range(2))
    tests = [test["extra_data"] for test in first]
    assert not [test for test in tests if test["outcome"] == "grader error"], f"hypothesis {version}: {tests}"
    properties = [test for test in tests if test["function"] == "merge_pair" and test["test"].startswith("test_hyp_")]
    failed = [test for test in properties if test["outcome"] == "failed"]
    assert failed, f"hypothesis {version}: no property of a merge_pair that merges nothing failed: {properties}"
    assert all(test["example"] and test["hint"] for test in failed), f"hypothesis {version} lost an example: {failed}"
    assert first == again, f"hypothesis {version}: the same hand-in drew other examples the second time"
