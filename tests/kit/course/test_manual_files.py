"""Manual grades live with the course: adjustments.csv and choices.csv beside course.toml, read by every batch
whatever OUT is; one an older kit left in OUT is used, and the run says to move it."""

from __future__ import annotations

from pathlib import Path

import pytest
from classroom import SOLUTIONS
from commands import run_batch
from results import gradebook_rows

TOKENIZERS = (SOLUTIONS / "simple_tokenizers.py").read_bytes()
PART = ("--part", "simple_tokenizers")
HEADER = "student,part_or_test,points,comment\n"


def _course(tmp_path: Path) -> tuple[Path, Path]:
    """A course folder with its course file, and the class's hand-ins."""
    course = tmp_path / "course"
    course.mkdir()
    (course / "course.toml").write_text('[assignment]\nname = "Tokenizers"\n', encoding="utf-8")
    submissions = tmp_path / "submissions"
    for student in ("ada", "bea"):
        (submissions / student).mkdir(parents=True)
        (submissions / student / "simple_tokenizers.py").write_bytes(TOKENIZERS)
    return course, submissions


@pytest.mark.slow
def test_adjustments_beside_the_course_file_reach_every_fresh_out(tmp_path):
    """A Slurm array, a CI shard or a TA's machine grades into a fresh OUT: the adjustments beside course.toml
    count there all the same."""
    course, submissions = _course(tmp_path)
    # one course file serves every section: zed's row is the other section's batch's to apply
    (course / "adjustments.csv").write_text(HEADER + "ada,,-2,late slide\nzed,,1,section B\n", encoding="utf-8")
    totals = []
    for out in (tmp_path / "out-1", tmp_path / "out-2"):
        process = run_batch(submissions, out, "--course", str(course / "course.toml"), *PART)
        assert process.returncode == 0, process.stderr
        assert "line(s) 3 name no student of this batch" in " ".join(process.stderr.split()), process.stderr
        rows = gradebook_rows(out)
        assert rows["ada"]["adjustment"] == "-2", rows["ada"]
        assert float(rows["ada"]["total"]) == float(rows["bea"]["total"]) - 2
        totals.append(rows["ada"]["total"])
        assert not (out / "adjustments.csv").exists(), "the course's file, not a new empty one in OUT"
    assert totals[0] == totals[1]


@pytest.mark.slow
def test_an_old_adjustments_file_in_out_is_used_once_and_said_to_move(tmp_path):
    """An OUT an older kit wrote holds adjustments.csv: the batch applies it and says where it belongs; one beside
    the course file as well, both with rows, stops the batch naming both."""
    course, submissions = _course(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "adjustments.csv").write_text(HEADER + "bea,,1,extra credit\n", encoding="utf-8")
    process = run_batch(submissions, out, "--course", str(course / "course.toml"), *PART)
    assert process.returncode == 0, process.stderr
    assert gradebook_rows(out)["bea"]["adjustment"] == "1"
    assert f"move it beside {course / 'course.toml'}" in " ".join(process.stderr.split()), process.stderr
    (course / "adjustments.csv").write_text(HEADER + "ada,,-2,late slide\n", encoding="utf-8")
    process = run_batch(submissions, out, "--course", str(course / "course.toml"), *PART)
    assert process.returncode != 0
    said = " ".join(process.stderr.split())
    assert str(out / "adjustments.csv") in said and str(course / "adjustments.csv") in said, said


@pytest.mark.slow
def test_shards_that_saw_other_manual_files_are_named_at_the_merge(tmp_path):
    """Shard 0 graded before a row was added to adjustments.csv, shard 1 after: the merge applies the file as it
    is now, and names shard 0 as having seen another."""
    course, submissions = _course(tmp_path)
    out = tmp_path / "out"
    with_course = ("--course", str(course / "course.toml"), *PART)
    assert run_batch(submissions, out, "--shard", "0/2", *with_course).returncode == 0
    (course / "adjustments.csv").write_text(HEADER + "ada,,-2,late slide\n", encoding="utf-8")
    assert run_batch(submissions, out, "--shard", "1/2", *with_course).returncode == 0
    merged = run_batch(submissions, out, "--merge", *with_course)
    assert merged.returncode == 0, merged.stderr
    said = " ".join(merged.stderr.split())
    assert "shard(s) 0/2 graded with other manual files" in said, said
    assert gradebook_rows(out)["ada"]["adjustment"] == "-2"
    again = run_batch(submissions, out, "--shard", "0/2", *with_course)
    assert again.returncode == 0
    remerged = run_batch(submissions, out, "--merge", *with_course)
    assert "other manual files" not in remerged.stderr, "each shard has seen these files now"
