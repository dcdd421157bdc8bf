"""``grade batch`` end to end: a class with misbehaving submissions, a roster, kill -9 and resume."""

from __future__ import annotations

import csv
import html
import json
import re
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import cast
from xml.etree import ElementTree

import browser
import pytest
from bug_corpus import BUGS
from classroom import CRASHES, FLOODS, HANGS, SOLUTIONS, SUBMISSIONS, Student, renamed_copy, write_submission
from commands import grade, run_batch, snapshot
from results import Results, full_marks, function_scores, gradebook_rows

from autograder.course.batch import gradebook
from autograder.parts import PARTS

# Its hand-ins step outside the plain-Python policy on purpose, to test the worker and the cage.
pytestmark = pytest.mark.without_policy


def results(out: Path, student: str) -> Results:
    return cast(Results, json.loads((out / student / "results.json").read_text(encoding="utf-8")))


def told(document: Results) -> dict[str, tuple]:
    """What a student is told per test: outcome, call, expected, got, hint (not timings)."""
    return {
        test["extra_data"]["test"] + "@" + test["extra_data"]["function"]: (
            test["extra_data"]["outcome"],
            test["extra_data"]["call"],
            test["extra_data"]["expected"],
            test["extra_data"]["got"],
            test["extra_data"]["hint"],
            test["score"],
        )
        for test in document["tests"]
    }


# A bug per graded property that hypothesis must find and shrink.
SHRUNK_BUGS = ("merge_pair forgets to skip past a merged pair", "pair counts skip overlapping pairs")


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, subprocess.CompletedProcess[str]]:
    """One class graded once for several tests: every kind of hand-in, a roster that does not match."""
    root = tmp_path_factory.mktemp("class")
    submissions = root / "submissions"
    write_submission(submissions, Student("ada", "correct"))
    write_submission(submissions, Student("bea", "not started"))
    write_submission(submissions, Student("cyd", "hangs", HANGS))
    write_submission(submissions, Student("dan", "crashes", CRASHES))
    write_submission(submissions, Student("eve", "floods", FLOODS))
    for number, name in enumerate(SHRUNK_BUGS):
        write_submission(submissions, Student(f"bug{number}", "buggy", BUGS[name]))
    renamed_copy(SOLUTIONS, submissions / "ren")  # ada's code, every name changed and functions reordered
    shutil.copy(SUBMISSIONS / "correct" / "notebook" / "bpe_homework.ipynb", submissions / "fay.ipynb")
    with zipfile.ZipFile(submissions / "gus.zip", "w") as archive:
        for path in SOLUTIONS.glob("*.py"):
            archive.write(path, f"gus/{path.name}")
    (submissions / "hal.zip").write_bytes(b"not a zip")
    (submissions / "notes.txt").write_text("the TA's notes", encoding="utf-8")
    roster = root / "roster.csv"
    roster.write_text("Student,ID\nAda Lovelace,ada\nBea Bee,bea\nIan Absent,ian\n", encoding="utf-8")
    before = snapshot(submissions)
    out = root / "out"
    process = run_batch(submissions, out, "--roster", str(roster), "--junit", str(root / "batch.xml"), "--jobs", "2")
    assert snapshot(submissions) == before, "grading wrote into the submissions"
    return root, out, process


@pytest.mark.slow
def test_a_class_with_misbehaving_submissions_is_graded_whole(graded_class):
    root, out, process = graded_class
    assert process.returncode == 0, process.stderr
    rows = gradebook_rows(out)
    assert rows["ada"]["total"] == full_marks() and rows["ada"]["status"] == gradebook.GRADED
    assert rows["fay"]["total"] == full_marks("simple_tokenizers", "bpe"), "a notebook hand-in of Parts 1-2"
    assert rows["gus"]["total"] == full_marks(), "a .zip of a folder"
    assert rows["bea"]["total"] == "0"
    assert rows["eve"]["total"] == full_marks(), "printing a lot is not wrong"
    # What a flood printed is cut short: eve's record is a quiet hand-in's (ada's, the same tests passed) and
    # at most a little of the 10 MB printed.
    flooded, quiet = ((out / student / "results.json").stat().st_size for student in ("eve", "ada"))
    assert flooded - quiet < 50_000, f"eve's results.json holds {flooded:,} bytes, ada's {quiet:,}"
    assert FLOODS[1] == "char_tokenize"
    for student, (module, function, _) in (("cyd", HANGS), ("dan", CRASHES)):
        scores = function_scores(results(out, student))
        lost = {key for key, (score, most) in scores.items() if score < most}
        assert lost == {(module, function)}, f"{student} lost points beyond {function}: {lost}"
    hung = [
        test["extra_data"]["detail"]
        for test in results(out, "cyd")["tests"]
        if test["extra_data"]["outcome"] == "timed out"
    ]
    assert len(hung) > 1 and sum("was not run" in detail for detail in hung) == len(hung) - 1, (
        "a function that hung once is not called again"
    )
    assert rows["hal"]["status"] == gradebook.CANNOT_GRADE and "hal.zip" in rows["hal"]["reason"]
    assert "hal.zip" in (out / "hal" / "feedback.md").read_text(encoding="utf-8"), "the student is told why"
    assert "notes.txt" in process.stderr


@pytest.mark.slow
def test_roster_names_and_mismatches(graded_class):
    _, out, _ = graded_class
    rows = gradebook_rows(out)
    assert rows["ada"]["name"] == "Ada Lovelace"
    assert rows["ian"]["status"] == gradebook.NO_SUBMISSION and rows["ian"]["total"] == ""
    assert rows["cyd"]["note"] == gradebook.NOT_ON_ROSTER
    assert rows["ada"]["note"] == ""
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "| ian (Ian Absent) | no submission |" in summary and "| cyd | not on the roster |" in summary


@pytest.mark.slow
def test_the_gradebooks_part_columns_say_full_marks_and_bonus_apart(graded_class):
    """A part's header is its share of full marks, bonus left out; bonus has columns of its own. So the part
    headers add up to `max`, and a perfect hand-in's part columns to `max` too, its bonus beside them."""
    _, out, _ = graded_class
    rows = gradebook_rows(out)
    parts = {header: re.fullmatch(r"Part \d+( bonus)? \((\d+)\)", header) for header in rows["ada"]}
    regular = {header: float(found[2]) for header, found in parts.items() if found and not found[1]}
    bonus = {header: float(found[2]) for header, found in parts.items() if found and found[1]}
    assert sum(regular.values()) == float(rows["ada"]["max"]) == float(full_marks(bonus=False))
    assert sum(bonus.values()) == float(full_marks()) - float(full_marks(bonus=False)) > 0
    assert "Part 5 bonus (12)" in bonus and not any(header.startswith("Part 5 (") for header in regular)
    assert {header: float(rows["ada"][header]) for header in regular} == regular, "full marks, part by part"
    assert sum(float(rows["ada"][header]) for header in bonus) == float(rows["ada"]["bonus"])


@pytest.mark.slow
def test_a_feedback_page_is_titled_with_the_students_name_where_the_roster_has_it(graded_class):
    _, out, _ = graded_class
    for student, heading in (("ada", "Ada Lovelace (ada)"), ("bea", "Bea Bee (bea)"), ("cyd", "cyd")):
        page = (out / student / "feedback.html").read_text(encoding="utf-8")
        assert f"<title>Feedback for {heading}</title>" in page and f"<h1>Feedback for {heading}</h1>" in page
        assert (out / student / "feedback.md").read_text(encoding="utf-8").startswith(f"# Feedback for {heading}\n")
    assert results(out, "ada")["extra_data"]["submission"] == "ada", "the stored result keeps the id"


@pytest.mark.slow
def test_every_output_is_written(graded_class):
    root, out, _ = graded_class
    for student in ("ada", "cyd", "fay"):
        for name in ("results.json", "feedback.md", "feedback.html"):
            assert (out / student / name).is_file()
    page = (out / "summary.html").read_text(encoding="utf-8")
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="histogram"' in page, "the chart is in the page itself"
    assert (out / "summary-histogram.svg").read_text(encoding="utf-8") in page, "and beside it for summary.md"
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "## Hardest tests first" in summary and "## Timeouts and crashes" in summary
    hardest_section = summary.split("## Hardest tests first")[1].split("##")[0]
    hardest = [line for line in hardest_section.splitlines() if line.startswith("| Part ")]
    assert hardest, "item analysis rows, each with its part (train_bpe is in four)"
    assert "| cyd |" in summary.split("## Timeouts and crashes")[1].split("##")[0]
    assert "| dan |" in summary.split("## Timeouts and crashes")[1].split("##")[0]
    suites = ElementTree.parse(root / "batch.xml").getroot()
    assert {suite.get("name") for suite in suites} == {
        *("ada", "bea", "cyd", "dan", "eve", "bug0", "bug1", "fay", "gus", "ren")
    }
    canvas = list(csv.reader((out / "canvas.csv").read_text(encoding="utf-8").splitlines()))
    assert canvas[0][:5] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    assert canvas[1][0] == "Points Possible" and canvas[1][5] == full_marks(bonus=False)
    assert len(canvas[0]) == 6, "nothing after the assignment: Canvas would read it as a column of its own"
    grades = {row[1] or row[3]: row[5] for row in canvas[2:]}  # by ID (the roster's), else by SIS Login ID
    assert grades["ian"] == "", "every roster student is a row; one with no grade is blank (Canvas keeps its own)"
    assert gradebook_rows(out)["ian"]["status"] == gradebook.NO_SUBMISSION, "why is the gradebook's to say"
    assert gradebook_rows(out)["hal"]["status"] == gradebook.CANNOT_GRADE


@pytest.mark.slow
def test_the_summary_links_every_student_to_their_feedback_page(graded_class):
    _, out, _ = graded_class
    page = (out / "summary.html").read_text(encoding="utf-8")
    for student in ("ada", "bea", "cyd", "dan", "eve", "bug0", "bug1", "fay", "gus", "hal", "ren"):
        assert f'<a href="{student}/feedback.html">' in page, student
        assert (out / student / "feedback.html").is_file()
    assert '<a href="ian/feedback.html">' not in page, "ian handed nothing in: no page to link"
    assert "[page](<ada/feedback.html>)" in (out / "summary.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_renamed_copy_is_listed_with_what_it_shares(graded_class):
    _, out, _ = graded_class
    section = (out / "summary.md").read_text(encoding="utf-8").split("## Similar code")[1].split("##")[0]
    (row,) = [line for line in section.splitlines() if line.startswith("| ada (Ada Lovelace), ren |")]
    shares = dict(re.findall(r"(Part \d) \((\d+)%\)", row))
    assert set(shares) == {f"Part {part.number}" for part in PARTS}, row
    assert all(int(shared) >= 90 for shared in shares.values()), row
    assert "bea" not in section, "the untouched stubs are shared by all, and count for no one"


@pytest.fixture
def chromium() -> str:
    """Chromium's path, found before the test starts: without it the skip names the test (not engines.py)."""
    return browser.chromium()


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.usefixtures("chromium")
def test_the_summary_page_loads_in_a_browser_with_every_student_in_the_histogram(graded_class, tmp_path):
    _, out, _ = graded_class
    dom = browser.load(out / "summary.html", tmp_path / "summary.png")
    bars = re.findall(r'<rect class="bar"[^>]*data-students="([^"]*)"', dom)
    shown = [student for names in bars for student in json.loads(html.unescape(names))]
    graded = {key for key, row in gradebook_rows(out).items() if row["status"] == gradebook.GRADED}
    assert sorted(shown) == sorted(graded), "each graded student is in one bar, bonus scores above 100% too"
    assert max(float(row["percent"]) for row in gradebook_rows(out).values() if row["percent"]) > 100
    from PIL import Image

    with Image.open(tmp_path / "summary.png") as image:
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20) or []
    assert image.size == (1200, 1600)
    bar_blue = sum(count for count, colour in colours if colour == (0x3B, 0x6E, 0xA8))
    assert bar_blue > 500, "the histogram's bars were drawn"


@pytest.fixture
def axe() -> str:
    """axe-core, found before the test starts: without it (or Selenium's driver) the skip names the test."""
    browser.chromedriver()
    return browser.axe_script()


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.usefixtures("chromium", "axe")
def test_the_summary_and_feedback_pages_pass_an_accessibility_check(graded_class):
    """axe-core in Chromium, WCAG 2 A and AA (text contrast 4.5:1 among them) and its best practices: the
    class summary, and feedback of every kind (full marks, not started, failures beside code, not gradable)."""
    _, out, _ = graded_class
    pages = [out / "summary.html", *(out / student / "feedback.html" for student in ("ada", "bea", "bug0", "hal"))]
    with browser.driven() as driver:
        found = [line for page in pages for line in browser.accessibility_violations(driver, page)]
    assert not found, "\n".join(found)


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.usefixtures("chromium")
def test_a_feedback_pages_hint_lines_wrap_on_a_narrow_screen(graded_class):
    """What to fix (call, expected, got, hint), and the code beside it, wrap at the page's width: nothing to
    scroll sideways."""
    _, out, _ = graded_class
    with browser.driven(width=480, height=900) as driver:
        driver.get((out / "bug0" / "feedback.html").as_uri())
        texts = driver.execute_script(
            "return [...document.querySelectorAll('pre')].map((pre) => [pre.textContent, pre.scrollWidth, pre.clientWidth]);"
        )
        page_width = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth];")
    hinted = [(text, scrolled, shown) for text, scrolled, shown in texts if "hint:" in text]
    assert hinted and max(len(line) for text, _, _ in hinted for line in text.splitlines()) > 60, "a long hint"
    assert all(scrolled <= shown for _, scrolled, shown in texts), [text[:80] for text, scrolled, shown in texts]
    assert len(texts) > len(hinted), "the student's code was shown too"
    assert page_width[0] <= page_width[1], "the page itself scrolls sideways"


@pytest.mark.slow
def test_identical_code_is_listed_but_not_the_untouched_stubs(graded_class):
    _, out, _ = graded_class
    section = (out / "summary.md").read_text(encoding="utf-8").split("## Identical code")[1].split("##")[0]
    assert "ada (Ada Lovelace), gus" in section  # both handed in the reference solutions
    assert "bea" not in section


@pytest.mark.slow
def test_replayed_examples_give_what_a_fresh_grader_gives(graded_class):
    """The batch's graders replay hypothesis's examples (autograder.testing.replay); a lone `grade` draws them."""
    root, out, _ = graded_class
    # The parts the shrunk bugs and the hang are in (the rest would only repeat the point, slowly).
    parts = sorted({"simple_tokenizers", "bpe", HANGS[0]})
    for student in ("bug0", "bug1", "ada", "cyd"):
        _, alone = grade(root / "submissions" / student, *[word for part in parts for word in ("--part", part)])
        in_batch = results(out, student)
        in_batch["tests"] = [test for test in in_batch["tests"] if test["extra_data"]["module"] in parts]
        assert told(in_batch) == told(alone), student


@pytest.mark.slow
def test_a_grader_that_sends_calls_ahead_tells_each_student_what_a_lone_grade_does(tmp_path):
    """In a one-job batch the first correct hand-in records each property's examples and the second its
    calls; later hand-ins get those calls sent ahead (GradingSession.replaying). Crashes and hangs part way
    through, and bugs hypothesis shrinks, must still be told as a lone `grade` tells them."""
    submissions = tmp_path / "submissions"
    for name in ("a0", "a1"):  # graded first: the batch goes in name order
        write_submission(submissions, Student(name, "correct"))
    later = {
        "crash-midway": ("bpe", "encode", MIDWAY.format(then="__import__('os')._exit(3)")),
        "hang-midway": ("bpe", "encode", MIDWAY.format(then="while True: pass")),
        "raise-midway": ("bpe", "encode", MIDWAY.format(then="raise ValueError('too long')")),
        **{f"shrunk{number}": BUGS[name] for number, name in enumerate(SHRUNK_BUGS)},
    }
    for name, bug in later.items():
        write_submission(submissions, Student(name, "buggy", bug))
    write_submission(submissions, Student("z-correct", "correct"))
    out = tmp_path / "out"
    process = run_batch(submissions, out, "--jobs", "1", "--part", "bpe", "--limit", "call_seconds=1")
    assert process.returncode == 0, process.stderr[-2000:]
    for student in [*later, "z-correct"]:
        _, alone = grade(submissions / student, "--part", "bpe", "--limit", "call_seconds=1")
        assert told(results(out, student)) == told(alone), student
    assert gradebook_rows(out)["z-correct"]["total"] == full_marks("bpe")


# A bug that shows only part way through a property's examples: its first calls are answered.
MIDWAY = """
_encode = encode

def encode(text, merges, vocab):
    if len(text) > 12:
        {then}
    return _encode(text, merges, vocab)
"""


@pytest.mark.slow
def test_nbgrader_course_is_graded_and_its_gradebook_filled(tmp_path):
    """nbgrader's submitted/ layout in, scores out through nbgrader's own API (what its formgrader reads)."""
    api = pytest.importorskip("nbgrader.api", reason="nbgrader is in the dev extra")
    course = tmp_path / "course"
    for student, kind in (("ada", "correct"), ("bea", "not started")):
        write_submission(course / "submitted" / student, Student("ps1", kind))
    notebook_hand_in = course / "submitted" / "cyd" / "ps1"
    notebook_hand_in.mkdir(parents=True)
    shutil.copy(SUBMISSIONS / "correct" / "notebook" / "bpe_homework.ipynb", notebook_hand_in)
    database = course / "gradebook.db"
    with api.Gradebook(f"sqlite:///{database}") as book:  # as generate_assignment leaves it, cut down
        book.add_assignment("ps1")
        book.add_notebook("bpe", "ps1")
        book.add_grade_cell("test_encode", "bpe", "ps1", max_score=2, cell_type="code")
        book.add_grade_cell("written_answer", "bpe", "ps1", max_score=3, cell_type="markdown")
    out = tmp_path / "out"
    process = run_batch(course, out, "--nbgrader-db", str(database), "--part", "bpe")  # the cells are Part 2's
    assert process.returncode == 0, process.stderr
    assert "nbgrader cell bpe/written_answer names no function" in process.stderr
    with api.Gradebook(f"sqlite:///{database}") as book:
        assert book.find_grade("test_encode", "bpe", "ps1", "ada").auto_score == 2
        assert book.find_grade("test_encode", "bpe", "ps1", "cyd").auto_score == 2
        assert book.find_grade("test_encode", "bpe", "ps1", "bea").auto_score == 0
        assert book.find_grade("written_answer", "bpe", "ps1", "ada").auto_score is None, "left for the TA"
    assert set(gradebook_rows(out)) == {"ada", "bea", "cyd"}


@pytest.mark.slow
def test_nbgrader_assignment_is_created_when_missing(tmp_path):
    api = pytest.importorskip("nbgrader.api", reason="nbgrader is in the dev extra")
    submissions = tmp_path / "submissions"
    write_submission(submissions, Student("ada", "correct"))
    database = tmp_path / "gradebook.db"
    process = run_batch(
        submissions,
        tmp_path / "out",
        "--nbgrader-db",
        str(database),
        "--assignment",
        "bpe1",
        "--part",
        "simple_tokenizers",
        "--part",
        "bpe",
    )
    assert process.returncode == 0, process.stderr
    with api.Gradebook(f"sqlite:///{database}") as book:  # an assignment of two parts: their notebooks only
        assert f"{book.find_submission('bpe1', 'ada').score:g}" == full_marks("simple_tokenizers", "bpe")
        assert {notebook.name for notebook in book.find_assignment("bpe1").notebooks} == {"simple_tokenizers", "bpe"}


def test_bad_batch_input_is_one_line_naming_the_fix(tmp_path):
    submissions = tmp_path / "submissions"
    write_submission(submissions, Student("ada", "correct"))
    inside = run_batch(submissions, submissions / "graded")
    assert inside.returncode == 2 and "choose an output folder outside" in inside.stderr
    assert inside.stderr.count("\n") == 1
    no_name = run_batch(submissions, tmp_path / "out", "--nbgrader-db", str(tmp_path / "gradebook.db"))
    assert no_name.returncode == 2 and "--assignment NAME" in no_name.stderr
    assert not (tmp_path / "out").exists(), "refused before grading anything"
    roster = tmp_path / "roster.csv"
    roster.write_text("who\nada\n", encoding="utf-8")
    bad_roster = run_batch(submissions, tmp_path / "out", "--roster", str(roster))
    assert bad_roster.returncode == 2 and "roster.csv: has no id column" in bad_roster.stderr
    assert sorted(path.name for path in submissions.iterdir()) == ["ada"]


def test_the_slowest_hand_ins_are_ranked_by_the_time_in_their_own_code(tmp_path):
    """The first hand-in of each grader pays the grader's start (imports, collection): that is not its slowness."""
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    honest = (SOLUTIONS / "simple_tokenizers.py").read_text(encoding="utf-8")
    (submissions / "aaa.py").write_text(honest, encoding="utf-8")  # graded first: it pays for the start
    slow = (
        honest
        + "\n\n_fast = char_tokenize\n\ndef char_tokenize(text):\n    import time\n    time.sleep(0.1)\n    return _fast(text)\n"
    )
    (submissions / "zzz.py").write_text(slow, encoding="utf-8")
    out = tmp_path / "out"
    process = run_batch(submissions, out, "--jobs", "1", "--part", "simple_tokenizers")
    assert process.returncode == 0, process.stderr[-2000:]
    slowest = (out / "summary.md").read_text(encoding="utf-8").split("## Slowest submissions")[1].split("##")[0]
    rows = [
        line for line in slowest.splitlines() if line.startswith("| ") and "student" not in line and "---" not in line
    ]
    assert rows[0].startswith("| zzz |"), slowest


@pytest.mark.skipif(not hasattr(__import__("os"), "sched_setaffinity"), reason="CPUs can be chosen on Linux only")
def test_each_grader_keeps_to_its_own_cpu_and_its_worker_with_it():
    """Grader n runs on the n-th CPU it may use (round the list again past the last), and a process it
    starts (its worker) stays on that CPU: a call and its answer never wait for a wake-up on another one."""
    import os
    import sys

    allowed = sorted(os.sched_getaffinity(0))
    for number in range(len(allowed) + 1):
        script = (
            "import os, subprocess, sys\n"
            "from autograder.course.batch.pool import keep_to_one_cpu, usable_cpus\n"
            f"keep_to_one_cpu({number}, usable_cpus())\n"
            "child = subprocess.run([sys.executable, '-S', '-c', 'import os; print(sorted(os.sched_getaffinity(0)))'],\n"
            "                       capture_output=True, text=True, check=True)\n"
            "print(sorted(os.sched_getaffinity(0)), child.stdout.strip())\n"
        )
        shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
        cpu = [allowed[number % len(allowed)]]
        assert shown.strip() == f"{cpu} {cpu}"


@pytest.mark.unit
@pytest.mark.skipif(not hasattr(__import__("os"), "sched_setaffinity"), reason="CPUs can be chosen on Linux only")
def test_the_batch_keeps_off_its_graders_cpus_while_there_are_cpus_to_spare():
    """With fewer jobs than CPUs, every thread of the batch's own process (one started before too) runs on
    the CPUs no grader takes, and all of them get every CPU back at the end."""
    import os
    import threading

    from autograder.course.batch.pool import _batch_beside_graders, usable_cpus

    cpus = usable_cpus()
    if len(cpus) < 2:
        pytest.skip("one CPU: nothing to spare")
    done = threading.Event()
    helper = threading.Thread(target=done.wait)  # a thread the batch did not start: the progress bar's, say
    helper.start()
    try:
        assert helper.native_id is not None
        with _batch_beside_graders(cpus, 1):
            assert os.sched_getaffinity(0) == os.sched_getaffinity(helper.native_id) == set(cpus[1:])
        assert os.sched_getaffinity(0) == os.sched_getaffinity(helper.native_id) == set(cpus)
        with _batch_beside_graders(cpus, len(cpus)):
            assert os.sched_getaffinity(0) == set(cpus), "no CPU to spare: nothing changes"
        with _batch_beside_graders(cpus, 1, first_cpu=1):  # a second shard's one grader takes the second CPU
            assert os.sched_getaffinity(0) == set(cpus) - {cpus[1]}
    finally:
        done.set()
        helper.join()
