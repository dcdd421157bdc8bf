"""A suite is collected once per process and run again for each hand-in, each run as a fresh session would be."""

from __future__ import annotations

from pathlib import Path

import pytest

from autograder.cage.cage_limits import CageLimits
from autograder.course.batch.pool import grade_all
from autograder.hand_in.loading import load
from autograder.kit_root import KIT_ROOT
from autograder.testing.grader import Grader
from autograder.testing.runner import grade_hand_in

CORRECT = (KIT_ROOT / "solutions" / "bpe.py").read_text(encoding="utf-8")
WRONG = "def merge_pair(tokens, pair):\n    return list(tokens)\n"


def write_suite(root: Path, log: Path, *, extra: str = "") -> Path:
    """A one-file suite that says in ``log`` when it is collected, when its module is imported, and
    when its fixtures are set up and torn down; ``extra`` is added to its first test."""
    suite = root / "suite"
    (suite / "bpe").mkdir(parents=True, exist_ok=True)
    (suite / "conftest.py").write_text(
        "import os\n\n"
        "def pytest_collection_modifyitems(items):\n"
        f"    with open({str(log)!r}, 'a') as file:\n"
        "        file.write(f'{os.getpid()} collected\\n')\n",
        encoding="utf-8",
    )
    (suite / "bpe" / "test_merge_pair.py").write_text(
        "import os\n"
        "import pytest\n\n"
        f"LOG = {str(log)!r}\n\n"
        "def note(event):\n"
        "    with open(LOG, 'a') as file:\n"
        "        file.write(f'{os.getpid()} {event}\\n')\n\n"
        "note('imported')\n\n"
        "@pytest.fixture(scope='module')\n"
        "def kept():\n"
        "    note('module fixture set up')\n"
        "    values = []\n"
        "    yield values\n"
        "    note(f'module fixture torn down holding {len(values)}')\n\n"
        "@pytest.mark.points(1)\n"
        "def test_first(submission, kept):\n"
        "    kept.append(submission.bpe.merge_pair(['a', 'b'], ('a', 'b')))\n"
        f"{extra}"
        "    assert kept[-1] == ['ab']\n\n"
        "@pytest.mark.points(1)\n"
        "def test_second(submission, kept):\n"
        "    kept.append(submission.bpe.merge_pair(['a', 'b', 'a', 'b'], ('a', 'b')))\n"
        "    assert kept[-1] == ['ab', 'ab']\n",
        encoding="utf-8",
    )
    return suite


@pytest.fixture
def grader():
    """One grader for a test's hand-ins, as a batch's grader process or a notebook's kernel keeps one."""
    with Grader() as opened:
        yield opened


def hand_in(root: Path, name: str, code: str) -> Path:
    folder = root / name
    folder.mkdir()
    (folder / "bpe.py").write_text(code, encoding="utf-8")
    return folder


def outcomes(folder: Path, suite: Path, grader: Grader) -> dict[str, str]:
    run = grade_hand_in(load(folder), suite, limits=CageLimits(), grader=grader)
    return {outcome.name: outcome.outcome.value for outcome in run.outcomes}


def events(log: Path) -> list[str]:
    return [line.split(" ", 1)[1] for line in log.read_text(encoding="utf-8").splitlines()]


def test_a_suite_is_collected_once_and_no_fixture_outlives_its_hand_in(tmp_path, grader):
    log = tmp_path / "log"
    suite = write_suite(tmp_path, log)
    correct, wrong = hand_in(tmp_path, "correct", CORRECT), hand_in(tmp_path, "wrong", WRONG)
    assert outcomes(correct, suite, grader) == {"test_first": "passed", "test_second": "passed"}
    assert outcomes(wrong, suite, grader) == {"test_first": "failed", "test_second": "failed"}
    assert outcomes(correct, suite, grader) == {"test_first": "passed", "test_second": "passed"}
    once = ["module fixture set up", "module fixture torn down holding 2"]
    assert events(log) == ["imported", "collected", *once, *once, *once], "collected once; fixtures each hand-in"


def test_an_edited_suite_is_collected_again(tmp_path, grader):
    """A long-lived process (a notebook's kernel) sees the suite as it is now, not as it was collected."""
    log = tmp_path / "log"
    suite = write_suite(tmp_path, log)
    correct = hand_in(tmp_path, "correct", CORRECT)
    assert outcomes(correct, suite, grader)["test_first"] == "passed"
    write_suite(tmp_path, log, extra="    assert False, 'the edited test fails everyone'\n")
    assert outcomes(correct, suite, grader)["test_first"] == "failed"
    assert events(log).count("imported") == 2 and events(log).count("collected") == 2


def test_a_run_stopped_part_way_leaves_nothing_set_up_for_the_next(tmp_path, grader):
    """Ctrl-C in the middle of a hand-in (``grade``): its fixtures are torn down, and the next hand-in
    runs in a fresh collection, never in the stopped one's half-run state."""
    log = tmp_path / "log"
    stop = tmp_path / "stop"
    stop.touch()
    suite = write_suite(
        tmp_path, log, extra=f"    if os.path.exists({str(stop)!r}):\n        raise KeyboardInterrupt\n"
    )
    correct = hand_in(tmp_path, "correct", CORRECT)
    try:
        outcomes(correct, suite, grader)
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("Ctrl-C reaches the caller")
    stop.unlink()
    assert outcomes(correct, suite, grader) == {"test_first": "passed", "test_second": "passed"}
    assert events(log) == [
        "imported",
        "collected",
        "module fixture set up",
        "module fixture torn down holding 1",
        "imported",
        "collected",
        "module fixture set up",
        "module fixture torn down holding 2",
    ]


def test_a_batch_grader_collects_its_suite_once_for_all_its_hand_ins(tmp_path):
    log = tmp_path / "log"
    suite = write_suite(tmp_path, log)
    kinds = [CORRECT, WRONG, CORRECT, WRONG]
    work = [(number, load(hand_in(tmp_path, f"s{number}", code))) for number, code in enumerate(kinds)]
    results = grade_all(work, suite=suite, limits=CageLimits(), jobs=1)
    scores = dict.fromkeys(range(len(kinds)), None) | {
        result.key: result.result.score for result in results if result.result is not None
    }
    assert list(scores.values()) == [2, 0, 2, 0]
    seen = log.read_text(encoding="utf-8").splitlines()
    assert len([line for line in seen if line.endswith(" collected")]) == 1, seen
    assert events(log).count("module fixture set up") == len(kinds)


@pytest.mark.unit
def test_a_collection_stopped_part_way_leaves_no_configuration_behind(tmp_path, monkeypatch):
    """Ctrl-C while a suite is collected: the half-made session's import hook goes, as pytest.main's would."""
    import sys

    import pytest

    from autograder.testing.collected import CollectedSuite

    def hooks() -> int:
        return sum(type(finder).__name__ == "AssertionRewritingHook" for finder in sys.meta_path)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    suite = write_suite(tmp_path, tmp_path / "log")
    before = hooks()
    monkeypatch.setattr(pytest.Session, "from_config", interrupted)
    with pytest.raises(KeyboardInterrupt):
        CollectedSuite(suite, ())
    assert hooks() == before


def test_a_property_edited_in_a_long_lived_grader_draws_its_examples_anew(tmp_path, grader):
    """A notebook's kernel keeps its grader while the instructor edits a test: the edited property's examples
    are drawn again, never replayed from what the old one drew (which could pass a hand-in the new one fails)."""
    suite = tmp_path / "suite"
    (suite / "simple_tokenizers").mkdir(parents=True)
    test = suite / "simple_tokenizers" / "test_char_tokenize.py"
    property_of = (
        "from hypothesis import given, strategies as st\n"
        "from autograder.testing.rubric import examples\n\n"
        "@examples(30)\n"
        "@given(st.text(alphabet={alphabet!r}, min_size=1, max_size=4))\n"
        "def test_characters(submission, text):\n"
        "    assert submission.simple_tokenizers.char_tokenize(text) == list(text)\n"
    )
    folder = tmp_path / "drops-b"
    folder.mkdir()
    (folder / "simple_tokenizers.py").write_text(
        "def char_tokenize(text):\n    return [c for c in text if c != 'b']\n", encoding="utf-8"
    )
    test.write_text(property_of.format(alphabet="a"), encoding="utf-8")
    first = grade_hand_in(load(folder), suite, limits=CageLimits(), grader=grader)
    assert [outcome.outcome.value for outcome in first.outcomes] == ["passed"]
    test.write_text(property_of.format(alphabet="ab"), encoding="utf-8")
    edited = grade_hand_in(load(folder), suite, limits=CageLimits(), grader=grader)
    assert [outcome.outcome.value for outcome in edited.outcomes] == ["failed"]


def test_what_a_property_draws_does_not_hang_on_the_modules_the_grader_has_loaded(tmp_path):
    """Hypothesis also draws literals from every local module loaded in its process: a `grade` that had loaded
    one more of them (a course's own helper, say) drew other examples for the same hand-in than a batch's
    grader, and so could grade it otherwise. Every example is the same whatever else is loaded."""
    import json
    import subprocess
    import sys

    hand_in = tmp_path / "hand-in"
    hand_in.mkdir()
    (hand_in / "bpe.py").write_text(CORRECT, encoding="utf-8")
    helper = tmp_path / "helper"
    helper.mkdir()
    literals = ", ".join(repr(text) for text in ("aaé", "a a", " é\n", "ba b", "éé", "a\nb", "bé a", "  a"))
    (helper / "course_helper.py").write_text(f"WORDS = [{literals}]\nCOUNTS = [0, 1, 2, 3, 5, 6]\n", encoding="utf-8")

    def calls(*preamble: str) -> dict[str, str]:
        script = "; ".join([*preamble, "from autograder.cli import main", "main()"])
        command = [sys.executable, "-c", script, str(hand_in), "--part", "bpe", "--suite", "hidden", "--format", "json"]
        process = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=helper)
        assert process.returncode in (0, 1), process.stderr[-2000:]
        tests = json.loads(process.stdout)["tests"]
        return {test["name"]: test["extra_data"]["call"] for test in tests if "hyp" in test["extra_data"]["test"]}

    plain = calls("import sys", "sys.argv[0] = 'grade'")
    assert plain, "the hidden properties' calls"
    assert calls("import sys", "sys.argv[0] = 'grade'", "import course_helper") == plain
