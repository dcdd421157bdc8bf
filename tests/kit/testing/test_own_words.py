"""Which of a failure's words a student's view shows: those its failing example, made again alone, made the same."""

from __future__ import annotations

from dataclasses import replace

import pytest

from autograder.scoring import feedback_policy, grade_result
from autograder.scoring.results import feedback_text
from autograder.testing import outcomes, own_words
from autograder.testing.outcomes import Outcome, Visibility

pytestmark = pytest.mark.unit

# Imported by module: pytest would take a class named Test... for a test class.
DECIDED = outcomes.TestOutcome(
    name="test_hyp_characters_join_back_to_the_text",
    doc="char_tokenize returns a list of single characters",
    module="simple_tokenizers",
    function="char_tokenize",
    points=1.0,
    visibility=Visibility.VISIBLE,
    outcome=Outcome.FAILED,
    call="char_tokenize('0')",
    expected="['0']",
    got="['earlier: a', 'earlier: b']",
    hint="return a list with one entry per character",
    example="text='0'",
)


def test_a_word_made_the_same_alone_is_shown_and_one_made_otherwise_is_withheld():
    decided = own_words.words_of(DECIDED, "printed after other calls")
    alone = own_words.words_of(replace(DECIDED, got="['0']"), "printed alone")
    assert own_words.withheld(decided, alone) == ("got", "printed")


def test_every_word_is_withheld_where_nothing_was_made_alone():
    decided = own_words.words_of(DECIDED, "")
    assert own_words.withheld(decided, None) == ("call", "got", "expected")


def test_empty_words_are_never_said_to_be_withheld():
    decided = own_words.words_of(replace(DECIDED, got="", expected=""), "")
    assert own_words.withheld(decided, own_words.words_of(replace(DECIDED, got="x"), "y")) == ()


def test_the_students_text_names_what_is_withheld_and_keeps_the_hint_and_example():
    text = feedback_text(replace(DECIDED, withheld=("got", "expected")))
    assert "earlier" not in text and "['0']" not in text
    assert "example:  text='0'" in text and "hint:     return a list" in text and "call:     char_tokenize('0')" in text
    assert "not shown: the answer and the expected value, made by your code" in text


def test_a_students_view_leaves_the_withheld_fields_out_and_the_instructors_keeps_them():
    test = grade_result.TestResult(
        name="char_tokenize: joins back",
        score=0.0,
        max_score=1.0,
        status=grade_result.TestStatus.FAILED,
        output="not shown: the answer",
        visibility=Visibility.VISIBLE,
        tags=(),
        part="Part 1",
        module="simple_tokenizers",
        function="char_tokenize",
        test=DECIDED.name,
        points=1.0,
        bonus=False,
        doc=DECIDED.doc,
        outcome=Outcome.FAILED,
        call=DECIDED.call,
        expected=DECIDED.expected,
        got=DECIDED.got,
        hint=DECIDED.hint,
        detail="",
        example=DECIDED.example,
        load_failed=False,
        fix_first="",
        withheld=("got",),
    )
    result = grade_result.GradeResult(score=0.0, max_score=1.0, execution_time=0.0, output="", tests=(test,))
    assert grade_result.TestResult.from_json(test.to_gradescope()) == test, "the record reads back as it was written"
    for mode in (feedback_policy.FAILURES, feedback_policy.FULL):
        (shown,) = feedback_policy.view(result, mode).tests
        assert shown.got == "" and shown.call == DECIDED.call and shown.hint == DECIDED.hint, mode
    assert result.tests[0].got == DECIDED.got
