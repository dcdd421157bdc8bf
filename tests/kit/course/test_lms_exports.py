"""The LMS files import: canvas.csv as Canvas's gradebook importer reads it (canvas_importer restates its rules,
from instructure/canvas-lms lib/gradebook_importer.rb at 00b222d77ee43d046e6aee0347c4ed5b27e1741f)."""

from __future__ import annotations

import csv
import zipfile
from pathlib import Path

import canvas_importer
import pytest
from classroom import SOLUTIONS
from commands import run_batch
from lms_names import canvas_name
from results import gradebook_rows
from test_lms_names import CLASS, PART, _canvas_roster

from autograder.course.batch import gradebook

TOKENIZERS = (SOLUTIONS / "simple_tokenizers.py").read_bytes()
BROKEN = b"def char_tokenize(text):\n    return []\n"
ASSIGNMENT_ID = "4242"  # the roster's "BPE exercises (4242)"


@pytest.fixture(scope="module")
def graded_canvas_class(tmp_path_factory) -> Path:
    """A Canvas class of every oddity of names, one hand-in broken, one student with none, graded with Canvas's
    gradebook export as the roster."""
    root = tmp_path_factory.mktemp("canvas")
    handed_in = dict(list(CLASS.items())[:-1])  # the last student hands nothing in
    with zipfile.ZipFile(root / "submissions.zip", "w") as archive:
        for user_id, name in handed_in.items():
            content = BROKEN if user_id == 100102 else TOKENIZERS
            archive.writestr(canvas_name(name, user_id, 9000 + user_id, "simple_tokenizers.py"), content)
    roster = _canvas_roster(root / "roster.csv", CLASS)
    out = root / "out"
    process = run_batch(root / "submissions.zip", out, "--roster", str(roster), "--title", "BPE exercises", *PART)
    assert process.returncode == 0, process.stderr
    return out


def _course(custom_columns: tuple[str, ...]) -> canvas_importer.Course:
    students = tuple(
        canvas_importer.Student(str(user_id), name, name, f"s{user_id}", f"login{user_id}")
        for user_id, name in CLASS.items()
    )
    return canvas_importer.Course(students, {ASSIGNMENT_ID: "BPE exercises", "17": "Quiz 1"}, custom_columns)


@pytest.mark.slow
@pytest.mark.parametrize(
    "custom_columns",
    [(), ("Notes",)],
    ids=["a course without custom columns", "a course with Canvas's Notes column"],
)
def test_canvas_imports_every_grade_of_canvas_csv_into_the_rosters_assignment(graded_canvas_class, custom_columns):
    """Every graded student's total reaches the roster's assignment (matched by its `Title (id)`), as its
    user's; no new assignment is offered, no custom column is written, no row is a student Canvas lacks."""
    sent = (graded_canvas_class / "canvas.csv").read_text(encoding="utf-8")
    imported = canvas_importer.upload(sent, _course(custom_columns))
    rows = gradebook_rows(graded_canvas_class)
    graded = {student: row["total"] for student, row in rows.items() if row["status"] == "graded"}
    assert imported.new_assignments == [], "Canvas would offer a column it does not know as a new assignment"
    assert imported.custom == {}, "Canvas would write a custom column from canvas.csv"
    assert imported.unknown_students == []
    assert imported.grades == {ASSIGNMENT_ID: graded}
    assert float(imported.points[ASSIGNMENT_ID]) == float(next(iter(rows.values()))["max"])


@pytest.mark.slow
def test_every_column_of_canvas_csv_is_the_rosters(graded_canvas_class):
    """The student columns are the roster's own cells, the assignment column the roster's header, and no column
    comes after it (Canvas reads a known title there as a custom column, an unknown one as an assignment)."""
    with (graded_canvas_class / "canvas.csv").open(encoding="utf-8", newline="") as stream:
        header, points, *rows = list(csv.reader(stream))
    assert header == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", f"BPE exercises ({ASSIGNMENT_ID})"]
    assert points[0] == "Points Possible" and all(len(row) == len(header) for row in rows)
    expected = {
        str(user_id): [name, str(user_id), f"s{user_id}", f"login{user_id}", "Section 1"]
        for user_id, name in CLASS.items()
    }
    assert {row[1]: row[:5] for row in rows} == expected
    missing = str(list(CLASS)[-1])
    assert next(row for row in rows if row[1] == missing)[5] == "", "no hand-in: a blank, Canvas keeps its grade"


@pytest.mark.unit
def test_a_title_canvas_would_not_take_as_the_assignment_is_said():
    """No `Title (id)` of that title in the roster: Canvas would make a new assignment, and the batch says so;
    a title holding a total's words (Final Grade) is one Canvas's importer leaves out."""
    column, lines = gradebook.canvas_column("BPE exercises", ["Student", "ID", "Section", "Quiz 1 (17)"])
    assert column == "BPE exercises" and "Quiz 1 (17)" in lines[0] and "new assignment" in lines[0]
    column, lines = gradebook.canvas_column("Final Grade project", ["Final Grade project (9)"])
    assert column == "Final Grade project (9)" and "leaves it out" in lines[0]
    assert gradebook.canvas_column("BPE exercises", ["BPE exercises (4242)", "Quiz 1 (17)"]) == (
        "BPE exercises (4242)",
        [],
    )
