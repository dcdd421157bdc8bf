"""Manual grades are never lost: a total set by hand stands in where the tests give none, every roster student
is in the LMS's import, and a total no hand-in can earn is flagged for the instructor."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

from classroom import SOLUTIONS
from commands import run_batch
from results import full_marks, gradebook_rows

from autograder.course.batch import gradebook

TOKENIZERS = SOLUTIONS / "simple_tokenizers.py"
PART = ("--part", "simple_tokenizers")
HEADER = "student,part_or_test,points,comment\n"


def _class(tmp_path: Path) -> tuple[Path, Path, Path]:
    """ada hands in one module; bea two (a conflict: not graded); the roster has cyd and dan, who hand in none."""
    submissions = tmp_path / "class"
    for folder in ("ada", "bea"):
        (submissions / folder).mkdir(parents=True)
        shutil.copy(TOKENIZERS, submissions / folder)
    shutil.copy(TOKENIZERS, submissions / "bea.py")
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name\nada,Ada\nbea,Bea\ncyd,Cyd\ndan,Dan\n", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    return submissions, roster, out


def _canvas(out: Path) -> dict[str, list[str]]:
    with (out / "canvas.csv").open(encoding="utf-8", newline="") as stream:
        return {row[3]: row for row in list(csv.reader(stream))[2:]}


def test_a_total_set_by_hand_stands_in_where_the_tests_give_no_grade_and_canvas_lists_every_student(tmp_path):
    """`=N` in adjustments.csv's points sets the whole total: for bea, whose hand-in cannot be graded, and cyd,
    who handed in on paper, it is their grade in the gradebook, canvas.csv and their feedback ("graded by hand").
    dan, with no grade at all, is still a row of canvas.csv: 0 with a note, as the course file says."""
    submissions, roster, out = _class(tmp_path)
    (out / "adjustments.csv").write_text(
        HEADER + "bea,,=21.5,graded by hand from the two files\ncyd,,=18,handed in on paper\n", encoding="utf-8"
    )
    (tmp_path / "course.toml").write_text('[exports]\nwithout_grade = "zero"\n', encoding="utf-8")
    process = run_batch(submissions, out, *PART, "--roster", str(roster))
    assert process.returncode == 0, process.stderr[-2000:]
    rows = gradebook_rows(out)
    assert (rows["bea"]["total"], rows["bea"]["status"]) == ("21.5", gradebook.GRADED_BY_HAND)
    assert "more than one submission" in rows["bea"]["reason"], "why the tests could not grade it stays said"
    assert (rows["cyd"]["total"], rows["cyd"]["status"]) == ("18", gradebook.GRADED_BY_HAND)
    assert rows["ada"]["total"] == full_marks("simple_tokenizers") and rows["dan"]["total"] == ""
    canvas = _canvas(out)
    assert {student: row[5] for student, row in canvas.items()} == {
        "ada": full_marks("simple_tokenizers"),
        "bea": "21.5",
        "cyd": "18",
        "dan": "0",
    }, "every roster student is a row; one with no grade gets the course file's 0"
    assert len(canvas["dan"]) == 6, "nothing after the assignment column: Canvas would read it as its own"
    assert rows["dan"]["status"] == gradebook.NO_SUBMISSION, "why is the gradebook's to say"
    feedback = (out / "bea" / "feedback.md").read_text(encoding="utf-8")
    assert "= 21.5" in feedback and "graded by hand from the two files" in feedback
    assert "more than one submission" in feedback
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "| bea (Bea) | graded by hand |" in summary

    # A total stands alone: another row for the same student stops the batch before any grading.
    (out / "adjustments.csv").write_text(HEADER + "cyd,,=18,on paper\ncyd,Part 1,2,and a bonus\n", encoding="utf-8")
    refused = run_batch(submissions, out, *PART, "--roster", str(roster))
    assert refused.returncode == 2
    (line,) = [line for line in refused.stderr.splitlines() if "adjustments.csv" in line]
    assert "line 3" in line and "a total stands alone" in line, line


def test_a_total_above_full_marks_and_every_bonus_point_is_flagged_in_the_summary(tmp_path):
    """No hand-in earns more than full marks plus every bonus point from the tests: a total above that (a slip
    in adjustments.csv, or a total set by hand) is listed in the class summary to check."""
    submissions, roster, out = _class(tmp_path)
    (out / "adjustments.csv").write_text(HEADER + "ada,,100,typed 100 for 10\ncyd,,=31,\n", encoding="utf-8")
    process = run_batch(submissions, out, *PART, "--roster", str(roster))
    assert process.returncode == 0, process.stderr[-2000:]
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "## Totals to check" in summary
    flagged = summary.split("## Totals to check", 1)[1].split("\n## ", 1)[0]
    most = full_marks("simple_tokenizers")
    assert f"| ada | {float(most) + 100:g} | {most} |" in flagged and f"| cyd | 31 | {most} |" in flagged
    assert "| bea |" not in flagged
    (out / "adjustments.csv").write_text(HEADER + "ada,,-1,\n", encoding="utf-8")
    run_batch(submissions, out, *PART, "--roster", str(roster))
    assert "Totals to check" not in (out / "summary.md").read_text(encoding="utf-8"), "a total within reach is fine"
