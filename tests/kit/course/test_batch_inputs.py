"""What ``grade batch`` accepts: folder layouts, LMS downloads, nbgrader, rosters (grading only to see a layout read)."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path

import nbformat
import pytest
from classroom import SOLUTIONS, TEMPLATE
from commands import grade, run_batch
from results import full_marks, gradebook_rows

from autograder.course.batch import gradebook
from autograder.course.batch.discover import DiscoveryError, discover
from autograder.course.batch.roster import RosterError, read_roster
from autograder.hand_in.bounded import HandInError
from autograder.hand_in.hand_in_limits import HandInLimits
from autograder.hand_in.loaded import HandInKind
from autograder.scoring.grade_result import GradeResult
from autograder.scoring.points import SuitePoints

BPE = (SOLUTIONS / "bpe.py").read_bytes()
TOKENIZERS = (SOLUTIONS / "simple_tokenizers.py").read_bytes()
# Moodle's offline grading worksheet (assignfeedback_offline) with the online text and feedback comments plugins
MOODLE_HEADER = (
    "Identifier,Full name,Email address,Status,Grade,Maximum Grade,Grade can be changed,"
    "Last modified (submission),Online text,Last modified (grade),Feedback comments"
)


@pytest.mark.unit
def test_one_entry_per_student_of_every_kind(tmp_path):
    (tmp_path / "ada").mkdir()
    (tmp_path / "ada" / "bpe.py").write_bytes(BPE)
    (tmp_path / "bea.py").write_bytes(BPE)
    (tmp_path / "cyd.ipynb").write_text("{}", encoding="utf-8")
    with zipfile.ZipFile(tmp_path / "dan.zip", "w") as archive:
        archive.writestr("dan/bpe.py", BPE)
    (tmp_path / "README.txt").write_text("ignore me", encoding="utf-8")
    discovery = discover(tmp_path)
    assert [entry.student for entry in discovery.found] == ["ada", "bea", "cyd", "dan"]
    assert discovery.ignored == ["README.txt"]
    assert found_files(discovery, "dan") == {"bpe.py": BPE}


def found_files(discovery, student: str) -> dict[str, bytes]:
    return next(entry for entry in discovery.found if entry.student == student).load(HandInLimits()).files


@pytest.mark.unit
def test_two_hand_ins_of_one_student_are_a_conflict_not_a_guess(tmp_path):
    (tmp_path / "ada").mkdir()
    (tmp_path / "ada" / "bpe.py").write_bytes(BPE)
    (tmp_path / "ada.zip").write_bytes(b"")
    discovery = discover(tmp_path)
    assert not discovery.found
    assert sorted(Path(found.origin).name for found in discovery.conflicts["ada"]) == ["ada", "ada.zip"]


@pytest.mark.unit
def test_a_canvas_download_is_grouped_by_user_id(tmp_path):
    (tmp_path / "lovelaceada_1001_5001_bpe.py").write_bytes(BPE)
    (tmp_path / "lovelaceada_1001_5002_simple_tokenizers-1.py").write_bytes(TOKENIZERS)
    (tmp_path / "beebea_LATE_1002_5003_bpe.py").write_bytes(BPE)
    discovery = discover(tmp_path)
    assert discovery.layout.startswith("LMS")
    assert found_files(discovery, "1001") == {"bpe.py": BPE, "simple_tokenizers.py": TOKENIZERS}
    assert found_files(discovery, "1002") == {"bpe.py": BPE}
    assert {entry.student: entry.name_hint for entry in discovery.found} == {"1001": "lovelaceada", "1002": "beebea"}


@pytest.mark.unit
def test_a_moodle_zip_with_a_folder_per_student(tmp_path):
    archive_path = tmp_path / "moodle.zip"
    with zipfile.ZipFile(archive_path, "w") as archive:
        archive.writestr("Ada Lovelace_301_assignsubmission_file_/bpe.py", BPE)
        archive.writestr("Ada Lovelace_301_assignsubmission_file_/simple_tokenizers.py", TOKENIZERS)
        archive.writestr("Bea Bee_302_assignsubmission_file_bpe.py", BPE)
    discovery = discover(archive_path)
    assert found_files(discovery, "301") == {"bpe.py": BPE, "simple_tokenizers.py": TOKENIZERS}
    assert found_files(discovery, "302") == {"bpe.py": BPE}
    assert {entry.name_hint for entry in discovery.found} == {"Ada Lovelace", "Bea Bee"}


def _zipped(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def _download(tmp_path: Path, download: str, members: dict[str, bytes]) -> Path:
    """An LMS's download of ``members`` as the instructor brings it: its .zip, or that zip unpacked."""
    if download == "unzipped":
        return _folder(tmp_path / "download", members)
    archive = tmp_path / "download.zip"
    archive.write_bytes(_zipped(members))
    return archive


@pytest.mark.parametrize(
    "lms, download",
    [("Canvas", "as the LMS's .zip"), ("Canvas", "unzipped"), ("Moodle", "as the LMS's .zip"), ("Moodle", "unzipped")],
)
@pytest.mark.unit
def test_a_zip_a_student_uploaded_is_unpacked_in_an_lms_download(tmp_path, lms, download):
    """An LMS keeps an uploaded zip as it came: its download holds the student's zip as one file (Canvas), or
    as one file in the student's folder (Moodle)."""
    upload = _zipped({"homework/bpe.py": BPE, "homework/simple_tokenizers.py": TOKENIZERS})
    if lms == "Canvas":
        members = {"lovelaceada_1001_5001_homework.zip": upload, "beebea_1002_5003_bpe.py": BPE}
    else:
        members = {
            "Ada Lovelace_1001_assignsubmission_file_/homework.zip": upload,
            "Bea Bee_1002_assignsubmission_file_/bpe.py": BPE,
        }
    discovery = discover(_download(tmp_path, download, members))
    assert found_files(discovery, "1001") == {"bpe.py": BPE, "simple_tokenizers.py": TOKENIZERS}
    assert found_files(discovery, "1002") == {"bpe.py": BPE}


@pytest.mark.unit
def test_a_folder_that_holds_only_a_zip_is_graded_from_the_zip_and_code_beside_a_zip_wins(tmp_path):
    from autograder.hand_in import loading

    zipped = _folder(tmp_path / "ada", {"ada_homework.zip": _zipped({"homework/bpe.py": BPE})})
    assert loading.load(zipped).files == {"bpe.py": BPE}
    beside = _folder(tmp_path / "bea", {"bpe.py": BPE, "old.zip": _zipped({"bpe.py": b"old = True"})})
    assert loading.load(beside).files["bpe.py"] == BPE and "old.zip" in loading.load(beside).files


@pytest.mark.unit
@pytest.mark.parametrize("download", ["as the LMS's .zip", "unzipped"])
def test_uploads_that_together_hold_more_than_a_hand_in_are_refused_in_one_line(tmp_path, download):
    noise = [_zipped({f"data/noise{index}.bin": os.urandom(600 * 1024)}) for index in range(2)]  # each within 1 MiB
    members = {"lovelaceada_1001_5001_part1.zip": noise[0], "lovelaceada_1001_5002_part2.zip": noise[1]}
    (found,) = discover(_download(tmp_path, download, members)).found
    with pytest.raises(HandInError, match=r"^[^\n]*1001[^\n]*handin_mb[^\n]*$"):
        found.load(HandInLimits(handin_mb=1))


@pytest.mark.unit
@pytest.mark.parametrize("download", ["as the LMS's .zip", "unzipped"])
def test_two_uploads_that_hold_one_file_differently_are_not_guessed_between(tmp_path, download):
    older = _zipped({"bpe.py": b"def merge_pair(tokens, pair):\n    return tokens\n"})
    members = {
        "lovelaceada_1001_5001_bpe.py": BPE,
        "lovelaceada_1001_5002_backup.zip": older,
        "beebea_1002_5003_bpe.py": BPE,
        "beebea_1002_5004_same.zip": _zipped({"bpe.py": BPE}),
    }
    discovery = discover(_download(tmp_path, download, members))
    with pytest.raises(
        HandInError, match=r"^[^\n]*1001: the uploads [^\n]*bpe\.py and [^\n]*backup\.zip each hold bpe\.py"
    ):
        found_files(discovery, "1001")
    assert found_files(discovery, "1002") == {"bpe.py": BPE}, "the same file twice is one"


@pytest.mark.unit
def test_a_zip_without_student_ids_is_refused_with_the_fix(tmp_path):
    archive_path = tmp_path / "class.zip"
    with zipfile.ZipFile(archive_path, "w") as archive:
        archive.writestr("bpe.py", BPE)
    with pytest.raises(DiscoveryError, match="unzip it and give the folder"):
        discover(archive_path)


@pytest.mark.unit
def test_nbgrader_submitted_layout(tmp_path):
    for student in ("ada", "bea"):
        folder = tmp_path / "course" / "submitted" / student / "ps1"
        folder.mkdir(parents=True)
        nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")]), folder / "bpe.ipynb")
        (folder / "timestamp.txt").write_text("2026-11-20 10:00:00", encoding="utf-8")
    (tmp_path / "course" / "submitted" / "bea" / "ps2").mkdir()
    with pytest.raises(DiscoveryError, match="--assignment"):
        discover(tmp_path / "course")
    discovery = discover(tmp_path / "course", assignment="ps1")
    assert [entry.student for entry in discovery.found] == ["ada", "bea"]
    assert discovery.layout == "nbgrader submitted/"
    assert "bpe.ipynb" in found_files(discovery, "ada")


def _folder(root: Path, files: dict[str, bytes]) -> Path:
    for name, content in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(content)
    return root


def test_code_in_one_folder_beside_a_readme_is_found_and_said_so(tmp_path):
    from autograder.hand_in import loading

    hand_in = _folder(
        tmp_path / "amy", {"README.md": b"# my work", "src/bpe.py": BPE, "src/simple_tokenizers.py": TOKENIZERS}
    )
    loaded = loading.load(hand_in)
    assert loaded.kind is HandInKind.MODULES and {"bpe.py", "simple_tokenizers.py"} <= set(loaded.files)
    assert any("src" in note for note in loaded.notes), loaded.notes
    zipped = tmp_path / "amy.zip"
    with zipfile.ZipFile(zipped, "w") as archive:
        for name in ("README.md", "src/bpe.py", "src/simple_tokenizers.py"):
            archive.write(hand_in / name, f"amy/{name}")
    assert loading.load(zipped).files.keys() == loaded.files.keys()
    process, document = grade(hand_in, "--part", "simple_tokenizers")  # grade PATH looks below the top too
    assert document and document["score"] == document["max_score"], process.stderr[-2000:]


@pytest.mark.unit
def test_code_in_two_folders_is_refused_naming_both(tmp_path):
    from autograder.hand_in import bounded, loading

    hand_in = _folder(tmp_path / "amy", {"README.md": b"# my work", "old/bpe.py": BPE, "new/bpe.py": BPE})
    with pytest.raises(bounded.HandInError, match=r"new/.*old/|old/.*new/"):
        loading.load(hand_in)


def _release_folder(root: Path) -> Path:
    """A student's whole release folder: Part 2 done in modules/, Part 1 in a notebook, the rest stubs."""
    files = {f"modules/{path.name}": path.read_bytes() for path in TEMPLATE.glob("*.py")}
    files["modules/bpe.py"] = BPE
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(TOKENIZERS.decode())])
    files["notebooks/simple_tokenizers.ipynb"] = nbformat.writes(notebook).encode()
    files["README.md"] = b"# bpe-kit-student"
    files["tests/test_bpe.py"] = b"def test_nothing():\n    pass\n"
    return _folder(root, files)


def test_a_whole_release_folder_is_graded_in_a_batch_as_grade_grades_it(tmp_path):
    hand_ins = tmp_path / "hand-ins"
    release = _release_folder(hand_ins / "ada")
    with zipfile.ZipFile(hand_ins / "bea.zip", "w") as archive:
        for path in sorted(release.rglob("*")):
            if path.is_file():
                archive.write(path, f"bpe-kit-student/{path.relative_to(release)}")
    alone = grade(release, "--part", "simple_tokenizers", "--part", "bpe")[1]
    assert alone is not None and alone["score"] > 0
    out = tmp_path / "out"
    process = run_batch(hand_ins, out, "--part", "simple_tokenizers", "--part", "bpe")
    assert process.returncode == 0, process.stderr[-2000:]
    rows = gradebook_rows(out)
    assert rows["ada"]["total"] == rows["bea"]["total"] == full_marks("simple_tokenizers", "bpe"), rows
    for student in ("ada", "bea"):
        document = json.loads((out / student / "results.json").read_text(encoding="utf-8"))
        assert document["score"] == alone["score"], student
        told = "each part counts from the folder where it scores better: Part 1 from notebooks/, Part 2 from modules/"
        assert told in document["output"], (student, document["output"])


def test_a_release_folders_page_shows_each_function_from_the_folder_its_part_counted_from(tmp_path):
    """A part done in both folders (tried in the notebook, finished in the module) counts from the better
    one, and the page beside a failing function shows that folder's code, not the other's."""
    hand_ins = tmp_path / "hand-ins"
    release = _release_folder(hand_ins / "ada")
    bpe = BPE.decode() + "\n\ndef decode(ids, vocab):\n    return 'from the module'\n"
    (release / "modules" / "bpe.py").write_text(bpe, encoding="utf-8")
    tried = "\n\ndef decode(ids, vocab):\n    return 'from the notebook'\n\n\ndef merge_pair(tokens, pair):\n    return []\n"
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(BPE.decode() + tried)])
    nbformat.write(notebook, release / "notebooks" / "bpe.ipynb")
    out = tmp_path / "out"
    process = run_batch(hand_ins, out, "--part", "bpe")
    assert process.returncode == 0, process.stderr[-2000:]
    document = json.loads((out / "ada" / "results.json").read_text(encoding="utf-8"))
    assert "Part 2 from modules/" in document["output"], document["output"]
    page = (out / "ada" / "feedback.html").read_text(encoding="utf-8")
    shown = page.split("Your <code>decode</code>")[1].split("</pre>")[0]
    assert "from the module" in shown and "from the notebook" not in shown


@pytest.mark.unit
def test_macos_resource_forks_beside_the_code_are_left_out(tmp_path):
    from autograder.hand_in import loading

    junk = b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X"  # AppleDouble: a copy to a drive that is not the Mac's
    hand_in = _folder(tmp_path / "amy", {"solution.py": TOKENIZERS, "._solution.py": junk, "data/._corpus.txt": junk})
    loaded = loading.load(hand_in)
    assert loaded.kind is HandInKind.SCRIPT and loaded.script_name == "solution.py"
    assert set(loaded.files) == {"solution.py"}


@pytest.mark.parametrize(
    "names",
    [
        ("Bpe.py", "SIMPLE_TOKENIZERS.py"),  # saved on a system that ignores case
        ("bpe (1).py", "simple_tokenizers (2).py"),  # a browser's second download
        ("bpe-1.py", "simple_tokenizers_2.py"),  # Canvas's resubmission, a student's own numbering
        ("bpe copy.py", "simple_tokenizers - Copy.py"),  # macOS's and Windows's copies
    ],
)
@pytest.mark.unit
def test_a_part_module_renamed_on_the_way_is_graded_under_its_name_and_said_so(tmp_path, names):
    from autograder.hand_in import loading

    hand_in = _folder(tmp_path / "amy", dict(zip(names, (BPE, TOKENIZERS), strict=True)))
    loaded = loading.load(hand_in)
    assert loaded.kind is HandInKind.MODULES and {"bpe.py", "simple_tokenizers.py"} <= set(loaded.files), set(
        loaded.files
    )
    for name in names:
        assert any(name in note and "name it" in note for note in loaded.notes), loaded.notes


@pytest.mark.unit
def test_two_renamed_copies_of_one_module_are_not_guessed_between(tmp_path):
    from autograder.hand_in import loading

    hand_in = _folder(tmp_path / "amy", {"bpe (1).py": BPE, "bpe (2).py": b"", "simple_tokenizers.py": TOKENIZERS})
    loaded = loading.load(hand_in)
    assert "bpe.py" not in loaded.files
    assert any("bpe (1).py" in note and "bpe (2).py" in note for note in loaded.notes), loaded.notes


@pytest.mark.unit
def test_an_exact_name_wins_over_a_renamed_copy(tmp_path):
    from autograder.hand_in import loading

    hand_in = _folder(
        tmp_path / "amy", {"bpe.py": BPE, "bpe (1).py": b"# an old try", "simple_tokenizers.py": TOKENIZERS}
    )
    loaded = loading.load(hand_in)
    assert loaded.files["bpe.py"] == BPE and "bpe (1).py" in loaded.files
    assert not any("bpe (1).py" in note for note in loaded.notes)


@pytest.mark.unit
def test_ids_are_safe_folder_names(tmp_path):
    (tmp_path / "ada lovelace (late)").mkdir()
    (tmp_path / "ada lovelace (late)" / "bpe.py").write_bytes(BPE)
    assert [entry.student for entry in discover(tmp_path).found] == ["ada_lovelace_late"]


@pytest.mark.unit
def test_an_empty_or_missing_folder_is_one_clear_error(tmp_path):
    with pytest.raises(DiscoveryError, match="no such folder"):
        discover(tmp_path / "missing")
    with pytest.raises(DiscoveryError, match=r"one folder, notebook, \.py or \.zip per student"):
        discover(tmp_path)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("id,name\nada,Ada Lovelace\n", {"ada": "Ada Lovelace"}),
        ("Student,ID,SIS User ID\nAda Lovelace,1001,A1\n", {"1001": "Ada Lovelace"}),
        ("username,first name,last name\nada,Ada,Lovelace\n", {"ada": "Ada Lovelace"}),
        # nbgrader's own roster (nbgrader db student import: id,first_name,last_name,email)
        ("id,first_name,last_name,email\nada,Ada,Lovelace,ada@uni.edu\n", {"ada": "Ada Lovelace"}),
        ("\ufeffEmail,Name\nada@uni.edu,Ada\n", {"ada@uni.edu": "Ada"}),
        (MOODLE_HEADER + "\nParticipant 201,Ada Lovelace,ada@uni.edu,,,100.00,Yes,-,,-,\n", {"201": "Ada Lovelace"}),
    ],
)
@pytest.mark.unit
def test_roster_columns_are_found_by_their_usual_names(tmp_path, text, expected):
    path = tmp_path / "roster.csv"
    path.write_text(text, encoding="utf-8")
    assert {key: student.name for key, student in read_roster(path).items()} == expected


@pytest.mark.unit
def test_a_roster_without_an_id_column_names_the_fix(tmp_path):
    path = tmp_path / "roster.csv"
    path.write_text("who,score\nada,1\n", encoding="utf-8")
    with pytest.raises(RosterError, match=r"roster.csv: has no id column .*'who'.*name the column"):
        read_roster(path)


@pytest.mark.unit
def test_gradebook_is_sorted_and_free_of_timings():
    test = {
        "name": "char_tokenize: splits into characters",
        "score": 5.0,
        "max_score": 5.0,
        "status": "passed",
        "output": "",
        "visibility": "visible",
        "tags": [],
        "extra_data": dict.fromkeys(("part", "test", "doc", "call", "expected", "got", "hint", "detail", "example"), "")
        | {
            "module": "simple_tokenizers",
            "function": "char_tokenize",
            "outcome": "passed",
            "points": 5.0,
            "bonus": False,
        },
    }
    document = GradeResult.from_json(
        {"score": 5.0, "max_score": 100.0, "execution_time": 1.234, "output": "", "tests": [test]}  # no adjustments
    )
    records = [
        gradebook.StudentRecord("zed", "", gradebook.GRADED, result=document),
        gradebook.StudentRecord("amy", "Amy", gradebook.NO_SUBMISSION),
    ]
    points = SuitePoints({("simple_tokenizers", "char_tokenize"): 5.0, ("bpe", "encode"): 95.0}, frozenset())
    text = gradebook.gradebook_csv(records, points)
    lines = text.splitlines()
    assert lines[1].startswith("amy,Amy,,100,")
    assert lines[2].startswith("zed,,5,100,5.0,0,0,5,0,5,0,0,0,0,"), (
        "total, max, percent, bonus, adjustment, parts, functions"
    )
    assert "1.234" not in text


def test_two_roster_ids_that_read_as_one_keep_both_students(tmp_path):
    """Zoë.Li and Zoé.Li clean to one id: each keeps her own row, named, with her own hand-in's points."""
    submissions = tmp_path / "class"
    for raw, module in (("Zoë.Li", "simple_tokenizers"), ("Zoé.Li", "bpe")):
        (submissions / raw).mkdir(parents=True)
        shutil.copy(SOLUTIONS / f"{module}.py", submissions / raw / f"{module}.py")
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name\nZoë.Li,Zoë Li\nZoé.Li,Zoé Li\nZoé.Li,Zoé Li again\n", encoding="utf-8")
    process = run_batch(submissions, tmp_path / "out", "--roster", str(roster), "--jobs", "1")
    assert process.returncode == 0, process.stderr[-2000:]
    rows = gradebook_rows(tmp_path / "out")
    assert len(rows) == 2 and not any(gradebook.NOT_ON_ROSTER in row["note"] for row in rows.values()), rows
    by_name = {row["name"]: row for row in rows.values()}
    assert set(by_name) == {"Zoë Li", "Zoé Li again"}
    assert by_name["Zoë Li"]["total"] != by_name["Zoé Li again"]["total"]  # each her own hand-in's points
    assert "'Zoé.Li' is on lines 3 and 4" in process.stderr and "both read as 'Zo_.Li'" in process.stderr


def test_a_roster_that_names_no_hand_in_stops_the_batch_before_grading(tmp_path):
    submissions = tmp_path / "class"
    (submissions / "201").mkdir(parents=True)
    shutil.copy(SOLUTIONS / "simple_tokenizers.py", submissions / "201" / "simple_tokenizers.py")
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name\nParticipant 201,Ada\n", encoding="utf-8")
    process = run_batch(submissions, tmp_path / "out", "--roster", str(roster))
    assert process.returncode == 2
    assert "none of its 1 ids names a hand-in" in process.stderr and "'Participant_201'" in process.stderr
    assert not (tmp_path / "out" / "201").exists(), "nothing was graded"


def test_a_moodle_grading_worksheet_is_the_roster_and_comes_back_graded(tmp_path):
    """Moodle's offline grading worksheet, as it comes: `Participant 201` is the download's 201; moodle.csv is
    the same worksheet with Grade filled in, every row kept (feedback and times as they were), and the ids the
    two do not share are said, one line each kind."""
    download = _folder(
        tmp_path / "download",
        {
            "Ada Lovelace_201_assignsubmission_file_/simple_tokenizers.py": TOKENIZERS,
            "Bea Bee_202_assignsubmission_file_/simple_tokenizers.py": (TEMPLATE / "simple_tokenizers.py").read_bytes(),
            "Zed Zero_209_assignsubmission_file_/simple_tokenizers.py": TOKENIZERS,
        },
    )
    worksheet = tmp_path / "worksheet.csv"
    rows = [
        'Participant 201,Ada Lovelace,ada@uni.edu,Submitted for grading,,100.00,Yes,"Friday, 20 November 2026, 10:15 AM",,-,',
        'Participant 202,Bea Bee,bea@uni.edu,Submitted for grading,,100.00,Yes,"Friday, 20 November 2026, 9:00 AM",,-,"Tidy, well named"',
        "Participant 203,Cyd Cole,cyd@uni.edu,No submission,,100.00,Yes,-,,-,",
    ]
    worksheet.write_text("\n".join([MOODLE_HEADER, *rows]) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    process = run_batch(download, out, "--part", "simple_tokenizers", "--roster", str(worksheet))
    assert process.returncode == 0, process.stderr[-2000:]
    graded = gradebook_rows(out)
    assert graded["201"]["name"] == "Ada Lovelace" and graded["201"]["total"] == full_marks("simple_tokenizers")
    assert graded["203"]["status"] == gradebook.NO_SUBMISSION
    warned = [line for line in process.stderr.splitlines() if "209" in line or "203" in line]
    assert len(warned) == 2, process.stderr
    assert any("not on the roster" in line and "209" in line for line in warned), warned
    assert any("no submission" in line and "203" in line for line in warned), warned

    with (out / "moodle.csv").open(encoding="utf-8", newline="") as stream:
        back = list(csv.reader(stream))
    with worksheet.open(encoding="utf-8", newline="") as stream:
        sent = list(csv.reader(stream))
    assert back[0] == sent[0], "Moodle's importer finds Identifier, Grade and Last modified (grade) by name"
    grade = sent[0].index("Grade")
    assert [row[grade] for row in back[1:]] == ["100", "0", ""], "out of the worksheet's Maximum Grade, 100.00"
    for got, given in zip(back[1:], sent[1:], strict=True):
        assert got[:grade] + got[grade + 1 :] == given[:grade] + given[grade + 1 :], "all but Grade as it came"


def test_canvas_late_marks_are_kept_in_the_gradebook_with_no_penalty(tmp_path):
    """Canvas puts LATE (or late) in the name of a file handed in after the due date: the gradebook's late
    column says so, and the total is the tests' (no late rule is applied yet)."""
    download = _folder(
        tmp_path / "download",
        {
            "lovelaceada_1001_5001_simple_tokenizers.py": TOKENIZERS,
            "beebea_LATE_1002_5003_simple_tokenizers.py": TOKENIZERS,
            "ceecyd_late_1003_5004_simple_tokenizers.py": TOKENIZERS,
        },
    )
    out = tmp_path / "out"
    process = run_batch(download, out, "--part", "simple_tokenizers")
    assert process.returncode == 0, process.stderr[-2000:]
    rows = gradebook_rows(out)
    assert {student: row["late"] for student, row in rows.items()} == {"1001": "", "1002": "late", "1003": "late"}
    assert {row["total"] for row in rows.values()} == {full_marks("simple_tokenizers")}


@pytest.mark.parametrize("why", ["no hand-in", "a hand-in that cannot be graded"])
def test_an_adjustment_with_no_grade_to_adjust_is_refused_before_grading(tmp_path, why):
    """An adjustment is never held out of sight, to land on top of a grade later: one for a roster student
    who handed nothing in, or whose hand-in cannot be graded (two for one student), stops the batch before
    anything is graded, naming the line and the fix."""
    submissions = _folder(tmp_path / "class", {"ada/simple_tokenizers.py": TOKENIZERS, "bea.py": TOKENIZERS})
    if why != "no hand-in":
        (submissions / "bea").mkdir()
        (submissions / "bea" / "simple_tokenizers.py").write_bytes(TOKENIZERS)
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name\nada,Ada\nbea,Bea\ncyd,Cyd\n", encoding="utf-8")
    student = "cyd" if why == "no hand-in" else "bea"
    out = tmp_path / "out"
    out.mkdir()
    (out / "adjustments.csv").write_text(
        f"student,part_or_test,points,comment\nada,,1,bonus\n{student},,100,manual total\n", encoding="utf-8"
    )
    process = run_batch(submissions, out, "--part", "simple_tokenizers", "--roster", str(roster))
    assert process.returncode == 2, process.stderr[-2000:]
    (line,) = [line for line in process.stderr.splitlines() if "adjustments.csv" in line]
    assert f"line 3: {student}" in line and "delete the line" in line, line
    assert not (out / "ada").exists() and not (out / "gradebook.csv").exists(), "nothing was graded"


@pytest.mark.parametrize("beside", ["a Moodle download", "students' own hand-ins"])
def test_a_whole_class_download_among_the_entries_is_the_instructors_to_split(tmp_path, beside):
    """A Canvas download's .zip put in SUBMISSIONS beside a Moodle download's folder (or beside one student's
    hand-in each) is not a student's hand-in that holds nothing gradable: the batch says what the instructor
    put there and how to grade each download, and grades nothing."""
    submissions = tmp_path / "submissions"
    canvas = {"lovelaceada_1001_5001_bpe.py": BPE, "beebea_1002_5003_bpe.py": BPE}
    (submissions).mkdir()
    (submissions / "canvas-download.zip").write_bytes(_zipped(canvas))
    if beside == "a Moodle download":
        _folder(
            submissions / "moodle-download",
            {"Ada Lovelace_201_assignsubmission_file_bpe.py": BPE, "Bea Bee_202_assignsubmission_file_bpe.py": BPE},
        )
    else:
        _folder(submissions, {"ada/bpe.py": BPE, "bea/bpe.py": BPE})
    out = tmp_path / "out"
    process = run_batch(submissions, out)
    assert process.returncode == 2, process.stderr[-2000:]
    (said,) = process.stderr.splitlines()
    assert "canvas-download.zip" in said and "Canvas" in said and "hand in" not in said, said
    assert f"grade batch {submissions / 'canvas-download.zip'} -o" in said, said
    if beside == "a Moodle download":
        assert "moodle-download" in said and "Moodle" in said, said
    assert not out.exists(), "nothing was graded"


def test_a_conflict_between_uploads_names_them_and_a_line_in_choices_csv_settles_it(tmp_path):
    """Two of a student's uploads in a Canvas download's .zip hold simple_tokenizers.py, each its own: the batch
    names the download, the uploads as the download names them, the file, and the line that chooses; that line
    in OUT/choices.csv settles it at the next run, and the download is never touched."""
    older = _older_tokenizers()
    download = tmp_path / "canvas.zip"
    download.write_bytes(
        _zipped(
            {
                "lovelaceada_1001_5001_simple_tokenizers.py": TOKENIZERS,
                "lovelaceada_1001_5002_backup.zip": _zipped({"simple_tokenizers.py": older}),
                "beebea_1002_5003_simple_tokenizers.py": TOKENIZERS,
            }
        )
    )
    sent = download.read_bytes()
    out = tmp_path / "out"
    process = run_batch(download, out, "--part", "simple_tokenizers")
    assert process.returncode == 0, process.stderr[-2000:]
    reason = gradebook_rows(out)["1001"]["reason"]
    for named in (str(download), "lovelaceada_1001_5001_simple_tokenizers.py", "lovelaceada_1001_5002_backup.zip"):
        assert named in reason, reason
    assert str(tmp_path / "1001") not in reason and f"{download}/" not in reason, "no path inside the zip as on disk"
    choices = out / "choices.csv"
    line = "1001,simple_tokenizers.py,lovelaceada_1001_5002_backup.zip"
    assert f"{choices}" in reason and line in reason, reason
    (warned,) = [said for said in process.stderr.splitlines() if "1001" in said]
    assert line in warned, warned
    assert choices.read_text(encoding="utf-8") == "student,file,upload\n", "made for the instructor to fill in"

    with choices.open("a", encoding="utf-8") as stream:
        stream.write(line + "\n")
    settled = run_batch(download, out, "--part", "simple_tokenizers")
    assert settled.returncode == 0, settled.stderr[-2000:]
    row = gradebook_rows(out)["1001"]
    assert row["status"] == gradebook.GRADED and row["simple_tokenizers.char_tokenize (5)"] == "0", "the one chosen"
    assert float(row["total"]) < float(full_marks("simple_tokenizers"))
    assert download.read_bytes() == sent

    choices.write_text(
        "student,file,upload\n1001,simple_tokenizers.py,lovelaceada_1001_5001_simple_tokenizers.py\n", encoding="utf-8"
    )
    assert run_batch(download, out, "--part", "simple_tokenizers").returncode == 0
    assert gradebook_rows(out)["1001"]["total"] == full_marks("simple_tokenizers"), "the other choice, graded again"

    choices.write_text("student,file,upload\n1009,simple_tokenizers.py,backup.zip\n", encoding="utf-8")
    refused = run_batch(download, out, "--part", "simple_tokenizers")
    assert refused.returncode == 2
    (said,) = refused.stderr.splitlines()
    assert f"{choices}: line 2" in said and "1009" in said, said


def test_a_folder_and_a_zip_under_one_name_are_settled_by_a_line_in_choices_csv(tmp_path):
    """ada/ beside ada.zip, each a hand-in of its own: the batch names both and the lines that choose, as for two
    uploads; `ada,*,ada.zip` in OUT/choices.csv grades the zip alone, `ada,*,ada/` the folder, and the folder of
    hand-ins is never touched. A line naming neither is said in the reason; one for a student with a single
    hand-in stops the run with the fix."""
    submissions = _folder(
        tmp_path / "class",
        {"ada/simple_tokenizers.py": TOKENIZERS, "bea/simple_tokenizers.py": TOKENIZERS},
    )
    (submissions / "ada.zip").write_bytes(_zipped({"simple_tokenizers.py": _older_tokenizers()}))
    out = tmp_path / "out"
    process = run_batch(submissions, out, "--part", "simple_tokenizers")
    assert process.returncode == 0, process.stderr[-2000:]
    choices = out / "choices.csv"
    reason = gradebook_rows(out)["ada"]["reason"]
    assert "ada/, ada.zip" in reason and f"a line in {choices}: ada,*,ada/ or ada,*,ada.zip" in reason, reason
    (warned,) = [said for said in process.stderr.splitlines() if "ada" in said]
    assert "ada,*,ada.zip" in warned, warned
    assert choices.read_text(encoding="utf-8") == "student,file,upload\n", "made for the instructor to fill in"
    feedback = (out / "ada" / "feedback.md").read_text(encoding="utf-8")
    assert "keep one and hand in again" in feedback and "choices.csv" not in feedback, "the student's own words"
    sent = {path: path.read_bytes() for path in submissions.rglob("*") if path.is_file()}

    choices.write_text("student,file,upload\nada,*,ada.zip\n", encoding="utf-8")
    settled = run_batch(submissions, out, "--part", "simple_tokenizers")
    assert settled.returncode == 0, settled.stderr[-2000:]
    row = gradebook_rows(out)["ada"]
    assert row["status"] == gradebook.GRADED and row["simple_tokenizers.char_tokenize (5)"] == "0", "the zip"
    choices.write_text("student,file,upload\nada,*,ada/\n", encoding="utf-8")
    assert run_batch(submissions, out, "--part", "simple_tokenizers").returncode == 0
    assert gradebook_rows(out)["ada"]["total"] == full_marks("simple_tokenizers"), "the folder, graded again"
    assert {path: path.read_bytes() for path in submissions.rglob("*") if path.is_file()} == sent

    choices.write_text("student,file,upload\nada,*,ada.tar\n", encoding="utf-8")
    assert run_batch(submissions, out, "--part", "simple_tokenizers").returncode == 0
    reason = gradebook_rows(out)["ada"]["reason"]
    assert "takes ada's hand-in from ada.tar, which is not one of them" in reason, reason
    choices.write_text("student,file,upload\nbea,*,bea/\n", encoding="utf-8")
    refused = run_batch(submissions, out, "--part", "simple_tokenizers")
    assert refused.returncode == 2
    (said,) = refused.stderr.splitlines()
    assert f"{choices}" in said and "bea, who has one hand-in only" in said and "delete the line" in said, said


def _older_tokenizers() -> bytes:
    """The reference's simple_tokenizers.py with char_tokenize not started yet: a student's older try."""
    return TOKENIZERS + b"\n\ndef char_tokenize(text):\n    raise NotImplementedError\n"


@pytest.mark.unit
def test_a_zip_with_more_members_than_a_class_download_has_is_not_opened_to_look(tmp_path, monkeypatch):
    """Looking for a class's download among the hand-ins reads a zip's member count from its end record:
    a student's zip of countless members is never opened for it (opening lists every member)."""
    from autograder.hand_in.lms import folders

    monkeypatch.setattr(folders, "DOWNLOAD_NAMES_AT_MOST", 10)
    canvas = {f"lovelaceada_{number}_5001_bpe.py": BPE for number in range(1001, 1011)}
    (tmp_path / "ada.zip").write_bytes(_zipped({**canvas, "lovelaceada_1011_5001_bpe.py": BPE}))
    (tmp_path / "bea.zip").write_bytes(_zipped(canvas))
    opened: list[Path] = []
    real = zipfile.ZipFile

    def watched(file, *args, **kwargs):
        opened.append(file)
        return real(file, *args, **kwargs)

    monkeypatch.setattr(zipfile, "ZipFile", watched)
    with pytest.raises(DiscoveryError, match=r"bea\.zip \(Canvas\) is a whole class's LMS download"):
        discover(tmp_path)
    assert opened == [tmp_path / "bea.zip"]


def _bad_uploads(name: Callable[[str, str, str], str]) -> dict[str, bytes]:
    """A class's uploads that cannot be graded, each its own way, named by ``name(slug, id, file)`` as an LMS
    names them; 1006 hands in the reference, for a class the batch grades."""
    return {
        name("lovelaceada", "1001", "notes.txt"): b"my notes\n",
        name("beebea", "1002", "work.zip"): _zipped({"README.txt": b"x"}),
        name("ceecyd", "1003", "broken.zip"): b"PK\x03\x04 not a zip",
        name("deedan", "1004", "work.zip"): _zipped(
            {"a/simple_tokenizers.py": TOKENIZERS, "b/simple_tokenizers.py": TOKENIZERS}
        ),
        name("goguy", "1007", "simple_tokenizers.ipynb"): b"{not json",
        name("hohal", "1008", "notes.txt"): b"one\n",
        name("hohal", "1008", "more.txt"): b"two\n",
        name("ivyivy", "1006", "simple_tokenizers.py"): TOKENIZERS,
    }


CANVAS_NAME = "{}_{}_5000_{}".format
MOODLE_NAME = "{}_{}_assignsubmission_file_{}".format


@pytest.mark.parametrize(
    ("lms", "packed"),
    [("Canvas", False), ("Canvas", True), ("Moodle", False)],
    ids=["Canvas folder", "Canvas zip", "Moodle folder"],
)
def test_every_lms_message_names_what_the_instructor_has_and_the_fix(tmp_path, lms, packed):
    """A hand-in of an LMS download that cannot be graded: the gradebook's reason, in one line, names the files
    as the instructor has them (the download's own names, on disk or in its .zip) and the fix; never a path
    such as download/1001 that names nothing on disk. The student's feedback names their own uploads only."""
    uploads = _bad_uploads(CANVAS_NAME if lms == "Canvas" else MOODLE_NAME)
    download = _folder(tmp_path / "download", uploads)
    if packed:
        (tmp_path / "download.zip").write_bytes(_zipped(uploads))
        shutil.rmtree(download)
        download = tmp_path / "download.zip"
    out = tmp_path / "out"
    process = run_batch(download, out, "--part", "simple_tokenizers")
    assert process.returncode == 0, process.stderr[-2000:]
    rows = gradebook_rows(out)
    assert rows["1006"]["status"] == gradebook.GRADED
    failed = {student: row["reason"] for student, row in rows.items() if row["status"] == gradebook.CANNOT_GRADE}
    assert set(failed) == {"1001", "1002", "1003", "1004", "1007", "1008"}, failed
    for student, reason in failed.items():
        assert "\n" not in reason and "; " in reason, reason
        subject = reason.split(": ", 1)[0]
        assert str(tmp_path / "download" / student) not in reason and f"{tmp_path}/{student}" not in reason, reason
        on_disk, _, uploads_named = subject.partition(f", {student}'s upload")
        assert Path(on_disk).exists(), f"{reason!r} names {on_disk}, which is not on disk"
        if packed:
            assert on_disk == str(download) and uploads_named, reason
        named = [name for name in uploads if f"_{student}_" in name]
        assert all(name in reason for name in named), f"{reason!r} leaves out one of {named}"
        feedback = (out / student / "feedback.md").read_text(encoding="utf-8")
        assert str(tmp_path) not in feedback, feedback


@pytest.mark.unit
def test_canvas_test_student_is_left_out_of_the_roster_and_said_once(tmp_path):
    """Canvas's gradebook export lists its Student View user as "Student, Test" in every course: it is nobody's
    hand-in, so it is not a roster student (no "no submission" line each run), and the roster says so once."""
    path = tmp_path / "roster.csv"
    path.write_text(
        "Student,ID,SIS User ID,SIS Login ID,Section,Part 1 (4242)\n"
        "    Points Possible,,,,,30\n"
        '"Lovelace, Ada",1001,A1,ada,S1,\n'
        '"Student, Test",9999,,abc123,S1,\n',
        encoding="utf-8",
    )
    roster = read_roster(path)
    assert set(roster) == {"1001"}
    said = [line for line in roster.warnings if "Student, Test" in line]
    assert len(said) == 1 and "9999" in said[0], roster.warnings
