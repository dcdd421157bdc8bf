"""What a student's feedback carries of what their code produced: with ``--feedback scores``, not one
character (a hand-in that records the hidden calls it is given and prints them, raises with them, or fails
its import with them learns nothing); with the default, only its failing calls' output, within bounds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from classroom import SOLUTIONS
from commands import run_batch

from autograder.testing.student_output import PRINTED_PER_HAND_IN, PRINTED_PER_TEST

# Its hand-ins step outside the plain-Python policy on purpose, to test the worker and the cage.
pytestmark = [pytest.mark.without_policy, pytest.mark.attack]

MARK = "RECORDED-HIDDEN-CALLS"
SPELLED = '"RECORDED-" + "HIDDEN-CALLS"'  # in the code: the page shows the student's own code, which is theirs
# Part 1 right, but each call recorded; encode_words fails on purpose, printing and raising the record.
RECORDS = (
    (SOLUTIONS / "simple_tokenizers.py").read_text(encoding="utf-8")
    + f"""

RECORDED = []
_char_tokenize, _build_char_vocab = char_tokenize, build_char_vocab


def char_tokenize(text):
    RECORDED.append(("char_tokenize", text))
    return _char_tokenize(text)


def build_char_vocab(texts):
    RECORDED.append(("build_char_vocab", texts))
    return _build_char_vocab(texts)


def encode_words(text, vocab):
    print({SPELLED} + repr(RECORDED) * 50)
    raise ValueError({SPELLED} + repr(RECORDED))
"""
)
# Part 2 fails its import with what Part 1 was called with.
LEAKS_AT_IMPORT = f"""
import simple_tokenizers

print({SPELLED} + repr(simple_tokenizers.RECORDED))
raise ImportError({SPELLED} + repr(simple_tokenizers.RECORDED))
"""

# The same record in the name of the class it raises, and in a notebook cell's report it forges in the worker.
NAMES_IT = (
    RECORDS
    + f"""

import gc


def build_word_vocab(texts):
    for held in gc.get_objects():
        if type(held).__name__ == "Submission":
            held.cell_reports.append({{"cell": {SPELLED} + repr(RECORDED), "type": {SPELLED}, "message": "x"}})
    raise type({SPELLED}.replace("-", "") + str(len(RECORDED)) + repr(RECORDED).replace(" ", ""), (Exception,), {{}})()
"""
)


# Part 2's import ends its process with a code of its choosing: a number its code produced.
EXITS_AT_IMPORT = "import os\n\nos._exit(123)\n"


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("policy")
    (root / "class" / "eve").mkdir(parents=True)
    (root / "class" / "eve" / "simple_tokenizers.py").write_text(RECORDS, encoding="utf-8")
    (root / "class" / "eve" / "bpe.py").write_text(LEAKS_AT_IMPORT, encoding="utf-8")
    (root / "class" / "trudy").mkdir()
    (root / "class" / "trudy" / "simple_tokenizers.py").write_text(NAMES_IT, encoding="utf-8")
    (root / "class" / "walt").mkdir()
    (root / "class" / "walt" / "bpe.py").write_text(EXITS_AT_IMPORT, encoding="utf-8")
    outs = {}
    for mode in ("scores", "failures"):
        out = root / f"out-{mode}"
        process = run_batch(root / "class", out, "--feedback", mode, "--part", "simple_tokenizers", "--part", "bpe")
        assert process.returncode == 0, process.stderr[-2000:]
        outs[mode] = out / "eve"
        outs[f"{mode} (trudy)"] = out / "trudy"
        outs[f"{mode} (walt)"] = out / "walt"
    return outs


def student_files(folder: Path) -> dict[str, str]:
    return {
        path.name: path.read_text(encoding="utf-8") for path in folder.iterdir() if path.name.startswith("feedback")
    }


def test_the_attack_recorded_hidden_calls_as_the_instructor_sees(graded):
    """The instructor's own results keep what the code raised: the attack worked, and only feedback hides it."""
    assert MARK in (graded["scores"] / "results.json").read_text(encoding="utf-8")
    assert MARK in (graded["scores (trudy)"] / "results.json").read_text(encoding="utf-8")
    assert "code 123" in (graded["scores (walt)"] / "results.json").read_text(encoding="utf-8")


def test_a_scores_feedback_holds_nothing_student_code_produced(graded):
    files = student_files(graded["scores"])
    assert set(files) == {"feedback.md", "feedback.html"}
    for name, text in [*files.items(), *student_files(graded["scores (trudy)"]).items()]:
        assert MARK not in text and MARK.replace("-", "") not in text, name
    assert "bpe.py could not be imported" in files["feedback.md"], (
        "in the kit's words: its kind is the student's to name"
    )
    walt = student_files(graded["scores (walt)"])
    assert all("code 123" not in text for text in walt.values()), "the exit code is the student's code's"
    assert "importing bpe.py ended the worker" in walt["feedback.md"], "in the kit's words"


def test_a_failures_feedback_shows_only_a_bounded_part_of_the_failing_calls_output(graded):
    markdown = student_files(graded["failures"])["feedback.md"]
    assert MARK in markdown, "the failing call's own output and message are the student's to read"
    shown = sum(len(line) for line in markdown.splitlines() if MARK in line)
    assert shown <= PRINTED_PER_HAND_IN + 4 * PRINTED_PER_TEST, shown


def test_a_gradescope_scores_feedback_holds_nothing_the_code_printed_while_loading(tmp_path):
    """The Gradescope runner's document joins each part's results: what the worker said of the hand-in's code
    stays marked as such there, so a package built with ``--feedback scores`` shows none of it."""
    from autograder.grading.hand_in import grade_path
    from autograder.scoring import feedback_policy

    folder = tmp_path / "submission"
    folder.mkdir()
    printed = (SOLUTIONS / "simple_tokenizers.py").read_text(encoding="utf-8") + f"\nprint({SPELLED})\n"
    (folder / "simple_tokenizers.py").write_text(printed, encoding="utf-8")
    document = grade_path(folder, suite="hidden")
    assert MARK in document.output, "the instructor's document keeps what the code printed"
    assert MARK not in json.dumps(feedback_policy.view(document, "scores").to_gradescope())


@pytest.mark.parametrize("mode", ["failures", "scores"])
def test_a_passed_tests_name_shows_none_of_its_inputs(tmp_path, mode):
    """pytest names a parametrized test after its inputs (``test_round_trips[naïve café]``): what a mode hides
    of a test's call, it hides of its name too, in the document Gradescope shows as in the feedback files."""
    from autograder.grading.hand_in import grade_path
    from autograder.scoring import feedback_policy

    folder = tmp_path / "submission"
    folder.mkdir()
    for name in ("word_bpe.py", "byte_bpe.py"):
        (folder / name).write_text((SOLUTIONS / name).read_text(encoding="utf-8"), encoding="utf-8")
    document = grade_path(folder, suite="hidden")
    named = [test.test for test in document.tests if test.status == "passed"]
    assert any("[" in name for name in named), "the instructor's document names each case by its inputs"
    shown = feedback_policy.view(document, mode)
    hidden = [test for test in shown.tests if test.status == "passed" or mode == "scores"]
    assert hidden and not any("[" in test.test for test in hidden)
    assert not any("the then there" in json.dumps(test.to_gradescope()) for test in hidden)
