"""Every known mistake loses points where it is made, and only there."""

from __future__ import annotations

import pytest
from bug_corpus import BUGS
from conftest import dependents, grade, outcomes

from autograder.results import function_scores


@pytest.mark.parametrize("name", sorted(BUGS))
def test_a_known_mistake_loses_points_only_where_it_is_made(name, reference_with):
    module, function, source = BUGS[name]
    # Parts share nothing, so the mistake's own part is graded alone.
    folder = reference_with(only=(module,), **{module: source})
    process, document = grade(folder, "--part", module, "--limit", "call_seconds=2")
    assert process.returncode == 0, process.stderr
    assert "grader error" not in outcomes(document)
    scores = function_scores(document)
    assert {key[0] for key in scores} == {module}, "--part grades that part alone"
    score, most = scores[(module, function)]
    assert score < most, f"{name}: {function} kept all its points"
    may_suffer = {(module, function)} | dependents(module, function)
    for key, (other_score, other_most) in scores.items():
        if key not in may_suffer:
            assert other_score == other_most, f"{name}: {key[1]} lost points it did not break"


def test_the_corpus_covers_every_function_of_every_part():
    from autograder.parts import PARTS

    broken = {(module, function) for module, function, _ in BUGS.values()}
    every = {(part.module, function) for part in PARTS for function in part.functions}
    assert broken == every
    assert len(BUGS) >= 45
