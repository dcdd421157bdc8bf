"""What a failing test says reads right: values as the student built them, cut at a word, one fix at a time."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from autograder.kit_root import KIT_ROOT


@pytest.mark.unit
def test_a_dict_is_shown_in_the_order_the_students_code_built_it():
    from autograder.testing.proxy import short_repr

    assert short_repr({"the": 0, "cat": 1, "[UNK]": 2}) == "{'the': 0, 'cat': 1, '[UNK]': 2}"


@pytest.mark.unit
def test_long_text_is_cut_after_a_word_with_a_mark_outside_the_quotes():
    from autograder.testing.proxy import short_repr

    sentence = "merge 1 is ('ab', 'c'), seen 2 times, but the most frequent pair is seen 3 times"
    shown = short_repr(sentence)
    assert shown.startswith("\"merge 1 is ('ab', 'c'), seen 2 times,") and shown.endswith(
        f"… ({len(sentence)} characters)"
    )
    assert shown.split("…")[0].endswith(('times,"', 'but"', 'the"', 'most"')), shown  # whole words only
    assert short_repr("short text") == "'short text'"
    assert short_repr(b"x" * 100).endswith("… (100 bytes)")


@pytest.mark.unit
def test_the_first_line_reads_right_for_one_function_or_several():
    from autograder.scoring.results import fix_first_sentence

    assert fix_first_sentence(["get_pair_counts"], "train_bpe").startswith(
        "fix get_pair_counts: train_bpe calls it, and it fails its own tests"
    )
    assert fix_first_sentence(["get_pair_counts", "merge_pair", "word_frequencies"], "train_bpe").startswith(
        "fix get_pair_counts, merge_pair and word_frequencies: train_bpe calls them, and they fail their own tests"
    )


@pytest.mark.unit
def test_functions_not_started_are_counted_by_part_not_by_name():
    from autograder.reports.feedback import not_started_line
    from autograder.scoring.grade_result import GradeResult, TestResult, TestStatus
    from autograder.testing.outcomes import Outcome, Visibility

    def idle(module: str, function: str) -> TestResult:
        return TestResult(
            name="t", score=0, max_score=1, status=TestStatus.FAILED, output="", visibility=Visibility.VISIBLE, tags=(),
            part="",
            module=module, function=function, test="t", points=1, bonus=False, doc="", outcome=Outcome.NOT_STARTED,
            call="", expected="", got="", hint="", detail="", example="", load_failed=False, fix_first="",
        )  # fmt: skip

    result = GradeResult.from_json({"score": 0, "max_score": 3, "execution_time": 0, "output": "", "tests": []})
    tests = (idle("bpe", "merge_pair"), idle("word_bpe", "merge_pair"), idle("word_bpe", "merge_pair"))
    from dataclasses import replace

    line = not_started_line(replace(result, tests=tests))
    assert line.startswith("3 tests of 2 functions not started: they still raise"), line


@pytest.mark.slow
@pytest.mark.parametrize("suite", ["public", "hidden"])
@pytest.mark.parametrize("part", ["bpe", "word_bpe", "byte_bpe"])
def test_a_training_verdict_shows_the_trainers_call_and_answer_and_says_the_problem_in_the_hint(tmp_path, part, suite):
    """``assert problem == ""`` in a test is the test's verdict, not an answer: the feedback shows the trainer's
    call (not the last helper call of the replay that judged it) and what it returned as ``got``, no
    ``expected: ''``, and the problem in the hint."""
    solution = (KIT_ROOT / "solutions" / f"{part}.py").read_text(encoding="utf-8")
    second = "pair_counts.most_common(2)[-1]"  # the second most frequent pair: a wrong choice where it repeats
    (tmp_path / f"{part}.py").write_text(solution.replace("pair_counts.most_common(1)[0]", second), encoding="utf-8")
    command = [sys.executable, "-m", "autograder.cli", str(tmp_path), "--part", part, "--suite", suite]
    process = subprocess.run([*command, "--format", "json", "--no-cache"], capture_output=True, text=True, timeout=300)
    document = json.loads(process.stdout)
    replayed = re.compile(r"the most frequent pair is seen|stopped after \d+ merges? although")
    verdicts = [test["output"] for test in document["tests"] if replayed.search(test["output"])]
    assert verdicts, [test["name"] for test in document["tests"] if test["score"] == 0]
    for output in verdicts:
        assert "expected:" not in output, output
        assert re.search(r"^call:     train_(bpe|on_pieces)\(", output, re.MULTILINE), output
        assert "got:      " in output, output


def test_a_call_that_raised_shows_no_answer_it_never_gave(tmp_path):
    """A test that checks a call does not raise (``rubric.raised``) names the error in its hint; the call
    returned nothing, so there is no ``got:`` line (it read ``got: None``)."""
    from bug_corpus import BUGS
    from classroom import Student, write_submission

    folder = write_submission(
        tmp_path, Student("x", "buggy", BUGS["train_bpe crashes on text shorter than two characters"])
    )
    process = subprocess.run(
        [sys.executable, "-m", "autograder.cli", str(folder), "--part", "bpe", "--suite", "public", "--format", "json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    outputs = [test["output"] for test in json.loads(process.stdout)["tests"] if "raised ValueError" in test["output"]]
    assert outputs, process.stdout[-2000:]
    for output in outputs:
        assert "got:" not in output, output


@pytest.mark.slow
def test_two_long_answers_cut_alike_say_where_they_first_differ(tmp_path):
    """Cut to their first items, the hidden load's expected and got merges read the same; the got line says
    where they part, so the student sees which merge went missing."""
    from bug_corpus import BUGS
    from classroom import Student, write_submission

    folder = write_submission(tmp_path, Student("x", "buggy", BUGS["load skips every line that starts with #"]))
    process = subprocess.run(
        [sys.executable, "-m", "autograder.cli", str(folder), "--part", "real_tokenizer", "--format", "json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    outputs = [test["output"] for test in json.loads(process.stdout)["tests"] if "load('gpt2')" in test["output"]]
    assert outputs, process.stdout[-2000:]
    assert "(it differs at index 1979: ('Ġsh', 'all') where ('#', '#') was expected)" in outputs[0], outputs[0]
