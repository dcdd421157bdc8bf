"""A failing test's feedback shows its failing call's own words only: code that answers a property's hidden
examples right, keeps each one, and then fails one on purpose (raising with the ones it kept, printing them,
or answering with them) puts none of them into feedback.md or Gradescope's visible output. Honest code's
failing call still shows its own message, answer and output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from classroom import SOLUTIONS
from commands import run_batch

from autograder.grading.hand_in import grade_path
from autograder.scoring import feedback_policy

pytestmark = pytest.mark.attack

MARK = "SEEN#"
SPELLED = '"SEEN" + "#"'  # in the code: the page shows the student's own code, which is theirs

# char_tokenize answers its first eleven calls right, keeping each text; from the twelfth on it tells the
# ones it kept (the property's other hidden examples, replayed from the seed in the worker that decides it).
KEEPS = f"""

_KEPT = []
_right_char_tokenize = char_tokenize


def _earlier():
    return "".join({SPELLED} + str(number) + "=" + repr(text) + ";" for number, text in enumerate(_KEPT, 1))
"""
RAISES = (
    KEEPS
    + """

def char_tokenize(text):
    earlier = _earlier()
    _KEPT.append(text)
    if len(_KEPT) < 12:
        return _right_char_tokenize(text)
    print(earlier)
    raise ValueError(earlier)
"""
)
ANSWERS = (
    KEEPS
    + """

def char_tokenize(text):
    earlier = _earlier()
    _KEPT.append(text)
    if len(_KEPT) < 12:
        return _right_char_tokenize(text)
    return earlier.split(";")  # an item an example: a list's short repr shows twelve of them whole
"""
)
# An honest mistake: the same message and output for the same input, whatever came before.
HONEST = '''

def char_tokenize(text):
    """Forgets that a space is a character too."""
    if " " in text:
        print("PRINTED-BY-HONEST-CODE for", repr(text))
        raise ValueError("HONEST-MESSAGE: no spaces please")
    return list(text)
'''


def hand_in(folder: Path, appended: str) -> Path:
    folder.mkdir(parents=True)
    text = (SOLUTIONS / "simple_tokenizers.py").read_text(encoding="utf-8") + appended
    (folder / "simple_tokenizers.py").write_text(text, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("per-call")
    for name, appended in (("raises", RAISES), ("answers", ANSWERS), ("honest", HONEST)):
        hand_in(root / "class" / name, appended)
    out = root / "out"
    process = run_batch(root / "class", out, "--feedback", "failures", "--part", "simple_tokenizers")
    assert process.returncode == 0, process.stderr[-2000:]
    return out


def char_tokenize_tests(out: Path, student: str) -> list[dict]:
    document = json.loads((out / student / "results.json").read_text(encoding="utf-8"))
    return [test for test in document["tests"] if test["extra_data"]["function"] == "char_tokenize"]


@pytest.mark.parametrize("student", ["raises", "answers"])
def test_the_attack_tells_the_properties_other_examples_to_the_instructors_record(graded, student):
    """The attack ran: the instructor's own record keeps what the failing call said, earlier examples and all."""
    failed = [test for test in char_tokenize_tests(graded, student) if test["status"] == "failed"]
    assert failed, "the attack must fail a test on purpose"
    assert any(f"{MARK}11=" in json.dumps(test) for test in failed), failed[0]


@pytest.mark.parametrize("student", ["raises", "answers"])
def test_a_failures_feedback_shows_none_of_the_properties_other_examples(graded, student):
    for name in ("feedback.md", "feedback.html"):
        text = (graded / student / name).read_text(encoding="utf-8")
        assert MARK not in text, f"{name}: {text[text.find(MARK) - 300 : text.find(MARK) + 200]}"
    markdown = (graded / student / "feedback.md").read_text(encoding="utf-8")
    assert "char_tokenize" in markdown and "not shown" in markdown, "the lost test is still there, and says why"


def test_an_honest_failing_call_still_shows_its_own_message_and_output(graded):
    markdown = (graded / "honest" / "feedback.md").read_text(encoding="utf-8")
    assert "HONEST-MESSAGE: no spaces please" in markdown
    assert "PRINTED-BY-HONEST-CODE" in markdown


def test_gradescopes_visible_output_shows_none_of_the_properties_other_examples(tmp_path):
    """The Gradescope runner's view of the result (the one ``course.gradescope`` writes as results.json)."""
    folder = hand_in(tmp_path / "submission", RAISES)
    document = grade_path(folder, suite="hidden", parts=("simple_tokenizers",))
    assert MARK in json.dumps(document.to_gradescope()), "the instructor's document keeps what the code said"
    shown = json.dumps(feedback_policy.view(document, feedback_policy.FAILURES).to_gradescope())
    assert MARK not in shown, shown[shown.find(MARK) - 300 : shown.find(MARK) + 200]
