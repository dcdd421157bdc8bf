"""A class on more than one machine: ``grade batch --shard K/N`` grades one shard of it into a shared OUT
(results and feedback only, several at once), and ``grade batch --merge`` builds the class's files from
what the shards wrote, byte for byte as one ``grade batch`` on one machine."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from classroom import Student, write_submission
from commands import batch_command, run_batch, snapshot
from sharded_class import (
    CLASS_FILES,
    GRADABLE,
    HAND_INS,
    PARTS_GRADED,
    assert_same_but_timings,
    without_timings,
    write_class,
)

from autograder.course.batch.selection import shards_of

# Its hand-ins step outside the plain-Python policy on purpose, to test the worker and the cage.
pytestmark = [pytest.mark.without_policy, pytest.mark.slow]  # minutes of batches: CI's second step

SHARDS = 3


def graded_now(process: subprocess.CompletedProcess[str]) -> int:
    return int(process.stderr.split("(")[1].split(" graded now")[0])


@pytest.fixture(scope="module")
def a_class(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The class of sharded_class: its folder and its roster."""
    return write_class(tmp_path_factory.mktemp("sharded"))


def shard_of_class(student: str) -> int:
    return shards_of(HAND_INS, SHARDS)[student]


@pytest.fixture(scope="module")
def sharded(a_class: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The class graded as three shards into one OUT, the first two at once: OUT."""
    submissions, roster = a_class
    assert {shard_of_class(student) for student in GRADABLE} == set(range(SHARDS)), "every shard has work"
    assert shard_of_class("ada") != shard_of_class("cal"), "the copy and its source are in different shards"
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

    index = shard_of_class("cal")
    again = run_batch(submissions, sharded, "--shard", f"{index}/{SHARDS}", "--roster", str(roster), *PARTS_GRADED)
    assert again.returncode == 0 and graded_now(again) == 0, "a shard run again grades nothing it has graded"


def test_a_requeued_shard_redoes_only_what_is_missing(a_class, sharded, tmp_path):
    submissions, roster = a_class
    out = tmp_path / "out"
    shutil.copytree(sharded, out)
    index = shard_of_class("cal")
    kept = {student: (out / student / "results.json").read_bytes() for student in GRADABLE if student != "cal"}
    (out / "cal" / "results.json").unlink()  # its node was taken away mid-shard
    requeued = run_batch(submissions, out, "--shard", f"{index}/{SHARDS}", "--roster", str(roster), *PARTS_GRADED)
    assert requeued.returncode == 0, requeued.stderr
    assert graded_now(requeued) == 1 and (out / "cal" / "results.json").is_file()
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
        (("--shard", "0/2", "--merge"), "--merge"),
        (("--merge", "--student", "ada"), "--student"),
        (("--merge", "--force"), "--force"),
    ],
)
def test_a_shard_or_merge_that_cannot_be_is_refused_in_one_line(a_class, tmp_path, arguments, said):
    submissions, _ = a_class
    out = tmp_path / "out"
    refused = run_batch(submissions, out, *arguments)
    assert refused.returncode == 2, refused.stderr
    assert refused.stderr.count("\n") == 1 and said in refused.stderr, refused.stderr
    assert refused.stderr.startswith("grade batch: ")
    assert not out.exists() or snapshot(out) == {}, "nothing graded"


@pytest.fixture(scope="module")
def one_machine(a_class: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The class graded as one batch on one machine: OUT, with the JUnit file beside it as class.xml."""
    submissions, roster = a_class
    out = tmp_path_factory.mktemp("one") / "out"
    junit = out.parent / "class.xml"
    done = run_batch(submissions, out, "--roster", str(roster), "--junit", str(junit), "--jobs", "2", *PARTS_GRADED)
    assert done.returncode == 0, done.stderr
    return out


def test_a_merged_class_is_byte_identical_to_one_batch_but_for_timings(a_class, sharded, one_machine, tmp_path):
    submissions, roster = a_class
    out = tmp_path / "out"
    shutil.copytree(sharded, out)
    junit = tmp_path / "class.xml"
    merged = run_batch(submissions, out, "--merge", "--roster", str(roster), "--junit", str(junit), *PARTS_GRADED)
    assert merged.returncode == 0, merged.stderr
    assert "(0 graded now, 6 up to date)" in merged.stderr, "the merge grades nothing"
    assert all(f"wrote {out / name}" in merged.stdout for name in CLASS_FILES), merged.stdout

    assert_same_but_timings(out, one_machine)
    assert without_timings("class.xml", junit.read_bytes()) == without_timings(
        "class.xml", (one_machine.parent / "class.xml").read_bytes()
    )


def test_a_merge_lists_the_hand_ins_with_no_result_and_writes_nothing(a_class, sharded, tmp_path):
    submissions, roster = a_class
    out = tmp_path / "out"
    shutil.copytree(sharded, out)
    for student in ("bea", "bug1"):  # their shards did not finish
        (out / student / "results.json").unlink()
    before = snapshot(out)
    merged = run_batch(submissions, out, "--merge", "--roster", str(roster), *PARTS_GRADED)
    assert merged.returncode == 2, merged.stderr
    assert "no result yet: bea, bug1" in merged.stderr, merged.stderr
    assert "--student" in merged.stderr and "shard" in merged.stderr, "it says how to get them"
    assert snapshot(out) == before, "no class file built without them, nothing else written"


def test_a_merge_refuses_results_of_another_kit_or_grading_naming_them(a_class, sharded, tmp_path):
    submissions, roster = a_class
    out = tmp_path / "out"
    shutil.copytree(sharded, out)
    for student, changes in (("ada", {"kit": "0.0.1", "grading": "0" * 64}), ("bug0", {"grading": "0" * 64})):
        stored = out / student / "results.json"
        document = json.loads(stored.read_text(encoding="utf-8"))
        assert {"kit", "grading"} <= set(document["extra_data"]["batch"]), "a result says what graded it"
        document["extra_data"]["batch"] |= changes | {"fingerprint": "0" * 64}
        stored.write_text(json.dumps(document), encoding="utf-8")
    before = snapshot(out)
    merged = run_batch(submissions, out, "--merge", "--roster", str(roster), *PARTS_GRADED)
    assert merged.returncode == 2, merged.stderr
    assert "graded by kit 0.0.1" in merged.stderr and ": ada" in merged.stderr, merged.stderr
    assert "graded with other tests, reference, limits" in merged.stderr and ": bug0" in merged.stderr
    assert snapshot(out) == before


# Part 1's char_tokenize says which CPUs its worker may run on, in the error it raises.
TELLS_ITS_CPUS = """
import os


def char_tokenize(text):
    raise ValueError(f"on CPUs {sorted(os.sched_getaffinity(0))}")
"""


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="CPUs can be chosen on Linux only")
def test_shards_run_side_by_side_on_one_machine_take_cpus_of_their_own(tmp_path):
    """Each grader keeps to one CPU (pool.keep_to_one_cpu): shard K's graders take the CPUs after those of the
    shards before it, or two shards of --jobs 1 side by side would share the first CPU and leave the next idle."""
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        pytest.skip("one CPU: the shards can only share it")
    submissions, out = tmp_path / "submissions", tmp_path / "out"
    names = {0: "s0", 1: "s1"}  # dealt in turn: one student in each shard
    for student in names.values():
        write_submission(submissions, Student(student, "buggy", ("simple_tokenizers", "char_tokenize", TELLS_ITS_CPUS)))
    said = {}
    for index in range(2):
        done = run_batch(submissions, out, "--shard", f"{index}/2", "--jobs", "1", "--part", "simple_tokenizers")
        assert done.returncode == 0, done.stderr
        said[index] = re.findall(r"on CPUs \[[\d, ]+\]", (out / names[index] / "results.json").read_text())[0]
    assert said == {0: f"on CPUs [{cpus[0]}]", 1: f"on CPUs [{cpus[1]}]"}
