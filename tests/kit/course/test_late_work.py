"""Late work through ``grade batch``: the course file's due date, rule and extensions, against the time each
platform gives (Canvas's mark and the file's own time, nbgrader's timestamp.txt), taken off once and said."""

from __future__ import annotations

import csv
import os
import shutil
from datetime import UTC, datetime

import moodle_importer
import pytest
from classroom import SOLUTIONS, TEMPLATE
from commands import run_batch
from results import full_marks, gradebook_rows

from autograder.course.batch import late_work

TOKENIZERS = SOLUTIONS / "simple_tokenizers.py"
TEMPLATE_TOKENIZERS = TEMPLATE / "simple_tokenizers.py"
PART = ("--part", "simple_tokenizers")


def _at(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()


def test_canvas_late_names_with_a_due_date_and_an_extension(tmp_path):
    """Canvas's LATE says a hand-in is late, its file's own time by how much: 10% of full marks a day or part of
    one. An extension moves one student's due date; a hand-in Canvas did not mark is on time, and one it marked
    whose time is not past the due date costs nothing and is named for the instructor to check. The gradebook,
    canvas.csv and the late student's feedback all say the same, the penalty taken once."""
    download = tmp_path / "download"
    download.mkdir()
    times = {
        "lovelaceada_1001_5001_simple_tokenizers.py": "2026-11-20T10:00:00",  # on time
        "beebea_LATE_1002_5003_simple_tokenizers.py": "2026-11-22T03:00:00",  # 1 day 3 h late: 2 days
        "ceecyd_LATE_1003_5004_simple_tokenizers.py": "2026-11-22T03:00:00",  # within cyd's extension
        "deedan_late_1004_5005_simple_tokenizers.py": "2026-11-20T12:00:00",  # marked, its time says on time
    }
    for name, when in times.items():
        shutil.copy(TOKENIZERS, download / name)
        os.utime(download / name, (_at(when), _at(when)))
    (tmp_path / "course.toml").write_text(
        '[late]\ndue = 2026-11-20T23:59:00\ntime_zone = "UTC"\npercent = 10\nextensions = "extensions.csv"\n',
        encoding="utf-8",
    )
    (tmp_path / "extensions.csv").write_text("student,due\n1003,2026-11-23 12:00\n", encoding="utf-8")
    out = tmp_path / "out"
    process = run_batch(download, out, *PART)  # the course file: course.toml where the batch runs
    assert process.returncode == 0, process.stderr[-2000:]

    full = float(full_marks("simple_tokenizers"))
    rows = gradebook_rows(out)
    assert {student: row["late_penalty"] for student, row in rows.items()} == {
        "1001": "",
        "1002": f"{0.2 * full:g}",
        "1003": "",
        "1004": "",
    }
    assert rows["1002"]["total"] == f"{0.8 * full:g}" and rows["1003"]["total"] == f"{full:g}"
    assert rows["1002"]["late"] == "1 day 3 h late (Canvas's mark, timed by the file's own time)"
    assert rows["1001"]["late"] == "on time (Canvas's mark)"
    assert "extended to 2026-11-23 12:00 UTC" in rows["1003"]["late"]
    (doubt,) = [line for line in process.stderr.splitlines() if "1004" in line]
    assert doubt.startswith("warning: 1004: Canvas marks it late") and "check it" in doubt

    with (out / "canvas.csv").open(encoding="utf-8", newline="") as stream:
        canvas = {row[1]: row[5] for row in list(csv.reader(stream))[2:]}
    assert canvas == {student: row["total"] for student, row in rows.items()}, "the LMS gets the penalised total"
    late = (out / "1002" / "feedback.md").read_text(encoding="utf-8").split("## Late", 1)[1]
    assert "1 day 3 h after the due date (2026-11-20 23:59 UTC)" in late and f"-{0.2 * full:g} points" in late
    assert "## Late" not in (out / "1003" / "feedback.md").read_text(encoding="utf-8")

    # The rule is applied at every run to the stored results, never into them: none is graded again. An
    # extension for a student of another section (one course file serves them all) is named, not an error.
    (tmp_path / "extensions.csv").write_text(
        "student,due\n1002,2026-11-23 12:00\n2001,2026-11-23 12:00\n", encoding="utf-8"
    )
    again = run_batch(download, out, *PART)
    assert again.returncode == 0 and "(0 graded now, 4 up to date)" in again.stderr, again.stderr[-2000:]
    (other_section,) = [line for line in again.stderr.splitlines() if "'2001'" in line]
    assert other_section.startswith("warning: ") and "extensions.csv" in other_section and "typo" in other_section
    rows = gradebook_rows(out)
    assert (rows["1002"]["late_penalty"], rows["1002"]["total"]) == ("", f"{full:g}")
    assert rows["1003"]["late_penalty"] == f"{0.2 * full:g}", "without its extension, cyd is late"


MOODLE_HEADER = (
    "Identifier,Full name,Email address,Status,Grade,Maximum Grade,Grade can be changed,"
    "Last modified (submission),Online text,Last modified (grade),Feedback comments"
)


def test_a_moodle_round_trip_with_a_due_date_is_taken_by_moodles_own_importer(tmp_path):
    """A Moodle download and its grading worksheet as the roster, with a due date: each hand-in's time is the
    worksheet's Last modified (submission), read in the course's zone; moodle.csv is the worksheet with Grade
    filled in, the late penalty taken, out of the worksheet's Maximum Grade (a total past full marks at most that,
    and said); and Moodle's own importer rules
    (moodle_importer) take every graded student's grade from it, and leave the one without a grade alone."""
    download = tmp_path / "download"
    hand_ins = {"Ada Lovelace_201": TOKENIZERS, "Bea Bee_202": TOKENIZERS, "Dan Dee_204": TEMPLATE_TOKENIZERS}
    for name, module in hand_ins.items():
        folder = download / f"{name}_assignsubmission_file_"
        folder.mkdir(parents=True)
        shutil.copy(module, folder / "simple_tokenizers.py")
    worksheet = tmp_path / "worksheet.csv"
    rows = [
        'Participant 201,Ada Lovelace,ada@uni.edu,Submitted for grading,,100.00,Yes,"Friday, 20 November 2026, 10:15 AM",,-,',
        'Participant 202,Bea Bee,bea@uni.edu,Submitted for grading,,100.00,Yes,"Saturday, 21 November 2026, 9:00 AM",,-,"Tidy"',
        "Participant 203,Cyd Cole,cyd@uni.edu,No submission,,100.00,Yes,-,,-,",
        'Participant 204,Dan Dee,dan@uni.edu,Submitted for grading,,100.00,Yes,"Friday, 20 November 2026, 11:59 AM",,-,',
    ]
    worksheet.write_text("\n".join([MOODLE_HEADER, *rows]) + "\n", encoding="utf-8")
    (tmp_path / "course.toml").write_text(
        '[late]\ndue = 2026-11-20T12:00:00\ntime_zone = "Europe/Berlin"\npercent = 10\n', encoding="utf-8"
    )
    out = tmp_path / "out"
    out.mkdir()
    (out / "adjustments.csv").write_text("student,part_or_test,points,comment\n201,,3,extra work\n", "utf-8")
    process = run_batch(download, out, *PART, "--roster", str(worksheet))
    assert process.returncode == 0, process.stderr[-2000:]
    (capped,) = [line for line in process.stderr.splitlines() if "Maximum Grade" in line]
    assert "201" in capped and "written as Maximum Grade" in capped, capped

    full = float(full_marks("simple_tokenizers"))
    graded = gradebook_rows(out)
    assert graded["202"]["late"] == "21 h late (Moodle's worksheet)", graded["202"]["late"]
    assert graded["201"]["late"] == graded["204"]["late"] == "on time (Moodle's worksheet)"
    assert (graded["202"]["late_penalty"], graded["202"]["total"]) == (f"{0.1 * full:g}", f"{0.9 * full:g}")

    sent = (out / "moodle.csv").read_text(encoding="utf-8")
    moodle = moodle_importer.Moodle(participants=frozenset({"201", "202", "203", "204"}), maximum=100.0)
    imported = moodle_importer.upload(sent, moodle)
    expected = {student: float(graded[student]["total"]) * 100 / full for student in ("201", "202", "204")}
    assert expected["201"] > 100, "past full marks with the extra points"
    expected["201"] = 100.0  # above Maximum Grade, Moodle would skip the row: written as its maximum
    assert imported.grades == pytest.approx(expected), "each total, out of the worksheet's Maximum Grade"
    assert imported.skipped == {"203": "no value"}, "no grade: Moodle keeps the one it has"
    with worksheet.open(encoding="utf-8", newline="") as stream:
        given = list(csv.reader(stream))
    back = list(csv.reader(sent.splitlines()))
    grade = given[0].index("Grade")
    for got, had in zip(back, given, strict=True):
        assert got[:grade] + got[grade + 1 :] == had[:grade] + had[grade + 1 :], "all but Grade as it came"


@pytest.mark.slow  # nbgrader's gradebook through its own API, as the nbgrader round trip
def test_timestamp_txt_lateness_is_charged_and_written_into_nbgraders_gradebook_in_its_terms(tmp_path):
    """nbgrader's timestamp.txt says when each hand-in came; against the course file's due date (in its time
    zone) and a rule per hour with a floor, the penalty is taken once: in the gradebook and, through
    nbgrader's own API, as formgrader and nbgrader's export read it (the assignment's due date, the student's
    extension and timestamp, each notebook's late_submission_penalty, score less penalty the gradebook's)."""
    api = pytest.importorskip("nbgrader.api", reason="nbgrader is in the dev extra")
    course = tmp_path / "course"
    stamps = {
        "alice": "2026-11-20 22:30:00.000000 UTC",  # on time: 23:30 in Berlin
        "bob": "2026-11-21 00:10:00.000000 UTC",  # 1 h 11 min late: 2 hours
        "carol": "2026-11-21 09:00:00.000000 UTC",  # 9 h 1 min late: 10 hours, but never below the floor
        "dave": "2026-11-21 09:00:00.000000 UTC",  # late, but not past his extension
    }
    for student, stamp in stamps.items():
        folder = course / "submitted" / student / "ps1"
        folder.mkdir(parents=True)
        shutil.copy(TOKENIZERS, folder / "simple_tokenizers.py")
        (folder / "timestamp.txt").write_text(stamp, encoding="utf-8")
    course_file = tmp_path / "term.toml"
    course_file.write_text(
        '[late]\ndue = 2026-11-20T23:59:00\ntime_zone = "Europe/Berlin"\nper = "hour"\npercent = 5\nfloor = 60\n'
        'extensions = "extensions.csv"\n',
        encoding="utf-8",
    )
    (tmp_path / "extensions.csv").write_text("student,due\ndave,2026-11-21 12:00\n", encoding="utf-8")
    database = course / "gradebook.db"
    out = tmp_path / "out"
    process = run_batch(course, out, *PART, "--course", str(course_file), "--nbgrader-db", str(database))
    assert process.returncode == 0, process.stderr[-2000:]

    full = float(full_marks("simple_tokenizers"))
    rows = gradebook_rows(out)
    penalties = {student: row["late_penalty"] for student, row in rows.items()}
    assert penalties == {"alice": "", "bob": f"{0.1 * full:g}", "carol": f"{0.4 * full:g}", "dave": ""}
    assert rows["bob"]["late"] == "1 h 11 min late (nbgrader's timestamp.txt)"
    assert "## Late" in (out / "carol" / "feedback.md").read_text(encoding="utf-8")
    with api.Gradebook(f"sqlite:///{database}") as book:
        assert book.find_assignment("ps1").duedate == datetime(2026, 11, 20, 22, 59), "in UTC, as nbgrader keeps it"
        for student, row in rows.items():
            submission = book.find_submission("ps1", student)
            assert f"{submission.late_submission_penalty:g}" == (row["late_penalty"] or "0"), student
            assert f"{max(0.0, submission.score - submission.late_submission_penalty):g}" == row["total"], student
            assert submission.timestamp == datetime.fromisoformat(stamps[student][:19]), student
        dave = book.find_submission("ps1", "dave")
        assert dave.extension is not None and dave.total_seconds_late == 0, "nbgrader sees dave's extension"
        assert book.find_submission("ps1", "bob").total_seconds_late == 71 * 60, "and bob as late as the kit does"


@pytest.mark.unit
def test_a_late_rule_takes_percent_of_full_marks_per_interval_started_down_to_the_floor_and_up_to_the_cap():
    from datetime import timedelta

    from autograder.course.late import LatePolicy

    rule = LatePolicy(due=datetime(2026, 1, 1, tzinfo=UTC), percent=10, floor=50)
    assert rule.penalty(80, 100, timedelta(minutes=1)) == 10, "a part of a day counts whole"
    assert rule.penalty(80, 100, timedelta(days=2, seconds=1)) == 30
    assert rule.penalty(80, 100, timedelta(days=9)) == 30, "never below the floor: 50 of 100"
    assert rule.penalty(40, 100, timedelta(days=9)) == 0, "a score below the floor stays"
    assert rule.penalty(80, 100, timedelta(0)) == 0
    capped = LatePolicy(due=datetime(2026, 1, 1, tzinfo=UTC), cap=70)
    assert capped.penalty(90, 100, timedelta(hours=1)) == 20 and capped.penalty(60, 100, timedelta(hours=1)) == 0
    assert late_work.penalty_text(None) == ""


@pytest.mark.unit
def test_canvas_marking_a_hand_in_within_the_grace_period_late_is_no_doubt():
    """Canvas marks every hand-in after the due date late, knowing nothing of the course's grace period: one
    within it is on time with nothing to check; one whose time is not past the due date at all is a doubt."""
    from datetime import timedelta

    from autograder.course.late import HandedIn, LatePolicy, lateness

    due = datetime(2026, 11, 20, 22, 59, tzinfo=UTC)
    rule = LatePolicy(due=due, grace=timedelta(minutes=10), percent=10)
    in_grace = lateness(rule, HandedIn(due + timedelta(minutes=6), marked_late=True), None)
    assert in_grace is not None and not in_grace.late and in_grace.doubt == "", in_grace
    before = lateness(rule, HandedIn(due - timedelta(minutes=6), marked_late=True), None)
    assert before is not None and not before.late and "not past the due date" in before.doubt, before


@pytest.mark.unit
def test_a_hand_ins_time_comes_from_its_best_witness():
    """nbgrader's timestamp.txt first, then Moodle's worksheet (in the course's zone), then the files' own time,
    with Canvas's mark where the download is Canvas's; a timestamp.txt that is not a time is said, not guessed."""
    from zoneinfo import ZoneInfo

    from autograder.course import late
    from autograder.course.batch.discover import Found

    berlin = ZoneInfo("Europe/Berlin")
    own = datetime(2026, 11, 25, 8, 0, tzinfo=UTC)

    def found(**fields: object) -> Found:
        return Found("s1", "s1", lambda limits, choices: None, file_time=lambda: own, **fields)  # type: ignore[arg-type,return-value]

    worksheet = {late.MOODLE_SUBMITTED: "Friday, 20 November 2026, 9:05 PM"}
    stamped = late_work.handed_in(found(timestamp="2026-11-20 10:15:00.000000 UTC"), worksheet, berlin)
    assert (stamped.at, stamped.source) == (datetime(2026, 11, 20, 10, 15, tzinfo=UTC), late.NBGRADER)
    moodle = late_work.handed_in(found(lms="Moodle"), worksheet, berlin)
    assert (moodle.at, moodle.source) == (datetime(2026, 11, 20, 21, 5, tzinfo=berlin), late.MOODLE)
    canvas = late_work.handed_in(found(lms="Canvas", late=True), {late.MOODLE_SUBMITTED: "-"}, berlin)
    assert (canvas.at, canvas.source, canvas.marked_late) == (own, late.FILE_TIME, True)
    assert late_work.handed_in(found(), None, berlin).marked_late is None, "no LMS mark outside Canvas"
    garbled = late_work.handed_in(found(timestamp="yesterday, ish"), None, berlin)
    assert garbled.at is None and garbled.unreadable == "yesterday, ish"


def test_file_times_that_cannot_be_the_hand_ins_are_unknown_and_the_platforms_record_decides(tmp_path):
    """A Canvas download copied without its times (every file as new as the copy) has "file times unknown": Canvas's
    mark decides, on time for a file it did not mark, late by an amount no one knows (nothing taken, named for the
    instructor) for one it did; a Moodle zip's member newer than the zip itself is unknown too, and without the
    worksheet nothing is taken."""
    copied = tmp_path / "copied"
    copied.mkdir()
    for name in ("lovelaceada_1001_5001_simple_tokenizers.py", "beebea_LATE_1002_5003_simple_tokenizers.py"):
        shutil.copy(TOKENIZERS, copied / name)  # shutil.copy keeps no time: each file is as new as its copy
    (tmp_path / "course.toml").write_text(
        '[late]\ndue = 2026-11-20T23:59:00\ntime_zone = "UTC"\npercent = 10\n', encoding="utf-8"
    )
    out = tmp_path / "out"
    process = run_batch(copied, out, *PART)
    assert process.returncode == 0, process.stderr[-2000:]
    rows = gradebook_rows(out)
    assert rows["1001"]["late"] == "on time (Canvas's mark; file times unknown)", rows["1001"]["late"]
    assert rows["1002"]["late"].startswith("late by Canvas's mark, by how much no one knows; file times unknown ("), (
        rows["1002"]["late"]
    )
    assert rows["1001"]["late_penalty"] == rows["1002"]["late_penalty"] == "", "no time, no penalty from one"
    assert "1002: Canvas marks it late, and its file times unknown" in process.stderr, process.stderr

    # A Moodle zip (no worksheet given) whose member is dated after the zip was saved: not the hand-in's time.
    import zipfile

    archive = tmp_path / "download.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        member = zipfile.ZipInfo(
            "Ada Lovelace_201_assignsubmission_file_/simple_tokenizers.py", date_time=(2026, 11, 22, 9, 0, 0)
        )
        zipped.writestr(member, TOKENIZERS.read_bytes())
    os.utime(archive, (_at("2026-11-21T09:00:00"), _at("2026-11-21T09:00:00")))  # saved the day before
    zipped_out = tmp_path / "zipped"
    process = run_batch(archive, zipped_out, *PART)
    assert process.returncode == 0, process.stderr[-2000:]
    row = gradebook_rows(zipped_out)["201"]
    assert row["late"] == (
        "file times unknown (newer than the download itself, 2026-11-21 09:00 UTC); nothing taken"
    ), row["late"]
    assert row["late_penalty"] == ""
    assert "1 hand-in(s) have file times unknown (201)" in process.stderr, process.stderr
