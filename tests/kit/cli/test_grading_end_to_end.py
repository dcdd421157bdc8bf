"""The real ``grade`` command on the reference, the stubs, and every kind of submission."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from typing import Any

import click
import pytest
from bug_corpus import BUGS
from classroom import SOLUTIONS, SUBMISSIONS
from commands import grade, snapshot
from results import Results, full_marks, outcomes

from autograder.kit_root import KIT_ROOT
from autograder.parts import PARTS

STUBS = KIT_ROOT / "student_template"
# A test about how one part's failure is reported grades the parts it needs, not the whole kit.
FIRST_TWO_PARTS = ("--part", "simple_tokenizers", "--part", "bpe")
CORRECT = sorted(
    path for path in (SUBMISSIONS / "correct").iterdir() if path.is_dir() and not path.name.startswith(".")
)


@pytest.fixture(scope="module")
def reference_graded() -> tuple[subprocess.CompletedProcess[str], Results]:
    """The reference solutions through the real CLI with the hidden suite, once for the tests that need it."""
    return grade(SOLUTIONS)


def test_reference_solutions_score_full_marks(reference_graded):
    process, document = reference_graded
    assert process.returncode == 0, process.stderr
    assert f"{document['max_score']:g}" == full_marks(bonus=False)
    assert f"{document['score']:g}" == full_marks(), "full marks, and every bonus point on top"
    assert outcomes(document) == {"passed"}


def test_untouched_stubs_score_zero_with_every_test_not_started():
    process, document = grade(STUBS)
    assert process.returncode == 0, process.stderr
    assert document["score"] == 0
    assert outcomes(document) == {"not started"}


@pytest.mark.slow
@pytest.mark.parametrize("folder", CORRECT, ids=lambda path: path.name)
def test_a_correct_alternative_earns_full_marks(folder):
    """Full marks for every part it holds; the parts it does not hold are not started, not failed."""
    process, document = grade(folder)
    assert process.returncode == 0, process.stderr
    held = {
        test["extra_data"]["module"] for test in document["tests"] if test["extra_data"]["outcome"] != "not started"
    }
    assert held, "the alternative holds at least one part"
    failing = [
        test["name"] + "\n" + test["output"]
        for test in document["tests"]
        if test["extra_data"]["module"] in held
        and test["status"] != "passed"
        and not (test["extra_data"]["bonus"] and test["extra_data"]["outcome"] == "not started")
    ]
    assert failing == [], "full marks; a bonus it leaves out is not started"
    idle = {test["extra_data"]["outcome"] for test in document["tests"] if test["extra_data"]["module"] not in held}
    assert idle <= {"not started"}


def test_public_suite_runs_on_request(reference_graded):
    _, hidden = reference_graded
    _, public = grade(SOLUTIONS, "--suite", "public")
    assert public["max_score"] > 0 and outcomes(public) == {"passed"}
    assert public["max_score"] != hidden["max_score"], "the public suite is the students' own, not the hidden one"


def test_results_document_has_gradescope_fields():
    _, document = grade(SOLUTIONS, "--suite", "public")
    for key in ("score", "max_score", "execution_time", "tests"):
        assert key in document
    for test in document["tests"]:
        assert {"name", "score", "max_score", "status", "output", "visibility"} <= set(test)
        assert test["status"] in ("passed", "failed")
        assert {"part", "function", "outcome"} <= set(test["extra_data"])


@pytest.mark.slow
@pytest.mark.parametrize("output_format", ["text", "markdown", "html", "junit"])
def test_every_format_renders_to_a_file(tmp_path, output_format):
    target = tmp_path / f"report.{output_format}"
    process = subprocess.run(
        [
            sys.executable,
            "-m",
            "autograder.cli",
            str(STUBS),
            "--suite",
            "public",
            "--format",
            output_format,
            "-o",
            str(target),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert process.returncode == 0, process.stderr
    text = target.read_text(encoding="utf-8")
    # The report's own words for the untouched stubs: Part 2 and its first function, not started.
    assert ("Part 2: Character-level BPE" in text or "bpe.get_pair_counts" in text) and "not started" in text


def test_failing_call_expected_got_and_hint_reach_the_student(reference_with):
    folder = reference_with(bpe="def merge_pair(tokens, pair):\n    return list(tokens)\n")
    process = subprocess.run(
        [sys.executable, "-m", "autograder.cli", str(folder), "--part", "bpe"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "call:     merge_pair(['a', 'a', 'a'], ('a', 'a'))" in process.stdout
    assert "expected: ['aa', 'a']" in process.stdout
    assert "got:      ['a', 'a', 'a']" in process.stdout
    assert "hint:" in process.stdout


def test_fail_under_exits_1_below_the_threshold():
    process, _ = grade(STUBS, "--fail-under", "50", *FIRST_TWO_PARTS)
    assert process.returncode == 1
    process, _ = grade(SOLUTIONS, "--fail-under", "100", *FIRST_TWO_PARTS)
    assert process.returncode == 0


def test_bonus_points_never_make_up_for_a_lost_point_under_fail_under(tmp_path):
    """Part 6's bonus is worth more than its decode: a hand-in that earns the bonus and loses decode's points
    scores above 100% of what is left, and --fail-under 100 must still fail it."""
    source = (SOLUTIONS / "real_tokenizer.py").read_text(encoding="utf-8")
    broken = source + "\n\ndef decode(ids, vocab):\n    return ''\n"
    (tmp_path / "real_tokenizer.py").write_text(broken, encoding="utf-8")
    process, document = grade(tmp_path, "--fail-under", "100", "--part", "real_tokenizer")
    assert document["score"] > document["max_score"] * 0.9, "the bonus keeps the score high"
    assert process.returncode == 1 and "without bonus is below --fail-under 100%" in process.stderr


@pytest.mark.parametrize("name", ["missing", "notes.txt"])
def test_nothing_gradable_exits_2_with_one_line(tmp_path, name):
    path = tmp_path / name
    if name.endswith(".txt"):
        path.write_text("hello")
    process, _ = grade(path)
    assert process.returncode == 2
    assert process.stderr.count("\n") == 1 and str(path) in process.stderr


def test_single_file_notebook_and_zip_submissions(tmp_path):
    single = tmp_path / "bpe.py"
    shutil.copy(SOLUTIONS / "bpe.py", single)
    _, document = grade(single)
    assert {test["extra_data"]["module"] for test in document["tests"] if test["status"] == "passed"} == {"bpe"}

    archive = tmp_path / "handin.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for module in ("simple_tokenizers.py", "bpe.py"):
            zipped.write(SOLUTIONS / module, f"handin/{module}")
    _, document = grade(archive)
    assert f"{document['score']:g}" == full_marks("simple_tokenizers", "bpe")


def test_a_broken_module_costs_only_its_own_part(reference_with):
    folder = reference_with()
    (folder / "bpe.py").write_text("def get_pair_counts(tokens):\n    return {\n", encoding="utf-8")
    _, document = grade(folder, *FIRST_TWO_PARTS)
    by_module: dict[str, list[dict[str, Any]]] = {}
    for test in document["tests"]:
        by_module.setdefault(test["extra_data"]["module"], []).append(test)
    assert all(test["status"] == "passed" for test in by_module["simple_tokenizers"])
    details = {test["extra_data"]["detail"] for test in by_module["bpe"]}
    assert any("bpe.py" in detail and "line" in detail for detail in details)


def test_a_module_that_never_finishes_importing_costs_only_its_part(reference_with):
    folder = reference_with(bpe="while True:\n    pass\n")
    process, document = grade(folder, "--limit", "load_seconds=2", *FIRST_TWO_PARTS)
    by_module: dict[str, list[dict[str, Any]]] = {}
    for test in document["tests"]:
        by_module.setdefault(test["extra_data"]["module"], []).append(test)
    assert all(test["status"] == "passed" for test in by_module["simple_tokenizers"])
    assert all("did not finish importing in 2 s" in test["extra_data"]["detail"] for test in by_module["bpe"])
    assert document["execution_time"] < 30, "the import is waited for once, not once per test"


@pytest.mark.slow
def test_slow_loading_is_not_charged_to_the_first_call(reference_with, tmp_path):
    """Imports and notebook cells have their own limit: a slow top level is no timeout of a call."""
    slow = "import time\ntime.sleep(1.5)\n"
    folder = reference_with(simple_tokenizers=slow, bpe=slow)
    _, document = grade(folder, "--limit", "call_seconds=1", *FIRST_TWO_PARTS)
    assert f"{document['score']:g}" == full_marks("simple_tokenizers", "bpe"), outcomes(document)
    notebook = json.loads((SUBMISSIONS / "correct" / "notebook" / "bpe_homework.ipynb").read_text(encoding="utf-8"))
    # A slow cell the graded functions need (it defines something), so grading runs it (notebook_slice).
    needed_and_slow = slow + "if True:\n    def helper():\n        return None\n"
    notebook["cells"].insert(
        0, {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": needed_and_slow}
    )
    path = tmp_path / "slow.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    _, document = grade(path, "--limit", "call_seconds=1")
    assert f"{document['score']:g}" == full_marks("simple_tokenizers", "bpe"), outcomes(document)


def test_a_misnamed_function_is_named_with_a_suggestion(reference_with):
    source = (SOLUTIONS / "bpe.py").read_text(encoding="utf-8").replace("def merge_pair(", "def merge_pairs(")
    folder = reference_with()
    (folder / "bpe.py").write_text(source, encoding="utf-8")
    _, document = grade(folder, "--part", "bpe")
    details = {
        test["extra_data"]["detail"] for test in document["tests"] if test["extra_data"]["function"] == "merge_pair"
    }
    assert any("did you mean merge_pairs" in detail for detail in details)


@pytest.mark.slow
@pytest.mark.parametrize("working_directory", ["inside", "beside"])
def test_grading_writes_nothing_into_or_next_to_the_submission(tmp_path, working_directory):
    folder = tmp_path / "student"
    shutil.copytree(SOLUTIONS, folder)
    before = snapshot(tmp_path)
    cwd = folder if working_directory == "inside" else tmp_path
    subprocess.run([sys.executable, "-m", "autograder.cli", str(folder)], capture_output=True, timeout=120, cwd=cwd)
    assert snapshot(tmp_path) == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["student"]


@pytest.mark.slow
def test_same_submission_same_score(reference_with):
    folder = reference_with(bpe=BUGS["train_bpe never stops early"][2])
    # Every part but Part 5, whose speed test is timed: its hints quote the times.
    parts = [argument for part in PARTS if part.module != "fast_bpe" for argument in ("--part", part.module)]
    first = grade(folder, *parts)[1]
    second = grade(folder, *parts)[1]
    strip = lambda document: [(t["name"], t["score"], t["output"]) for t in document["tests"]]  # noqa: E731
    assert strip(first) == strip(second)


def test_help_and_version():
    for flag in ("--help", "--version"):
        process = subprocess.run([sys.executable, "-m", "autograder.cli", flag], capture_output=True, text=True)
        assert process.returncode == 0 and process.stdout


def test_grade_help_shows_the_options_of_grade_path():
    """`grade PATH` is what most readers of `grade --help` want: its options are there, not one command away."""
    from autograder.cli import submission

    process = subprocess.run([sys.executable, "-m", "autograder.cli", "--help"], capture_output=True, text=True)
    assert process.returncode == 0, process.stderr
    shown = process.stdout.split("Options of grade PATH", 1)
    assert len(shown) == 2, process.stdout
    flags = [max(option.opts, key=len) for option in submission.params if isinstance(option, click.Option)]
    assert flags and all(flag in shown[1] for flag in flags), shown[1]


def test_json_output_is_only_the_document():
    process = subprocess.run(
        [sys.executable, "-m", "autograder.cli", str(STUBS), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    json.loads(process.stdout)


@pytest.mark.unit
def test_points_table_in_readme_matches_the_tests(tmp_path):
    from autograder.scoring.points import points_table, update_points_table

    readme = (KIT_ROOT / "README.md").read_text(encoding="utf-8")
    assert points_table() in readme, "run `grade points --update README.md`"
    stale = tmp_path / "README.md"
    stale.write_text(readme.replace("| **total** |", "| **total (old)** |"), encoding="utf-8")
    assert update_points_table(stale) and stale.read_text(encoding="utf-8") == readme
    assert not update_points_table(stale), "a second update changes nothing"


@pytest.mark.unit
def test_the_limits_page_lists_every_limit_with_its_default_in_order():
    from autograder.grading.grading_limits import Limits

    page = (KIT_ROOT / "docs" / "reference" / "limits.md").read_text(encoding="utf-8")
    rows = "\n".join(f"| `{name}` | {value} |" for name, value in Limits().as_dict().items())
    assert "| limit | default |\n| --- | --- |\n" + rows + "\n" in page


@pytest.mark.unit
def test_committed_stubs_are_what_the_generator_makes():
    from autograder.authoring.stubs import expected_stubs

    for name, text in expected_stubs().items():
        assert (STUBS / name).read_text(encoding="utf-8") == text, f"run `grade make-stubs`: {name} is stale"


@pytest.mark.unit
def test_an_unclosed_solution_region_is_refused():
    from autograder.authoring.stubs import MarkerError, make_stub

    with pytest.raises(MarkerError, match="never closed"):
        make_stub("def f():\n    ### BEGIN SOLUTION\n    return 1\n")


@pytest.mark.unit
def test_stubs_hold_no_solution_code():
    for path in STUBS.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "BEGIN SOLUTION" not in text and "raise NotImplementedError" in text


@pytest.mark.parametrize("package", ["autograder.notebook", "autograder.course"])
def test_a_hand_in_keeps_its_notebook_helpers_from_this_release_or_an_older_one(tmp_path, package):
    """Check cells and token views do nothing in the worker, whether the notebook imports them from where
    this release puts them or from where an older one did (a term's hand-ins outlive a change of layout)."""
    helpers = (
        f"from {package}.jupyter import checker\nfrom {package}.token_view import show_rows\n"
        f"from {package}.training_cost import peak_memory\nfrom {package}.openai_tokenizers import gpt2_encoding\n"
        "check = checker('simple_tokenizers')\ncheck(char_tokenize)\nshow_rows(['a'])\npeak_memory(gpt2_encoding)\n"
    )
    source = (SOLUTIONS / "simple_tokenizers.py").read_text(encoding="utf-8") + helpers
    (tmp_path / "simple_tokenizers.py").write_text(source, encoding="utf-8")
    process, document = grade(tmp_path / "simple_tokenizers.py")
    assert process.returncode == 0, process.stderr[-2000:]
    assert document["score"] == document["max_score"] > 0
