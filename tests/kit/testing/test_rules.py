"""The rule map: every rule of every graded function's contract has a test in both suites, and every graded test
says which rules it checks (autograder.testing.rules, docs/reference/rules.md)."""

from __future__ import annotations

import ast
import sys

import pytest

from autograder.authoring import rules_page
from autograder.kit_root import KIT_ROOT
from autograder.testing import domains
from autograder.testing.rules import CONTRACTS, resolve
from autograder.testing.suites import SUITES

pytestmark = pytest.mark.unit


def docstrings(module: str, function: str) -> str:
    """The reference's docstring of ``function`` and of its module, whitespace made single spaces."""
    tree = ast.parse((KIT_ROOT / "solutions" / f"{module}.py").read_text(encoding="utf-8"))
    found = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == function]
    assert found, f"solutions/{module}.py has no function {function}"
    return " ".join(f"{ast.get_docstring(found[0])} {ast.get_docstring(tree)}".split())


def test_every_graded_function_has_its_contract_once():
    from autograder.parts import PARTS

    written = [(contract.module, contract.function) for contract in CONTRACTS]
    assert sorted(written) == sorted({(part.module, name) for part in PARTS for name in part.functions})
    assert len(written) == len(set(written)), "a function's rules are written once"
    for contract in CONTRACTS:
        ids = [rule.id for rule in contract.rules]
        assert len(ids) == len(set(ids)), f"{contract.module}.{contract.function}: a rule id twice in {ids}"


def test_every_rule_quotes_its_docstring():
    """A rule is a sentence of the docstring a student reads: its quote stands in the reference's docstring (the
    stubs are generated from it), or in its module's."""
    for contract in CONTRACTS:
        text = docstrings(contract.module, contract.function)
        for rule in contract.rules:
            quote = " ".join(rule.quote.split())
            assert quote in text, (
                f"autograder/testing/rules.py: {contract.module}.{contract.function} rule {rule.id} quotes "
                f"{quote!r}, which its docstring does not say; quote the docstring as written"
            )


def test_every_rule_has_a_test_in_the_hidden_suite_and_one_in_the_public_suite():
    tested = rules_page.tests_by_rule()
    untested = [
        f"{suite}: {contract.module}.{contract.function} rule {rule.id}"
        for contract in CONTRACTS
        for rule in contract.rules
        for suite in SUITES
        if not tested.get((contract.module, contract.function, rule.id), {}).get(suite)
    ]
    assert untested == [], "rules without a test (mark one with @pytest.mark.rules):\n" + "\n".join(untested)


def test_every_graded_test_names_known_rules():
    problems = []
    for test in rules_page.marked_tests():
        where = f"{test.path.relative_to(KIT_ROOT)}::{test.name}"
        if not test.rules:
            problems.append(f"{where}: names no rule; add @pytest.mark.rules(...) with the rules it checks")
        for mark in test.rules:
            try:
                resolve(test.module, test.function, mark)
            except KeyError:
                problems.append(f"{where}: names {mark!r}, no rule of autograder/testing/rules.py")
    assert problems == [], "\n".join(problems)
    assert len(rules_page.marked_tests()) > 300, "the suites' tests were found"


def test_a_test_without_a_mark_or_with_an_unknown_rule_is_found(tmp_path, monkeypatch):
    """The check above is not vacuous: a suite holding an unmarked test and a misspelt mark is reported."""
    suite = tmp_path / "tests" / "hidden" / "simple_tokenizers"
    suite.mkdir(parents=True)
    (suite / "test_char_tokenize.py").write_text(
        "import pytest\n\n@pytest.mark.points(1)\ndef test_unmarked(submission):\n    pass\n\n"
        '@pytest.mark.rules("every_charactr")\n@pytest.mark.points(1)\ndef test_misspelt(submission):\n    pass\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(rules_page, "suite_path", lambda name: tmp_path / "tests" / name)
    found = {test.name: test.rules for test in rules_page.marked_tests()}
    assert found == {"test_unmarked": (), "test_misspelt": ("every_charactr",)}
    with pytest.raises(KeyError):
        resolve("simple_tokenizers", "char_tokenize", "every_charactr")
    tested = rules_page.tests_by_rule()
    assert ("simple_tokenizers", "char_tokenize", "every_character") not in tested


def test_every_domain_draws_inputs():
    """Each rule's domain exists and its strategy draws a few inputs."""
    from hypothesis import Phase, given, settings

    named = {rule.domain for contract in CONTRACTS for rule in contract.rules}
    assert named <= {each.name for each in domains.DOMAINS}
    drawn: list[object] = []
    for name in sorted(named):

        @settings(max_examples=3, derandomize=True, database=None, phases=[Phase.generate])
        @given(domains.strategy(name))
        def draw(value: object) -> None:
            drawn.append(value)

        draw()
    assert len(drawn) >= len(named)


def test_the_whole_text_domain_holds_what_students_code_trips_on():
    """Capitals, punctuation, whitespace of every kind, accents, other scripts and emoji are all drawn."""
    from hypothesis import given, settings

    seen: set[str] = set()

    @settings(max_examples=300, derandomize=True, database=None)
    @given(domains.strategy("any_text"))
    def collect(text: str) -> None:
        seen.update(text)

    collect()
    for character in "A.,! \t\né日🙂\u200d":
        assert character in seen, f"the any_text domain never drew {character!r}"


def test_the_rules_page_is_current():
    """docs/reference/rules.md is generated: run again, rules_page writes it unchanged."""
    page = rules_page.PAGE.read_text(encoding="utf-8")
    assert page == rules_page.render(), f"{rules_page.PAGE}: out of date; run {sys.executable} -m {rules_page.__name__}"
