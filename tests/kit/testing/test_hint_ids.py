"""A failed test's hint carries the id of the rule whose fix it names, and reaches the results beside its text."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from classroom import SOLUTIONS

from autograder.grading.hand_in import grade_path
from autograder.scoring.grade_result import GradeResult
from autograder.testing.plugin import hint_id
from autograder.testing.raised_why import why_raised
from autograder.testing.rubric import early_stop, first_difference


def marked(*rules: str) -> Any:
    """A stand-in for a pytest item marked ``@pytest.mark.rules(*rules)``."""
    return SimpleNamespace(iter_markers=lambda name: [SimpleNamespace(args=rules)] if name == "rules" else [])


@pytest.mark.unit
def test_a_hint_takes_its_tests_one_rule_unless_it_names_another():
    assert hint_id(marked("left_to_right"), "bpe", "merge_pair", None) == "bpe.merge_pair.left_to_right"
    assert hint_id(marked("left_to_right"), "bpe", "merge_pair", "unchanged") == "bpe.merge_pair.unchanged"
    assert hint_id(marked("ids"), "bpe", "encode", "merge_pair.whole_tokens") == "bpe.merge_pair.whole_tokens"


@pytest.mark.unit
def test_a_hint_in_a_test_of_several_rules_or_one_that_only_says_what_it_saw_has_no_id():
    assert hint_id(marked("vocab", "merges"), "real_tokenizer", "load", None) == ""
    assert hint_id(marked("ids"), "real_tokenizer", "encode", "") == ""


@pytest.mark.unit
def test_an_exception_only_one_rules_break_raises_names_that_rule_and_every_such_rule_exists():
    from autograder.testing.rules import RAISED_BREAKS, contract_of, raised_rule

    assert raised_rule("real_tokenizer", "save", "FileExistsError") == "real_tokenizer.save.folder"
    assert raised_rule("byte_bpe", "decode", "UnicodeDecodeError") == "byte_bpe.decode.replaced"
    assert raised_rule("real_tokenizer", "encode", "KeyError") == "", "a KeyError has many causes: no id"
    for (module, function, _), rule in RAISED_BREAKS.items():
        contract_of(module, function).rule(rule)  # raises KeyError for a rule that is not there


@pytest.mark.unit
def test_an_answer_of_the_wrong_type_names_the_rule_that_states_the_type_where_one_does():
    from autograder.testing.rules import ANSWER_RULES, answer_rule, contract_of

    assert answer_rule("bpe", "train_bpe") == "bpe.train_bpe.returns"
    assert answer_rule("real_tokenizer", "load") == "", "vocab and merges have a rule each: no one rule"
    for (module, function), rule in ANSWER_RULES.items():
        sentence = contract_of(module, function).rule(rule).sentence
        assert any(word in sentence for word in ("returns", "ids are", "joined")), f"{module}.{function}.{rule}"


@pytest.mark.unit
def test_the_first_difference_is_named_by_its_place():
    assert first_difference([1, 2, 3], [1, 5, 3]) == "at index 1: 5 where 2 was expected"
    assert first_difference([1, 2], [1, 2, 3]) == "in length: 3 items where 2 were expected"
    assert first_difference({"a": 1}, {"a": 2}) == ""


@pytest.mark.unit
def test_an_exception_is_explained_by_its_type_alone():
    assert why_raised("encode", "KeyError").startswith("encode raised KeyError: a dict was asked for a key")
    assert why_raised("encode", "SomethingOfTheStudents") == ""
    # Part 6's save and load meet the file system: its errors are a student's as much as a dict's.
    assert "exist_ok" in why_raised("save", "FileExistsError")
    assert why_raised("load", "FileNotFoundError").startswith("load raised FileNotFoundError: a file or folder")


@pytest.mark.unit
def test_an_early_stop_blames_the_threshold_only_where_the_trainer_refuses_a_pair_seen_twice():
    assert early_stop(2, lambda: False)[1] == "stops"
    assert early_stop(2, lambda: True)[1] == "most_frequent"
    assert early_stop(3)[1] == "most_frequent"
    assert early_stop(2)[1] == "", "not asked, a best count of 2 has two causes: no id"


@pytest.mark.slow  # one grading
def test_a_failed_tests_hint_id_reaches_the_results_and_reads_back(tmp_path):
    """merge_pair that never skips past a merged pair: its hint names the left-to-right fix, in results.json too."""
    source = (SOLUTIONS / "bpe.py").read_text(encoding="utf-8")
    broken = """
def merge_pair(tokens, pair):
    merged = []
    for index, token in enumerate(tokens):
        if tuple(tokens[index : index + 2]) == pair:
            merged.append(pair[0] + pair[1])
        elif not (index and tuple(tokens[index - 1 : index + 1]) == pair):
            merged.append(token)
    return merged
"""
    (tmp_path / "bpe.py").write_text(source + "\n" + broken, encoding="utf-8")
    graded = grade_path(tmp_path, suite="public")
    failed = [test for test in graded.tests if test.function == "merge_pair" and not test.passed]
    assert failed and failed[0].hint_id == "bpe.merge_pair.left_to_right", [t.hint_id for t in failed]
    again = GradeResult.from_json(graded.to_gradescope())
    assert [test.hint_id for test in again.tests] == [test.hint_id for test in graded.tests]
