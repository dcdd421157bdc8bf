"""A hidden test's title shows only what the students' own stubs already show.

Every feedback mode lists each test by its title (its docstring's first line), passed or failed, so a title
that quoted a hidden input would show it to the whole class. A title may quote a value the test uses only
where the part's stub (the docstring the student reads) shows that value already.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from autograder.kit_root import KIT_ROOT

HIDDEN = KIT_ROOT / "tests" / "hidden"
STUBS = KIT_ROOT / "student_template"


def quoted_values(test: ast.FunctionDef) -> set[str]:
    """The values a test's body writes out that a title could quote: text of three characters or more, numbers
    of two digits or more."""
    found = set()
    # The rules a test names are the contract's ids (autograder.testing.rules), public already: not inputs.
    named = {id(node) for mark in test.decorator_list if _rules_mark(mark) for node in ast.walk(mark)}
    for node in ast.walk(test):
        if id(node) in named:
            continue
        if isinstance(node, ast.Constant) and node is not test.body[0].value:  # type: ignore[attr-defined]
            if isinstance(node.value, str) and len(node.value.strip()) >= 3:
                found.add(node.value)
            elif isinstance(node.value, int) and not isinstance(node.value, bool) and node.value >= 10:
                found.add(str(node.value))
    return found


def _rules_mark(decorator: ast.expr) -> bool:
    return isinstance(decorator, ast.Call) and ast.unparse(decorator.func) == "pytest.mark.rules"


def titled_tests() -> list[tuple[Path, ast.FunctionDef, str]]:
    tests = []
    for path in sorted(HIDDEN.rglob("test_*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_") and ast.get_docstring(node):
                tests.append((path, node, (ast.get_docstring(node) or "").splitlines()[0]))
    return tests


@pytest.mark.unit
def test_a_hidden_tests_title_quotes_only_what_the_stub_shows():
    leaks = []
    for path, test, title in titled_tests():
        stub = (STUBS / f"{path.parent.name}.py").read_text(encoding="utf-8")
        for value in quoted_values(test):
            if value in title and value not in stub:
                leaks.append(f"{path.relative_to(KIT_ROOT)}::{test.name} shows {value!r} in its title")
    assert leaks == [], "\n".join(leaks)


@pytest.mark.unit
def test_the_title_check_sees_a_quoted_hidden_input():
    test = ast.parse('def test_x(submission):\n    """f("zebra crossing") is 7"""\n    f("zebra crossing")\n').body[0]
    assert isinstance(test, ast.FunctionDef)
    assert "zebra crossing" in quoted_values(test)
