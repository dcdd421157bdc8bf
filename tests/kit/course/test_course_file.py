"""The course file: made by ``grade make-course`` with every default, read by every command that grades or
reports, its points over the tests' own marks wherever the points show."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from classroom import SOLUTIONS
from commands import run_batch
from results import gradebook_rows, hidden_points

from autograder.course.course_file import BLANK, DEFAULT_NAME, read
from autograder.course.late import LatePolicy
from autograder.grading.grading_limits import Limits
from autograder.kit_root import KIT_ROOT
from autograder.scoring import feedback_policy
from autograder.scoring.points import suite_points, suite_tests
from autograder.scoring.scoring import points_number

CHANGED_FUNCTION = ("simple_tokenizers", "char_tokenize")
CHANGED_TEST = ("simple_tokenizers", "encode_words", "test_known_words_get_their_ids")
COURSE = f'''
[points]
"{CHANGED_FUNCTION[0]}.{CHANGED_FUNCTION[1]}" = 12
"{CHANGED_TEST[0]}.{CHANGED_TEST[1]}::{CHANGED_TEST[2]}" = 4

[feedback]
gradescope_visibility = "after_due_date"
'''


def grade_command(*arguments: str, cwd: Path, **environment: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "autograder.cli", *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **environment},
    )


def changed_total() -> float:
    """What the hidden suite makes simple_tokenizers worth under COURSE, from the tests' own marks."""
    marks = {(module, function, test): marked for module, function, test, marked in suite_tests("hidden")[0]}
    points = hidden_points()
    regular = sum(value for (module, _), value in points.worth.items() if module == "simple_tokenizers")
    return regular - points.of(CHANGED_FUNCTION) + 12 - marks[CHANGED_TEST] + 4


@pytest.mark.slow
def test_points_the_course_file_changes_show_in_the_gradebook_the_gradescope_package_and_the_readme(tmp_path):
    """A function's points and one test's, changed in course.toml where the commands run: the gradebook's
    columns and totals, the Gradescope package's results (and the visibility it sets), and the README table
    `grade points --update` writes all follow it; a batch graded under other points is graded again."""
    (tmp_path / "course.toml").write_text(COURSE, encoding="utf-8")
    expected = points_number(changed_total())
    submissions = tmp_path / "class"
    (submissions / "ada").mkdir(parents=True)
    shutil.copy(SOLUTIONS / "simple_tokenizers.py", submissions / "ada")
    out = tmp_path / "graded"
    process = run_batch(submissions, out, "--part", "simple_tokenizers")
    assert process.returncode == 0, process.stderr[-2000:]
    row = gradebook_rows(out)["ada"]
    assert row["total"] == row["max"] == expected, row
    assert row["simple_tokenizers.char_tokenize (12)"] == "12"
    tests = json.loads((out / "ada" / "results.json").read_text(encoding="utf-8"))["tests"]
    split = {test["score"] for test in tests if test["extra_data"]["function"] == "char_tokenize"}
    assert len(split) == 1 and sum(
        test["score"] for test in tests if test["extra_data"]["function"] == "char_tokenize"
    ) == pytest.approx(12), "split evenly over its tests"

    (tmp_path / "course.toml").write_text(COURSE.replace("= 12", "= 13"), encoding="utf-8")
    again = run_batch(submissions, out, "--part", "simple_tokenizers")
    assert "(1 graded now, 0 up to date)" in again.stderr, "graded under other points: graded again"
    (tmp_path / "course.toml").write_text(COURSE, encoding="utf-8")

    readme = tmp_path / "README.md"
    shutil.copy(KIT_ROOT / "README.md", readme)
    updated = grade_command("points", "--update", str(readme), cwd=tmp_path)
    assert updated.returncode == 0 and updated.stdout.startswith("updated"), updated.stderr
    assert "| 1. Character and word tokenizers | `char_tokenize` | 12 |" in readme.read_text(encoding="utf-8")

    package = tmp_path / "autograder.zip"
    built = grade_command("gradescope", str(package), cwd=tmp_path)
    assert built.returncode == 0, built.stderr[-2000:]
    tree = tmp_path / "gradescope"
    with zipfile.ZipFile(package) as archive:
        archive.extractall(tree / "source")
    (tree / "submission").mkdir()
    shutil.copy(SOLUTIONS / "simple_tokenizers.py", tree / "submission")
    kit = tree / "source" / "kit"
    ran = subprocess.run(
        [sys.executable, "-m", "autograder.course.gradescope"],
        cwd=kit,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "AUTOGRADER_ROOT": str(tree), "PYTHONPATH": str(kit)},
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    results = json.loads((tree / "results" / "results.json").read_text(encoding="utf-8"))
    assert results["visibility"] == "after_due_date"
    ours = [test for test in results["tests"] if test["extra_data"]["module"] == "simple_tokenizers"]
    assert points_number(sum(test["score"] for test in ours)) == expected


def uncommented(text: str, *, keep: str) -> str:
    """The course file ``text`` with the settings whose line matches ``keep`` taken out of their comments."""
    return "\n".join(
        re.sub(r"^#\s+", "", line)
        if re.match(r"^#\s+(\"[^\"]+\"|[a-z_]+) = ", line) and re.search(keep, line)
        else line
        for line in text.splitlines()
    )


def test_a_course_file_made_by_make_course_holds_every_default_and_changes_nothing(tmp_path):
    """`grade make-course` writes every setting at its default, commented out: taking the # off every line but
    the [points] functions' and [weights]' gives the kit's defaults, and each test's listed points are its mark.
    It never writes over a course file, and keeps the secret beside it out of git."""
    made = grade_command("make-course", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    text = (tmp_path / "course.toml").read_text(encoding="utf-8")
    every_setting = uncommented(text, keep=r"^#( [a-z_]+ = |   \")")
    assert set(tomllib.loads(every_setting)) == {
        *("assignment", "points", "weights", "feedback", "limits", "late", "exports")
    }
    assert read(_written(tmp_path / "due.toml", every_setting)).late.due is not None, "the due date's example reads"
    course = read(_written(tmp_path / "all.toml", every_setting.replace("due = 2026-11-20T23:59:00", "")))
    assert course.points.tests and not course.points.functions
    assert suite_points("hidden", course.points) == hidden_points(), "each test's listed points are its mark"
    assert (course.name, course.feedback, course.gradescope_visibility) == (
        DEFAULT_NAME,
        feedback_policy.DEFAULT,
        "visible",
    )
    assert course.limits_with({}) == Limits() and course.without_grade == BLANK
    assert course.late == LatePolicy(extensions=tmp_path / "extensions.csv")
    assert (tmp_path / ".gitignore").read_text(encoding="utf-8").splitlines() == [".course-secret", ".course-examples/"]
    twice = grade_command("make-course", cwd=tmp_path)
    assert twice.returncode == 2 and "exists" in twice.stderr


def _written(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[points\n", "is not TOML"),
        ('[points]\n"simple_tokenizers.char_tokenise" = 3\n', "did you mean 'simple_tokenizers.char_tokenize'"),
        ('[points]\n"simple_tokenizers.char_tokenize::test_no_such_thing" = 3\n', "no such test in the hidden suite"),
        ('[points]\n"bpe.merge_pair" = 3\n"bpe.merge_pair::test_merge_skips_past_a_merged_pair" = 1\n', "one or"),
        ('[weights]\n"bpe.merge_pair::test_merge_skips_past_a_merged_pair" = 2\n', "give it points there too"),
        ("[late]\ndue = 2026-11-20\n", "give a time too"),
        ('[late]\ntime_zone = "Mars/Olympus"\n', "not one this machine knows"),
        ("[late]\npercent = 120\n", "from 0 to 100"),
        ("[limits]\nmemory_mb = 1.5\n", "not a whole number above 0"),
        ("[grading]\nx = 1\n", "no table [grading]"),
        ('[feedback]\npolicy = "everything"\n', "is not one of"),
    ],
    ids=["toml", "function", "test", "both", "weights", "date", "zone", "percent", "limit", "table", "choice"],
)
def test_a_course_file_mistake_is_one_line_naming_the_setting_and_the_fix(tmp_path, text, said):
    course = _written(tmp_path / "term.toml", text)
    process = grade_command("points", "--course", str(course), cwd=tmp_path)
    assert process.returncode == 2, process.stdout[-500:]
    (line,) = process.stderr.strip().splitlines()
    assert line.startswith(f"grade points: {course}") and said in line, line


def test_the_student_release_carries_the_courses_visible_part_and_its_grade_reads_it(tmp_path):
    """Points changed in course.toml, then `grade release`: the release's own `grade`, run on the reference
    from another folder, scores each function out of the course's points and the score line out of the course's
    full marks. The release's course.toml holds the due date and the feedback policy, never a hidden test's name,
    the extensions or the secret."""
    course = tmp_path / "course"
    course.mkdir()
    (course / "extensions.csv").write_text("student,due\nstudent-with-an-extension,2026-11-24 23:59\n", "utf-8")
    (course / "course.toml").write_text(
        COURSE.replace("[points]\n", '[points]\n"bpe.merge_pair" = 20\n')
        + '\n[late]\ndue = 2026-11-20T23:59:00\ntime_zone = "Europe/Berlin"\n'
        + 'percent = 10\nextensions = "extensions.csv"\n',
        encoding="utf-8",
    )
    course_points = read(course / "course.toml").suite_points("hidden")
    built = grade_command("release", str(tmp_path / "out"), cwd=course)
    assert built.returncode == 0, built.stderr[-2000:]
    release = tmp_path / "out" / "bpe-kit-student"
    carried = (release / "course.toml").read_text(encoding="utf-8")
    assert "::" not in carried and "student-with-an-extension" not in carried and "extensions" not in carried
    assert not (release / ".course-secret").exists()
    settings = tomllib.loads(carried)
    assert settings["points"]["bpe.merge_pair"] == 20 and settings["feedback"]["gradescope_visibility"] == (
        "after_due_date"
    )
    assert settings["late"]["due"].isoformat() == "2026-11-20T23:59:00+01:00"

    hand_in = tmp_path / "elsewhere" / "hand-in"
    hand_in.mkdir(parents=True)
    shutil.copy(SOLUTIONS / "bpe.py", hand_in)
    graded = subprocess.run(
        [sys.executable, "-m", "autograder.cli", str(hand_in), "--part", "bpe", "--format", "json"],
        cwd=hand_in.parent,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(release)},
    )
    assert graded.returncode == 0, graded.stderr[-2000:]
    document = json.loads(graded.stdout)
    assert document["extra_data"]["suite"] == "public"
    merge_pair = [test for test in document["tests"] if test["extra_data"]["function"] == "merge_pair"]
    assert sum(test["max_score"] for test in merge_pair) == pytest.approx(20), "the course's points, not the marks'"
    bpe = course_points.of_parts(("bpe",))
    assert document["score"] == pytest.approx(bpe.full_marks + bpe.bonus_total)
    text = subprocess.run(
        [sys.executable, "-m", "autograder.cli", str(hand_in), "--part", "bpe"],
        cwd=hand_in.parent,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(release), "COLUMNS": "200"},
    )
    assert f"{points_number(bpe.full_marks)} / {points_number(bpe.full_marks)} points" in text.stdout, text.stdout
