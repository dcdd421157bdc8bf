"""The real nbgrader on the exercise course: its release holds no solution or hidden test, its autograde
gives full marks and zero, and the kit's own batch grades the notebooks (named after the part modules) as
the modules and fills the same gradebook with partial credit."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from browser import driven
from classroom import SOLUTIONS, TEMPLATE
from commands import run_batch
from formgrader import logged_in, rows, served, waited
from results import full_marks, gradebook_rows

from autograder.authoring import notebooks as exercises
from autograder.authoring.release import release_leaks
from autograder.authoring.stubs import BEGIN

# A real nbgrader course each, formgrader's server among them: minutes, so CI's second step runs them.
pytestmark = pytest.mark.slow

NBGRADER_AUTOGRADED = "simple_tokenizers"


def _nbgrader(*arguments: str, course: Path) -> subprocess.CompletedProcess[str]:
    process = subprocess.run(
        [sys.executable, "-m", "nbgrader", *arguments], cwd=course, capture_output=True, text=True, timeout=600
    )
    assert process.returncode == 0, process.stderr[-3000:]
    return process


@pytest.mark.slow  # nbgrader's own release, collect, autograde and formgrader: half a minute
def test_nbgrader_round_trip(tmp_path):
    """The real nbgrader: release without solutions or hidden tests; autograde gives 100 and 0."""
    api = pytest.importorskip("nbgrader.api", reason="nbgrader is in the dev extra")
    course = tmp_path / "course"
    shutil.copytree(exercises.NBGRADER_COURSE, course)
    _nbgrader("generate_assignment", exercises.NBGRADER_ASSIGNMENT, "--force", course=course)
    release = course / "release" / exercises.NBGRADER_ASSIGNMENT
    released = "".join(path.read_text(encoding="utf-8") for path in release.glob("*.ipynb"))
    assert BEGIN not in released and "HIDDEN TESTS" not in released and 'suite=\\"hidden\\"' not in released
    assert release_leaks(release) == [], "solution code or hidden tests in the release"

    source = course / "source" / exercises.NBGRADER_ASSIGNMENT
    for student, origin in (("alice", source), ("bob", release)):
        shutil.copytree(origin, course / "submitted" / student / exercises.NBGRADER_ASSIGNMENT)
    # nbgrader's own autograde runs every check cell in a kernel, a grader each: one notebook shows that the
    # cells it runs give full marks and zero. All five are run in test_exercises.py (solved) and below (the kit).
    _nbgrader("autograde", exercises.NBGRADER_ASSIGNMENT, f"--notebook={NBGRADER_AUTOGRADED}", course=course)
    database = f"sqlite:///{course / 'gradebook.db'}"
    with api.Gradebook(database) as book:  # a bonus cell is worth 0 in nbgrader's own autograde
        for student, score in (("alice", full_marks(NBGRADER_AUTOGRADED, bonus=False)), ("bob", "0")):
            notebook = book.find_submission_notebook(NBGRADER_AUTOGRADED, exercises.NBGRADER_ASSIGNMENT, student)
            assert f"{notebook.score:g}" == score, student

    # The kit's own path: the same submitted/ folder graded in the cage, partial credit into the same gradebook.
    out = tmp_path / "graded"
    process = run_batch(course, out, "--nbgrader-db", str(course / "gradebook.db"))
    assert process.returncode == 0, process.stderr
    totals = {student: row["total"] for student, row in gradebook_rows(out).items()}
    assert totals == {"alice": full_marks(), "bob": "0"}
    # Notebooks named after the part modules are graded as the modules: alice's (the solved source) load
    # cleanly in the cage, bob's (the release) are stubs, every test not started.
    alice, bob = (
        json.loads((out / student / "results.json").read_text(encoding="utf-8")) for student in ("alice", "bob")
    )
    assert "raised" not in alice["output"], "check cells and explorations load cleanly in the cage"
    assert {test["extra_data"]["outcome"] for test in bob["tests"]} == {"not started"}
    with api.Gradebook(database) as book:  # the kit's export adds the bonus as nbgrader's extra credit
        assert f"{book.find_submission('bpe', 'alice').score:g}" == full_marks()
        assert book.find_grade("test_merge_pair", "bpe", "bpe", "bob").auto_score == 0
    # What the kit leaves is what nbgrader's autograde would: each hand-in's autograded/ folder, its notebooks with
    # every grade cell's metadata, so nbgrader autograde after the kit skips them and every score stays the kit's.
    for student in ("alice", "bob"):
        autograded = course / "autograded" / student / exercises.NBGRADER_ASSIGNMENT
        notebook = json.loads((autograded / "bpe.ipynb").read_text(encoding="utf-8"))
        ids = {cell["metadata"].get("nbgrader", {}).get("grade_id") for cell in notebook["cells"]}
        assert "test_merge_pair" in ids, f"{student}'s autograded bpe.ipynb has the grade cells formgrader shows"
    again = _nbgrader("autograde", exercises.NBGRADER_ASSIGNMENT, course=course)
    assert again.stderr.count("Skipping existing assignment") == 2, again.stderr[-3000:]
    with api.Gradebook(database) as book:
        assert f"{book.find_submission('bpe', 'alice').score:g}" == full_marks()
        assert f"{book.find_submission('bpe', 'bob').score:g}" == "0"


def test_formgrader_shows_the_batchs_grades_adjustments_and_class_as_the_gradebook_does(tmp_path):
    """Through nbgrader's own API, as formgrader reads it: nothing left to grade by hand, each total the
    gradebook's (the instructor's adjustments in nbgrader's manual score and extra credit), the hand-in's
    time from timestamp.txt, the roster's emails, and a roster student who handed nothing in."""
    api = pytest.importorskip("nbgrader.api", reason="nbgrader is in the dev extra")
    course = tmp_path / "course"
    hand_ins = {"alice": SOLUTIONS / "simple_tokenizers.py", "bob": TEMPLATE / "simple_tokenizers.py"}
    for student, module in hand_ins.items():
        folder = course / "submitted" / student / "ps1"
        folder.mkdir(parents=True)
        shutil.copy(module, folder / "simple_tokenizers.py")
    (course / "submitted" / "alice" / "ps1" / "timestamp.txt").write_text(
        "2026-11-20 10:15:00.000000 UTC", encoding="utf-8"
    )
    roster = tmp_path / "roster.csv"
    roster.write_text(
        "id,name,email\nalice,Alice Liddell,alice@uni.edu\nbob,Bob Ross,bob@uni.edu\ncarol,Carol Ann,carol@uni.edu\n",
        encoding="utf-8",
    )
    out = tmp_path / "graded"
    database = _graded_into_nbgrader(
        course,
        roster,
        "alice,simple_tokenizers.char_tokenize,-2,copied the docstring's example\n"
        "bob,simple_tokenizers.word_tokenize,3,right idea\n"
        "bob,,1.5,came to office hours\n",
    )
    totals = {student: row["total"] for student, row in gradebook_rows(out).items() if row["total"]}
    assert totals == {"alice": f"{float(full_marks('simple_tokenizers')) - 2:g}", "bob": "4.5"}, totals
    assert gradebook_rows(out)["alice"]["late"] == "2026-11-20 10:15:00.000000 UTC", "nbgrader's timestamp.txt"
    with api.Gradebook(f"sqlite:///{database}") as book:
        view = {entry["student"]: entry for entry in book.submission_dicts("ps1")}
        assert {student: f"{entry['score']:g}" for student, entry in view.items()} == totals
        assert not any(entry["needs_manual_grade"] for entry in view.values()), view
        assert not any(grade.needs_manual_grade for grade in book.db.query(api.Grade)), "no cell left to grade"
        assert book.find_submission("ps1", "alice").timestamp.isoformat() == "2026-11-20T10:15:00"
        assert book.find_submission("ps1", "bob").timestamp is None
        students = {student.id: student for student in book.students}
        assert set(students) == {"alice", "bob", "carol"}, "a roster student without a hand-in is in the class"
        assert students["carol"].email == "carol@uni.edu" and students["carol"].last_name == "Ann"
        with pytest.raises(api.MissingEntry):
            book.find_submission("ps1", "carol")
        cut = book.find_grade("test_char_tokenize", "simple_tokenizers", "ps1", "alice")
        assert (cut.auto_score - cut.manual_score, cut.extra_credit) == (2, None), cut.to_dict()


def test_a_total_set_by_hand_is_formgraders_total_too(tmp_path):
    """`=N` in adjustments.csv, carried into nbgrader's gradebook as formgrader reads it: for alice, graded by the
    tests, her total; for bob, whose notebook cannot be read, and carol, who handed in on paper, the total
    set by hand is their score, with nothing left to grade by hand."""
    api = pytest.importorskip("nbgrader.api", reason="nbgrader is in the dev extra")
    course = tmp_path / "course"
    for student in ("alice", "bob"):
        (course / "submitted" / student / "ps1").mkdir(parents=True)
    shutil.copy(SOLUTIONS / "simple_tokenizers.py", course / "submitted" / "alice" / "ps1")
    (course / "submitted" / "bob" / "ps1" / "simple_tokenizers.ipynb").write_text("{not json", encoding="utf-8")
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name\nalice,Alice Liddell\nbob,Bob Ross\ncarol,Carol Ann\n", encoding="utf-8")
    database = _graded_into_nbgrader(
        course,
        roster,
        "alice,,=12.5,graded again by hand\nbob,,=21.5,graded by hand from the module\ncarol,,=18,handed in on paper\n",
    )
    out = tmp_path / "graded"
    rows = gradebook_rows(out)
    totals = {student: row["total"] for student, row in rows.items()}
    assert totals == {"alice": "12.5", "bob": "21.5", "carol": "18"}, totals
    assert rows["bob"]["status"] == rows["carol"]["status"] == "graded by hand"
    with api.Gradebook(f"sqlite:///{database}") as book:
        view = {entry["student"]: entry for entry in book.submission_dicts("ps1")}
        assert {student: f"{entry['score']:g}" for student, entry in view.items()} == totals
        assert not any(entry["needs_manual_grade"] for entry in view.values()), view
        assert not any(grade.needs_manual_grade for grade in book.db.query(api.Grade)), "no cell left to grade"


@pytest.mark.browser  # a real Jupyter server with formgrader, read in headless Chromium: half a minute
def test_formgrader_lists_the_kits_grades_and_keeps_a_score_typed_in_its_page_through_the_next_batch(tmp_path):
    """After the batch, formgrader (nbgrader's own server, in Chromium) lists each hand-in as graded with the kit's
    score, and each notebook among those to grade by hand, a score box per function's cell; a score a grader types
    there is still there, in the page and the gradebook, after the batch runs again, and the batch says so."""
    api = pytest.importorskip("nbgrader.api", reason="nbgrader is in the dev extra")
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    course = tmp_path / "course"
    for student, module in {"alice": SOLUTIONS, "bob": TEMPLATE}.items():
        (course / "submitted" / student / "ps1").mkdir(parents=True)
        shutil.copy(module / "simple_tokenizers.py", course / "submitted" / student / "ps1")
    (course / "submitted" / "alice" / "ps1" / "timestamp.txt").write_text(
        "2026-11-20 10:15:00.000000 UTC", encoding="utf-8"
    )
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name\nalice,Alice Liddell\nbob,Bob Ross\ncarol,Carol Ann\n", encoding="utf-8")
    database = _graded_into_nbgrader(course, roster, "bob,simple_tokenizers.word_tokenize,3,right idea\n")
    out = tmp_path / "graded"
    totals = {student: row["total"] for student, row in gradebook_rows(out).items() if row["total"]}
    assert totals == {"alice": full_marks("simple_tokenizers"), "bob": "3"}, totals
    with api.Gradebook(f"sqlite:///{database}") as book:
        alice_notebook = book.find_submission_notebook("simple_tokenizers", "ps1", "alice").id
        cut = book.find_grade("test_char_tokenize", "simple_tokenizers", "ps1", "alice")
        cut_id, cut_points = cut.id, cut.max_score
    typed = cut_points - 2

    with served(course, tmp_path) as formgrader, driven() as driver:
        logged_in(driver, formgrader)
        listed = rows(driver, "manage_submissions/ps1", formgrader)
        possible = full_marks("simple_tokenizers", bonus=False)
        for student, name, total in (("alice", "Liddell, Alice", totals["alice"]), ("bob", "Ross, Bob", "3")):
            row = next(row for row in listed if student in row)
            assert name in row and f"{total} / {possible}" in row and "needs autograding" not in row, listed
        # formgrader's manual grading: the notebook of each hand-in, none for carol, who handed nothing in
        assert len(rows(driver, "gradebook/ps1/simple_tokenizers", formgrader)) == 2
        driver.get(formgrader.url(f"submissions/{alice_notebook}"))
        box = waited(
            driver,
            lambda page: next(iter(page.find_elements(By.CSS_SELECTOR, "input.score#test_char_tokenize")), None),
            "the score box of alice's test_char_tokenize",
        )
        waited(driver, lambda _: box.get_attribute("placeholder") == f"{cut_points:g}", "the kit's autograded score")
        assert len(driver.find_elements(By.CSS_SELECTOR, "input.score")) == 5, "a score box per function's cell"
        box.send_keys(f"{typed:g}", Keys.TAB)  # formgrader saves on the box's change
        waited(driver, lambda _: _manual_score(api, database, cut_id) == typed, "formgrader to save the typed score")

        again = run_batch(
            course, out, "--part", "simple_tokenizers", "--roster", str(roster), "--nbgrader-db", str(database)
        )
        assert again.returncode == 0, again.stderr[-3000:]
        assert "alice's score typed in formgrader for simple_tokenizers/test_char_tokenize" in again.stderr, (
            again.stderr
        )
        assert gradebook_rows(out)["alice"]["total"] == totals["alice"], "the kit's own total is the tests'"

        driver.get(formgrader.url(f"submissions/{alice_notebook}"))
        box = waited(
            driver,
            lambda page: next(iter(page.find_elements(By.CSS_SELECTOR, "input.score#test_char_tokenize")), None),
            "the score box again",
        )
        waited(driver, lambda _: box.get_attribute("value") == f"{typed:g}", "the typed score, read back")
        listed = rows(driver, "manage_submissions/ps1", formgrader)
        alice_row = next(row for row in listed if "alice" in row)
        assert f"{float(totals['alice']) - 2:g} / {possible}" in alice_row, listed
    assert _manual_score(api, database, cut_id) == typed


def _manual_score(api: object, database: Path, grade_id: str) -> float | None:
    with api.Gradebook(f"sqlite:///{database}") as book:  # type: ignore[attr-defined]
        score = book.find_grade_by_id(grade_id).manual_score
        return None if score is None else float(score)


def _graded_into_nbgrader(course: Path, roster: Path, adjustments: str) -> Path:
    """The real batch of ``course``'s submitted/ into graded/ beside it, with ``adjustments`` (adjustments.csv's
    rows) and ``roster``, writing course/gradebook.db; that database."""
    out = course.parent / "graded"
    out.mkdir()
    (out / "adjustments.csv").write_text("student,part_or_test,points,comment\n" + adjustments, encoding="utf-8")
    database = course / "gradebook.db"
    process = run_batch(
        course, out, "--part", "simple_tokenizers", "--roster", str(roster), "--nbgrader-db", str(database)
    )
    assert process.returncode == 0, process.stderr[-3000:]
    assert "Warning" not in process.stderr, "nbgrader's SQLAlchemy warnings read as errors: " + process.stderr
    return database
