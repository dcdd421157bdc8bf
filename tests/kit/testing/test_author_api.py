"""The graded suites import the kit through its one face (autograder.testing.author_api) and nothing else of
it, so that what a course author writes against is written down in one place."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from autograder.kit_root import KIT_ROOT
from autograder.testing import author_api

FACE = author_api.__name__
SUITES = (KIT_ROOT / "tests" / "hidden", KIT_ROOT / "tests" / "public")


def kit_imports(path: Path) -> Iterator[tuple[int, str]]:
    """Each module of the kit the file imports, anywhere in it, with its line."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.lineno, node.module


def beside_the_face(paths: list[Path], root: Path = KIT_ROOT) -> list[str]:
    """Each import of the kit in ``paths`` other than the face's, as ``file:line imports module``."""
    return [
        f"{path.relative_to(root)}:{line} imports {module}"
        for path in paths
        for line, module in kit_imports(path)
        if module.split(".")[0] == "autograder" and module != FACE
    ]


def suite_files() -> list[Path]:
    return sorted(path for suite in SUITES for path in suite.rglob("*.py"))


@pytest.mark.unit
def test_the_suites_import_nothing_of_the_kit_but_its_face():
    assert suite_files(), "no suite files found under tests/hidden and tests/public"
    found = beside_the_face(suite_files())
    assert not found, f"import these from {FACE} instead (add the name to its __all__): " + "; ".join(found)


@pytest.mark.unit
def test_an_import_beside_the_face_is_found(tmp_path):
    suite = tmp_path / "test_part.py"
    suite.write_text(f"from {FACE} import hint\n\ndef f():\n    from autograder.testing.proxy import Outcome\n")
    assert [found.split(" imports ")[1] for found in beside_the_face([suite], tmp_path)] == ["autograder.testing.proxy"]


@pytest.mark.unit
def test_every_name_the_face_lists_is_there():
    missing = [name for name in author_api.__all__ if not hasattr(author_api, name)]
    assert not missing, f"author_api.__all__ lists names it does not import: {missing}"
