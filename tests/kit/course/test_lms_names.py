"""Every name an LMS writes maps to its student: the id is read from the part of the name the platform writes,
settled with the download's other names and the roster, never merged across students (lms_names builds the
names as Canvas and Moodle do)."""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

import pytest
from classroom import SOLUTIONS
from commands import run_batch
from lms_names import canvas_name, moodle_flat, moodle_folder
from results import gradebook_rows

from autograder.course.batch import store
from autograder.course.batch.discover import discover
from autograder.hand_in.hand_in_limits import HandInLimits

TOKENIZERS = (SOLUTIONS / "simple_tokenizers.py").read_bytes()
BROKEN = b"def char_tokenize(text):\n    return []\n"
PART = ("--part", "simple_tokenizers")
# Canvas's gradebook export, as the roster: the assignment column is "Title (id)"
CANVAS_ROSTER_HEADER = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "BPE exercises (4242)"]
# sortable names as Canvas keeps them: Unicode letters and marks, digits, an underscore, a right-to-left script
CLASS = {
    100101: "Lovelace, Ada",
    100102: "Müller, Jürgen",
    100103: "Nguyễn, Thị Hoa",
    100104: "शर्मा, राम",  # Devanagari: its vowel signs are marks, not letters
    100105: "الحسن, علي",
    100106: "O_Brien 2nd, Pat",
    100107: "Ōtsuka_3_, Ken",
}


def _zip(path: Path, files: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return path


def _canvas_roster(path: Path, students: dict[int, str]) -> Path:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CANVAS_ROSTER_HEADER)
    writer.writerow(["    Points Possible", "", "", "", "", "100"])
    for user_id, name in students.items():
        writer.writerow([name, str(user_id), f"s{user_id}", f"login{user_id}", "Section 1", ""])
    path.write_text(buffer.getvalue(), encoding="utf-8")
    return path


def _files(discovery, student: str) -> dict[str, bytes]:
    return next(found for found in discovery.found if found.student == student).load(HandInLimits()).files


@pytest.mark.slow
def test_every_canvas_name_is_graded_as_its_student(tmp_path):
    """Canvas keeps every word character of a sortable name in its file names (any script, digits, `_`): each
    such hand-in is graded as its user id, none is "no submission", and nothing is said not to fit."""
    download = _zip(
        tmp_path / "submissions.zip",
        {
            canvas_name(name, user_id, 90000000 + user_id, "simple_tokenizers.py", late=user_id == 100103): TOKENIZERS
            for user_id, name in CLASS.items()
        },
    )
    roster = _canvas_roster(tmp_path / "roster.csv", CLASS)
    out = tmp_path / "out"
    process = run_batch(download, out, "--roster", str(roster), *PART)
    assert process.returncode == 0, process.stderr
    rows = gradebook_rows(out)
    assert {student: row["status"] for student, row in rows.items()} == {str(user_id): "graded" for user_id in CLASS}
    assert len({row["total"] for row in rows.values()}) == 1, "one hand-in, one score, whatever the name"
    assert "does not fit" not in process.stderr, process.stderr


@pytest.mark.unit
def test_a_canvas_name_that_reads_two_ways_is_read_as_the_download_and_the_roster_say(tmp_path):
    """A sortable name whose removed characters leave `_<digits>_<digits>_` in the slug reads as two students'
    files; the reading whose id another name already gives another student is not the one, so the file stays
    its uploader's, and nothing reaches the classmate's hand-in."""
    eve = "Eve_100101 _9 _x, A"  # Canvas: eve_100101_9_xa_100108
    names = {
        canvas_name("Lovelace, Ada", 100101, 5001, "simple_tokenizers.py"): BROKEN,
        canvas_name(eve, 100108, 5002, "simple_tokenizers.py"): TOKENIZERS,
    }
    assert next(iter(names.keys() - {canvas_name("Lovelace, Ada", 100101, 5001, "simple_tokenizers.py")})) == (
        "eve_100101_9_xa_100108_5002_simple_tokenizers.py"
    )
    discovery = discover(_zip(tmp_path / "download.zip", names))
    assert _files(discovery, "100101") == {"simple_tokenizers.py": BROKEN}, "Ada's hand-in is Ada's own"
    assert _files(discovery, "100108") == {"simple_tokenizers.py": TOKENIZERS}
    assert not discovery.conflicts


@pytest.mark.unit
def test_a_canvas_name_that_reads_as_two_roster_students_is_one_line_and_is_not_graded(tmp_path):
    """Where neither the other names nor the roster tell the readings apart (both ids are the roster's, and the
    classmate handed nothing in), the file is graded as no one's, and one line names both readings."""
    names = {
        canvas_name("Eve_100101 _9 _x, A", 100108, 5002, "simple_tokenizers.py"): TOKENIZERS,
        canvas_name("Bee, Bea", 100102, 5003, "simple_tokenizers.py"): TOKENIZERS,
    }
    discovery = discover(_zip(tmp_path / "download.zip", names), roster_ids={"100101", "100102", "100108"})
    assert sorted(found.student for found in discovery.found) == ["100102"]
    (line,) = [line for line in discovery.warnings() if "eve_100101" in line]
    assert "100101" in line and "100108" in line and "not graded" in line, line


@pytest.mark.unit
@pytest.mark.parametrize("shape", ["as folders", "flat"])
def test_a_moodle_file_a_student_named_like_a_classmates_stays_the_students(tmp_path, shape):
    """Moodle writes the full name with its `_` turned into spaces, then `_<participant id>_assignsubmission_`;
    what follows (the file's name, in the flat shape) is the student's text. A file named with a classmate's
    id there is its uploader's, and the classmate's hand-in holds only their own."""
    planted = moodle_flat("Ada Lovelace", 201, "simple_tokenizers.py")  # the classmate's name, as a file name
    if shape == "as folders":
        names = {
            f"{moodle_folder('Ada Lovelace', 201)}/simple_tokenizers.py": BROKEN,
            f"{moodle_folder('Eve_201_assignsubmission_file', 203)}/simple_tokenizers.py": TOKENIZERS,
        }
    else:
        names = {
            moodle_flat("Ada Lovelace", 201, "simple_tokenizers.py"): BROKEN,
            moodle_flat("Eve", 203, planted): TOKENIZERS,
        }
    discovery = discover(_zip(tmp_path / "download.zip", names))
    assert _files(discovery, "201") == {"simple_tokenizers.py": BROKEN}, "Ada's hand-in is Ada's own"
    assert "203" in {found.student for found in discovery.found}
    assert not discovery.conflicts


@pytest.mark.unit
def test_two_moodle_folders_that_claim_one_id_are_both_listed_and_neither_is_merged(tmp_path):
    """Two downloads unpacked into one folder, the student renamed between them: two names give one participant
    id. Neither is taken for the other's: the student is a choice to make between the two, as for two hand-ins."""
    names = {
        f"{moodle_folder('Ada Lovelace', 201)}/simple_tokenizers.py": TOKENIZERS,
        f"{moodle_folder('Ada King', 201)}/simple_tokenizers.py": BROKEN,
        f"{moodle_folder('Bea Bee', 202)}/simple_tokenizers.py": TOKENIZERS,
    }
    folder = tmp_path / "download"
    for name, content in names.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(content)
    discovery = discover(folder)
    assert [found.student for found in discovery.found] == ["202"]
    assert sorted(found.name_hint for found in discovery.conflicts["201"]) == ["Ada King", "Ada Lovelace"]


@pytest.mark.slow
def test_a_student_named_like_a_class_file_is_graded_and_the_class_file_is_written(tmp_path):
    """A hand-in folder called `gradebook.csv` names no class file: it is graded under an id of its own, said,
    and OUT's gradebook.csv is the class's."""
    submissions = tmp_path / "submissions"
    for student in ("gradebook.csv", "ada"):
        (submissions / student).mkdir(parents=True)
        (submissions / student / "simple_tokenizers.py").write_bytes(TOKENIZERS)
    out = tmp_path / "out"
    process = run_batch(submissions, out, *PART)
    assert process.returncode == 0, process.stderr
    rows = gradebook_rows(out)
    (renamed,) = [student for student in rows if student != "ada"]
    assert renamed.startswith("gradebook.csv-") and rows[renamed]["total"] == rows["ada"]["total"]
    assert "gradebook.csv" in process.stderr and renamed in process.stderr
    top = {path.name for path in out.iterdir() if path.is_file()}
    assert top <= store.CLASS_FILES, f"OUT's class files an id must not take: {top - store.CLASS_FILES}"
