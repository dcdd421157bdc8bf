"""A class on more than one machine: ``grade batch --shard K/N`` grades one shard of it into a shared OUT
(results and feedback only, several at once), and ``grade batch --merge`` builds the class's files from
what the shards wrote, byte for byte as one ``grade batch`` on one machine."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from bug_corpus import BUGS
from classroom import SOLUTIONS, Student, renamed_copy, write_submission
from commands import batch_command, run_batch, snapshot

from autograder.course.batch.selection import shard_of

# The first two parts only (`--part`): how a class is split does not depend on which tests run.
PARTS_GRADED = ("--part", "simple_tokenizers", "--part", "bpe")
CLASS_FILES = ("gradebook.csv", "canvas.csv", "summary.md", "summary.html", "summary-histogram.svg")
SHARDS = 3


def graded_now(process: subprocess.CompletedProcess[str]) -> int:
    return int(process.stderr.split("(")[1].split(" graded now")[0])


@pytest.fixture(scope="module")
def a_class(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Seven hand-ins (one a renamed copy of another, one unreadable) and a roster with a student who handed
    nothing in: the folder and the roster."""
    root = tmp_path_factory.mktemp("sharded")
    submissions = root / "submissions"
    write_submission(submissions, Student("ada", "correct"))
    write_submission(submissions, Student("bea", "not started"))
    in_parts = [name for name in sorted(BUGS) if BUGS[name][0] in PARTS_GRADED[1::2]]
    for number, name in enumerate(in_parts[:3]):
        write_submission(submissions, Student(f"bug{number}", "buggy", BUGS[name]))
    renamed_copy(SOLUTIONS, submissions / "ren")  # ada's code, every name changed and functions reordered
    (submissions / "hal.zip").write_bytes(b"not a zip")
    roster = root / "roster.csv"
    roster.write_text("Student,ID\nAda Lovelace,ada\nBea Bee,bea\nIan Absent,ian\n", encoding="utf-8")
    return submissions, roster


def shard_of_class(student: str) -> int:
    return shard_of(student, SHARDS)


GRADABLE = ("ada", "bea", "bug0", "bug1", "bug2", "ren")


@pytest.fixture(scope="module")
def sharded(a_class: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The class graded as three shards into one OUT, the first two at once: OUT."""
    submissions, roster = a_class
    assert {shard_of_class(student) for student in GRADABLE} == set(range(SHARDS)), "every shard has work"
    assert shard_of_class("ada") != shard_of_class("ren"), "the copy and its source are in different shards"
    out = tmp_path_factory.mktemp("shards") / "out"
    common = ("--roster", str(roster), "--jobs", "1", *PARTS_GRADED)
    at_once = [
        subprocess.Popen(
            batch_command(submissions, out, "--shard", f"{index}/{SHARDS}", *common),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=out.parent,
        )
        for index in (0, 1)
    ]
    finished = [subprocess.CompletedProcess(process.args, 0, *process.communicate(timeout=600)) for process in at_once]
    for process, done in zip(at_once, finished, strict=True):
        assert process.returncode == 0, done.stderr
    last = run_batch(submissions, out, "--shard", f"2/{SHARDS}", *common)
    assert last.returncode == 0, last.stderr
    for index, done in enumerate([*finished, last]):
        expected = sum(1 for student in GRADABLE if shard_of_class(student) == index)
        assert graded_now(done) == expected, f"shard {index}: {done.stderr}"
        assert f"shard {index}/{SHARDS}" in done.stderr and "--merge" in done.stderr
    return out


def test_shards_grade_each_hand_in_once_into_one_out_and_write_no_class_files(a_class, sharded):
    submissions, roster = a_class
    for student in GRADABLE:
        for name in ("results.json", "feedback.md", "feedback.html"):
            assert (sharded / student / name).is_file(), f"{student}/{name}"
    assert "hal.zip" in (sharded / "hal" / "feedback.md").read_text(encoding="utf-8"), "told why, by its shard"
    assert not (sharded / "hal" / "results.json").exists()
    assert [name for name in CLASS_FILES if (sharded / name).exists()] == [], "the merge writes those"
    assert not (sharded / "ian").exists()

    index = shard_of_class("ren")
    again = run_batch(submissions, sharded, "--shard", f"{index}/{SHARDS}", "--roster", str(roster), *PARTS_GRADED)
    assert again.returncode == 0 and graded_now(again) == 0, "a shard run again grades nothing it has graded"


def test_a_requeued_shard_redoes_only_what_is_missing(a_class, sharded, tmp_path):
    submissions, roster = a_class
    out = tmp_path / "out"
    shutil.copytree(sharded, out)
    index = shard_of_class("ren")
    kept = {student: (out / student / "results.json").read_bytes() for student in GRADABLE if student != "ren"}
    (out / "ren" / "results.json").unlink()  # its node was taken away mid-shard
    requeued = run_batch(submissions, out, "--shard", f"{index}/{SHARDS}", "--roster", str(roster), *PARTS_GRADED)
    assert requeued.returncode == 0, requeued.stderr
    assert graded_now(requeued) == 1 and (out / "ren" / "results.json").is_file()
    assert {student: (out / student / "results.json").read_bytes() for student in kept} == kept


def test_a_shard_leaves_other_writers_half_written_files_alone(a_class, tmp_path):
    """Shards write into one OUT at once: a shard that swept every half-written file in it would take away
    another shard's file as it is being written. It sweeps its own students' folders only."""
    submissions, roster = a_class
    out = tmp_path / "out"
    others = shard_of_class("ada")
    mine = next(index for index in range(SHARDS) if index != others)
    theirs, top = out / "ada" / ".partial-abc", out / ".partial-def"
    for path in (theirs, top):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("being written", encoding="utf-8")
    done = run_batch(submissions, out, "--shard", f"{mine}/{SHARDS}", "--roster", str(roster), *PARTS_GRADED)
    assert done.returncode == 0, done.stderr
    assert theirs.exists() and top.exists(), "another writer's files are left alone"
    own = run_batch(submissions, out, "--shard", f"{others}/{SHARDS}", "--roster", str(roster), *PARTS_GRADED)
    assert own.returncode == 0, own.stderr
    assert not theirs.exists(), "a shard sweeps what its own killed run left"
    assert top.exists(), "and never the class files' folder, where the merge writes"


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (("--shard", "3/3"), "K counts from 0"),
        (("--shard", "1-3"), "write K/N"),
        (("--shard", "0/0"), "at least 1"),
        (("--shard", "0/2", "--student", "ada"), "--student"),
        (("--shard", "0/2", "--junit", "class.xml"), "--junit"),
    ],
)
def test_a_shard_that_cannot_be_is_refused_in_one_line(a_class, tmp_path, arguments, said):
    submissions, _ = a_class
    out = tmp_path / "out"
    refused = run_batch(submissions, out, *arguments)
    assert refused.returncode == 2, refused.stderr
    assert refused.stderr.count("\n") == 1 and said in refused.stderr, refused.stderr
    assert refused.stderr.startswith("grade batch: ")
    assert not out.exists() or snapshot(out) == {}, "nothing graded"
