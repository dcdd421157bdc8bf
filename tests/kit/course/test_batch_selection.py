"""Which hand-ins one ``grade batch`` grades: every one without a current result, the students named with
``--student`` (graded again, the rest kept, every report rebuilt), one shard, or none (the merge)."""

from __future__ import annotations

import collections
import shutil
from pathlib import Path

import pytest
from bug_corpus import BUGS
from classroom import Student, write_submission
from commands import run_batch, snapshot
from results import gradebook_rows

from autograder.course.batch.selection import Selection, Shard, shards_of


@pytest.mark.unit
def test_each_selection_grades_its_own_and_only_a_shard_leaves_the_class_files_alone():
    class_ids = [f"s{number:04d}" for number in range(60)]
    every, named, merge = Selection.every(), Selection.of_students(["s0003"]), Selection.of_no_one()
    shards = [Selection.of_shard(Shard(index, 3)).within(class_ids) for index in range(3)]
    assert all(every.grades(student) and not every.regrades(student) for student in class_ids)
    assert [student for student in class_ids if named.grades(student)] == ["s0003"]
    assert named.regrades("s0003") and not named.regrades("s0004"), "a student named is graded again"
    assert not any(merge.grades(student) for student in class_ids)
    graded_by = [[index for index, shard in enumerate(shards) if shard.grades(student)] for student in class_ids]
    assert all(len(indexes) == 1 for indexes in graded_by), "each hand-in is graded by one shard"
    assert [sum(1 for indexes in graded_by if indexes == [index]) for index in range(3)] == [20, 20, 20]
    assert [every.class_files, named.class_files, merge.class_files] == [True, True, True]
    assert not any(shard.class_files for shard in shards), "shards write into one OUT at once: results only"
    assert all(shard.reads(student) == shard.grades(student) for shard in shards for student in class_ids)
    assert all(named.reads(student) and merge.reads(student) for student in class_ids), "the reports show all"


@pytest.mark.unit
def test_every_machine_deals_the_same_split_and_the_shares_differ_by_one_at_most():
    """The sorted ids dealt in turn: the same on every machine, whatever order its folder lists them in (a
    salted hash() would grade some hand-ins twice and others never), and no shard is left the larger share
    (a digest of each id split this class of 200 into 85 and 115, so one shard's wait was 15% longer)."""
    class_ids = [f"s{number:04d}" for number in range(1, 201)]
    split = shards_of(class_ids, 2)
    assert shards_of(reversed(class_ids), 2) == split, "the order a folder lists the hand-ins in does not count"
    assert sorted(collections.Counter(split.values()).values()) == [100, 100]
    assert shards_of(["eve", "ada", "cyd", "bea", "dan", "ada"], 3) == {
        "ada": 0,
        "bea": 1,
        "cyd": 2,
        "dan": 0,
        "eve": 1,
    }
    assert shards_of(["B", "a", "é"], 3) == {"B": 0, "a": 1, "é": 2}, "by code point, not the machine's locale"
    assert set(shards_of(class_ids, 1).values()) == {0}
    with pytest.raises(RuntimeError, match="within"):
        Selection.of_shard(Shard(0, 2)).grades("s0001")


# The first two parts only (`--part`): which hand-ins are graded does not depend on which tests run.
PARTS_GRADED = ("--part", "simple_tokenizers", "--part", "bpe")


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A small class graded once: its submissions and the output."""
    root = tmp_path_factory.mktemp("selection")
    submissions = root / "submissions"
    write_submission(submissions, Student("ada", "correct"))
    write_submission(submissions, Student("bea", "not started"))
    in_parts = [name for name in sorted(BUGS) if BUGS[name][0] in PARTS_GRADED[1::2]]
    write_submission(submissions, Student("bug0", "buggy", BUGS[in_parts[0]]))
    (submissions / "hal.zip").write_bytes(b"not a zip")
    out = root / "out"
    process = run_batch(submissions, out, "--jobs", "2", *PARTS_GRADED)
    assert process.returncode == 0, process.stderr
    return submissions, out


@pytest.mark.slow
def test_student_regrades_just_those_keeps_the_rest_and_rebuilds_every_report(graded_class, tmp_path):
    submissions, graded = graded_class
    out = tmp_path / "out"
    shutil.copytree(graded, out)
    before = snapshot(out)
    for name in ("gradebook.csv", "canvas.csv", "summary.md", "summary.html"):
        (out / name).unlink()
    (out / "adjustments.csv").write_text(
        "student,part_or_test,points,comment\nbea,,2,for the tests you wrote\n", encoding="utf-8"
    )
    ada_graded = (out / "ada" / "results.json").stat().st_ino

    again = run_batch(submissions, out, "--student", "ada", *PARTS_GRADED)
    assert again.returncode == 0, again.stderr
    assert "(1 graded now, 2 up to date)" in again.stderr, "ada only, though her hand-in did not change"
    assert (out / "ada" / "results.json").stat().st_ino != ada_graded, "ada's result is written anew"
    for student in ("bea", "bug0"):
        path = f"{student}/results.json"
        assert (out / path).read_bytes() == before[path], f"{student}'s result is kept as it was"
    rows, expected = gradebook_rows(out), gradebook_rows(graded)
    assert rows["bea"]["adjustment"] == "2" and rows["bea"]["total"] == "2", "every report is built again"
    assert {student: row for student, row in rows.items() if student != "bea"} == {
        student: row for student, row in expected.items() if student != "bea"
    }
    assert "for the tests you wrote" in (out / "bea" / "feedback.md").read_text(encoding="utf-8")
    for name in ("canvas.csv", "summary.md", "summary.html"):
        assert (out / name).is_file(), name

    twice = run_batch(submissions, out, "--student", "ada", "--student", "bug0", *PARTS_GRADED)
    assert twice.returncode == 0 and "(2 graded now, 1 up to date)" in twice.stderr, twice.stderr
    forced = run_batch(submissions, out, "--student", "bea", "--force", *PARTS_GRADED)
    assert forced.returncode == 0 and "(1 graded now, 2 up to date)" in forced.stderr, "--force: of those named"


def test_an_unknown_student_is_refused_before_grading_in_one_line(graded_class, tmp_path):
    submissions, graded = graded_class
    out = tmp_path / "out"
    shutil.copytree(graded, out)
    before = snapshot(out)
    typo = run_batch(submissions, out, "--student", "ada", "--student", "bae", *PARTS_GRADED)
    assert typo.returncode == 2, typo.stderr
    assert typo.stderr.count("\n") == 1 and "'bae'" in typo.stderr and "did you mean 'bea'?" in typo.stderr
    unheard = run_batch(submissions, out, "--student", "zoltan", *PARTS_GRADED)
    assert unheard.returncode == 2 and "'zoltan'" in unheard.stderr and "did you mean" not in unheard.stderr
    assert snapshot(out) == before, "nothing graded, nothing written"


def test_student_refuses_to_rebuild_the_reports_while_another_hand_in_has_no_result(graded_class, tmp_path):
    """The gradebook is built from every hand-in's result: one with none would be left out of it."""
    submissions, graded = graded_class
    out = tmp_path / "out"
    shutil.copytree(graded, out)
    (out / "bea" / "results.json").unlink()
    before = snapshot(out)
    refused = run_batch(submissions, out, "--student", "ada", *PARTS_GRADED)
    assert refused.returncode == 2, refused.stderr
    assert "bea" in refused.stderr and "--student" in refused.stderr, refused.stderr
    assert snapshot(out) == before, "nothing graded, nothing written"
