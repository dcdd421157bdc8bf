"""Every known mistake loses points where it is made, and only there; the public suite catches most.

The whole corpus is graded in one ``grade batch`` (a hand-in per mistake, each holding only the part
it breaks, so the other parts are simply not started); each mistake is then a test of its own.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from bug_corpus import BUGS
from classroom import SOLUTIONS
from corpus_grading import NAMES, graded_in, hand_in_id
from results import function_scores, outcomes

from autograder.parts import PARTS


def dependents(module: str, function: str) -> set[tuple[str, str]]:
    """Reference functions that call ``function`` (directly or not): a bug there may cost them too."""
    calls: dict[tuple[str, str], set[str]] = {}
    for part in PARTS:
        tree = ast.parse((SOLUTIONS / f"{part.module}.py").read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                called = {n.func.id for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
                calls[(part.module, node.name)] = called
    found: set[tuple[str, str]] = set()
    frontier = {(module, function)}
    while frontier:
        current = frontier.pop()
        for key, called in calls.items():
            if key[0] == current[0] and current[1] in called and key not in found:
                found.add(key)
                frontier.add(key)
    return found


@pytest.fixture(scope="module")
def graded_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return graded_in(tmp_path_factory.mktemp("corpus"))


@pytest.mark.slow  # one batch of the whole corpus: two minutes of the default run's six
@pytest.mark.parametrize("name", NAMES)
def test_a_known_mistake_loses_points_only_where_it_is_made(name, graded_corpus):
    module, function, _ = BUGS[name]
    document = json.loads((graded_corpus / hand_in_id(name) / "results.json").read_text(encoding="utf-8"))
    assert "grader error" not in outcomes(document)
    scores = {key: value for key, value in function_scores(document).items() if key[0] == module}
    score, most = scores[(module, function)]
    assert score < most, f"{name}: {function} kept all its points"
    may_suffer = {(module, function)} | dependents(module, function)
    for key, (other_score, other_most) in scores.items():
        if key not in may_suffer:
            assert other_score == other_most, f"{name}: {key[1]} lost points it did not break"


# The share of known mistakes the students' own `grade` must catch (issue 33): the hidden suite catches all.
PUBLIC_SHARE = 0.9


@pytest.mark.slow  # the whole corpus again, with the public suite
def test_the_public_suite_catches_nine_in_ten_known_mistakes(tmp_path):
    """A student who trusts their public score hands in few of the mistakes students make: each mistake loses
    public points in the function where it is made, for at least PUBLIC_SHARE of the corpus."""
    out = graded_in(tmp_path, suite="public")
    missed = []
    for name, (module, function, _) in BUGS.items():
        document = json.loads((out / hand_in_id(name) / "results.json").read_text(encoding="utf-8"))
        assert "grader error" not in outcomes(document), name
        score, most = function_scores(document)[(module, function)]
        if score >= most:
            missed.append(f"{module}.{function}: {name}")
    caught = len(BUGS) - len(missed)
    print(f"the public suite catches {caught} of {len(BUGS)} known mistakes ({caught / len(BUGS):.0%})")
    print("missed:\n  " + "\n  ".join(sorted(missed)))
    assert caught >= PUBLIC_SHARE * len(BUGS), f"the public suite misses {len(missed)}: {sorted(missed)}"


@pytest.mark.unit
def test_the_corpus_covers_every_function_of_every_part():
    from autograder.parts import PARTS

    broken = {(module, function) for module, function, _ in BUGS.values()}
    every = {(part.module, function) for part in PARTS for function in part.functions}
    assert broken == every
    assert len(BUGS) >= 45


@pytest.mark.slow
@pytest.mark.parametrize("secret", ["a first course", "a second course", "a third course"])
def test_every_known_mistake_loses_points_whatever_the_courses_secret(secret, tmp_path, monkeypatch):
    """The hidden examples follow the course's secret (example_sets): two students with one bug both lose
    points, whichever examples their hand-ins draw."""
    monkeypatch.setenv("BPE_KIT_COURSE_SECRET", secret)
    out = graded_in(tmp_path)
    kept = []
    for name, (module, function, _) in BUGS.items():
        document = json.loads((out / hand_in_id(name) / "results.json").read_text(encoding="utf-8"))
        score, most = function_scores(document)[(module, function)]
        if score >= most:
            kept.append(name)
    assert kept == [], f"under the secret {secret!r} these kept all their points: {kept}"
