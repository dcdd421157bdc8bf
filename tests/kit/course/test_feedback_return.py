"""Feedback goes back to the students: ``grade batch --return-feedback`` writes what Moodle takes in bulk.

Moodle's "Upload multiple feedback files in a zip" (moodle/moodle, mod/assign/feedback/file/importziplib.php,
is_valid_filename_for_import, at commit 0203d8f26027201de1d7d1ec8d8aa3cdcc4f5d5d) splits each path part at
its first four underscores (explode('_', part, 5)): the second field must be a participant id of the
assignment, the third and fourth name the plugin (assignfeedback, file), and what follows is the file's name.
So a full name holding an underscore would move the id out of its place: the kit's folders carry none.
The offline worksheet's comments go back in its "Feedback comments" column, found by that name (moodle/moodle,
mod/assign/feedback/offline/importgradeslib.php and locallib.php at commit
9762977c028cbd1884ed311a94c49efbae87591b, restated in moodle_importer.py, which the test uploads moodle.csv to).
"""

from __future__ import annotations

import csv
import subprocess
import sys
import zipfile
from pathlib import Path

import moodle_importer
import nbformat
import pytest
from classroom import SOLUTIONS, TEMPLATE
from commands import run_batch

TOKENIZERS = (SOLUTIONS / "simple_tokenizers.py").read_bytes()
HEADER = (
    "Identifier,Full name,Email address,Status,Grade,Maximum Grade,Grade can be changed,"
    "Last modified (submission),Online text,Last modified (grade),Feedback comments"
)


def moodle_reads(member: str, participants: set[str]) -> tuple[str, str, str] | None:
    """(participant, plugin, file name) as Moodle's zip importer reads a member's path, or None where it skips it."""
    parts = member.split("/")
    while parts:
        info = parts.pop(0).split("_", 4)
        if len(info) < 4 or not info[1].isdigit() or info[1] not in participants:
            continue
        plugin = f"{info[2]}_{info[3]}"
        if plugin != "assignfeedback_file":
            continue
        return info[1], plugin, "/".join([info[4] if len(info) > 4 else "", *parts]).lstrip("/")
    return None


def test_moodle_takes_each_feedback_page_back_to_its_student(tmp_path: Path) -> None:
    download = tmp_path / "download"
    files = {
        "Ada_Lovelace_201_assignsubmission_file_/simple_tokenizers.py": TOKENIZERS,
        "Bea Bee_202_assignsubmission_file_/simple_tokenizers.py": (TEMPLATE / "simple_tokenizers.py").read_bytes(),
    }
    for name, content in files.items():
        (download / name).parent.mkdir(parents=True, exist_ok=True)
        (download / name).write_bytes(content)
    worksheet = tmp_path / "worksheet.csv"
    rows = [
        "Participant 201,Ada_Lovelace,ada@uni.edu,Submitted for grading,,100.00,Yes,-,,-,",
        "Participant 202,Bea Bee,bea@uni.edu,Submitted for grading,,100.00,Yes,-,,-,Seen in class",
    ]
    worksheet.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    process = run_batch(download, out, "--part", "simple_tokenizers", "--roster", str(worksheet), "--return-feedback")
    assert process.returncode == 0, process.stderr[-2000:]

    with zipfile.ZipFile(out / "moodle-feedback.zip") as archive:
        read = {member: moodle_reads(member, {"201", "202"}) for member in archive.namelist()}
        pages = {member: archive.read(member) for member in archive.namelist()}
    taken = {member: found for member, found in read.items() if found is not None}
    assert taken == read, "Moodle skips no file of the zip"
    assert {(who, name) for who, _, name in taken.values()} == {("201", "feedback.html"), ("202", "feedback.html")}
    for member, (who, _, _) in taken.items():
        assert pages[member] == (out / who / "feedback.html").read_bytes(), "the page the student's folder holds"

    with (out / "moodle.csv").open(encoding="utf-8", newline="") as stream:
        back = {row["Identifier"]: row for row in csv.DictReader(stream)}
    assert "100" in back["Participant 201"]["Feedback comments"]
    assert "Seen in class" in back["Participant 202"]["Feedback comments"], "the instructor's comment is kept"
    assert back["Participant 202"]["Feedback comments"] != "Seen in class", "and the kit's is added"
    # As Moodle's own worksheet import reads it (moodle_importer cites the source), the comments plugin on and
    # 202's comment already in Moodle: both grades are taken, and both comments, the instructor's words kept.
    moodle = moodle_importer.Moodle(
        participants=frozenset({"201", "202"}), maximum=100.0, feedback={"202": {"Feedback comments": "Seen in class"}}
    )
    imported = moodle_importer.upload((out / "moodle.csv").read_text(encoding="utf-8"), moodle)
    assert set(imported.grades) == {"201", "202"} and not imported.skipped, imported
    comments = {student: texts["Feedback comments"] for student, texts in imported.feedback.items()}
    assert set(comments) == {"201", "202"}, imported.feedback
    assert comments["202"].startswith("Seen in class") and "feedback.html" in comments["202"], comments
    assert comments["201"] == back["Participant 201"]["Feedback comments"].strip()
    # With Feedback comments off in the assignment, Moodle has no such column: the grades alone go in.
    off = moodle_importer.upload(
        (out / "moodle.csv").read_text(encoding="utf-8"),
        moodle_importer.Moodle(participants=frozenset({"201", "202"}), maximum=100.0, feedback_plugins=frozenset()),
    )
    assert set(off.grades) == {"201", "202"} and off.feedback == {}


def test_without_the_option_nothing_goes_back(tmp_path: Path) -> None:
    download = tmp_path / "download" / "Ada Lovelace_201_assignsubmission_file_"
    download.mkdir(parents=True)
    (download / "simple_tokenizers.py").write_bytes(TOKENIZERS)
    out = tmp_path / "out"
    process = run_batch(download.parent, out, "--part", "simple_tokenizers")
    assert process.returncode == 0, process.stderr[-2000:]
    assert not (out / "moodle-feedback.zip").exists()


@pytest.mark.slow
def test_nbgrader_release_feedback_hands_out_the_kits_pages(tmp_path: Path) -> None:
    """nbgrader's release_feedback (nbgrader/exchange/default/release_feedback.py) takes every
    feedback/<student>/<assignment>/<notebook>.html with the timestamp.txt and submission_secret.txt beside it,
    as generate_feedback leaves them, and releases it under notebook_hash(secret, notebook): the real nbgrader
    is run on what the batch wrote."""
    utils = pytest.importorskip("nbgrader.utils", reason="nbgrader is in the dev extra")
    course = tmp_path / "course"
    handed_in = course / "submitted" / "alice" / "ps1"
    handed_in.mkdir(parents=True)
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(TOKENIZERS.decode())])
    nbformat.write(notebook, handed_in / "simple_tokenizers.ipynb")
    (handed_in / "timestamp.txt").write_text("2026-11-20 10:15:00.000000 UTC", encoding="utf-8")
    (handed_in / "submission_secret.txt").write_text("s3cret", encoding="utf-8")
    out = tmp_path / "graded"
    process = run_batch(course, out, "--part", "simple_tokenizers", "--return-feedback")
    assert process.returncode == 0, process.stderr[-2000:]
    page = course / "feedback" / "alice" / "ps1" / "simple_tokenizers.html"
    assert page.read_bytes() == (out / "alice" / "feedback.html").read_bytes()

    exchange = tmp_path / "exchange"
    exchange.mkdir()
    exchange.chmod(0o777)  # nbgrader's exchange is shared: it refuses one others cannot write to
    released = subprocess.run(
        [sys.executable, "-m", "nbgrader", "release_feedback", "ps1", "--course=bpe",
         f"--Exchange.root={exchange}", f"--CourseDirectory.root={course}"],
        capture_output=True, text=True, timeout=300, cwd=course,
    )  # fmt: skip
    assert released.returncode == 0, released.stderr[-4000:] + released.stdout[-2000:]
    checksum = utils.notebook_hash(secret="s3cret", notebook_id="simple_tokenizers")
    assert (exchange / "bpe" / "feedback" / f"{checksum}.html").read_bytes() == page.read_bytes()


def test_a_canvas_download_gets_no_moodle_zip(tmp_path: Path) -> None:
    """Canvas's user ids are numbers too, but not Moodle participants: their pages are not put in Moodle's zip."""
    download = tmp_path / "download"
    download.mkdir()
    (download / "lovelaceada_1001_5001_simple_tokenizers.py").write_bytes(TOKENIZERS)
    (download / "beebea_1002_5002_simple_tokenizers.py").write_bytes(TOKENIZERS)
    out = tmp_path / "out"
    process = run_batch(download, out, "--part", "simple_tokenizers", "--return-feedback")
    assert process.returncode == 0, process.stderr[-2000:]
    assert (out / "1001" / "feedback.html").is_file()
    assert not (out / "moodle-feedback.zip").exists()


def test_moodles_download_graded_as_its_zip_gets_its_feedback_zip_too(tmp_path: Path) -> None:
    """The zip Moodle gave, not unpacked: the same participants, so the same feedback zip as its folder gets."""
    download = tmp_path / "download.zip"
    with zipfile.ZipFile(download, "w") as archive:
        archive.writestr("Ada Lovelace_201_assignsubmission_file/simple_tokenizers.py", TOKENIZERS)
        archive.writestr("Bea Bee_202_assignsubmission_file/simple_tokenizers.py", TOKENIZERS)
    out = tmp_path / "out"
    process = run_batch(download, out, "--part", "simple_tokenizers", "--return-feedback")
    assert process.returncode == 0, process.stderr[-2000:]
    with zipfile.ZipFile(out / "moodle-feedback.zip") as archive:
        read = {member: moodle_reads(member, {"201", "202"}) for member in archive.namelist()}
    assert {found[0] for found in read.values() if found is not None} == {"201", "202"}, read


@pytest.mark.unit
def test_the_worksheets_comment_on_a_total_set_by_hand_says_so():
    """A total set in adjustments.csv (one handed in on paper) is the instructor's, not the tests': the comment
    Moodle shows the student says it was graded by hand."""
    from autograder.course.batch import feedback_return, gradebook
    from autograder.scoring.grade_result import GradeResult

    result = GradeResult(score=18, max_score=30, execution_time=0, output="", tests=())
    by_hand = gradebook.StudentRecord("204", "Max Moe", gradebook.GRADED_BY_HAND, result=result)
    assert feedback_return.comment(by_hand).startswith("Graded by hand: 18 of 30 points (60%)."), by_hand
    tested = gradebook.StudentRecord("201", "Kay Kim", "graded", result=result)
    assert feedback_return.comment(tested).startswith("Autograded: 18 of 30 points (60%).")
