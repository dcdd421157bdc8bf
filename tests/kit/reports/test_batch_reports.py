"""What the batch tells the instructor and the students beyond the scores: the histogram, similar code,
how much of the hidden tests the feedback shows, and the instructor's adjustments."""

from __future__ import annotations

import ast
import html
import json
import re
from pathlib import Path

import pytest
from bug_corpus import BUGS
from classroom import SOLUTIONS, SUBMISSIONS, TEMPLATE, Student, renamed_copy, write_submission
from commands import run_batch

from autograder.cage.cage_limits import CageLimits
from autograder.course.batch import similarity
from autograder.grading import hand_in
from autograder.hand_in import loading, student_syntax
from autograder.parts import MODULES
from autograder.reports import code_view, histogram
from autograder.reports import html as html_report
from autograder.testing import suites
from autograder.testing.grader import Grader


@pytest.mark.unit
def test_the_histogram_holds_every_student_bonus_scores_included():
    scores = {"ada": 112.5, "bea": 100.0, "cyd": 0.0, "dan": 55.0, "eve": 130.0}
    chart = histogram.svg(scores)
    bars = re.findall(r'data-from="(\d+)" data-to="(\d+)" data-students="([^"]*)"', chart)
    placed = {
        student: (int(low), int(high))
        for low, high, names in bars
        for student in json.loads(names.replace("&quot;", '"'))
    }
    assert set(placed) == set(scores), "no student falls out of the picture"
    assert placed["ada"] == (110, 120) and placed["eve"] == (130, 140) and placed["bea"] == (100, 110)
    assert "Scores of 5 graded submissions" in chart


@pytest.mark.unit
def test_a_renamed_reordered_copy_is_similar_and_independent_solutions_are_not(tmp_path):
    copied = renamed_copy(SOLUTIONS, tmp_path / "copy")
    original = (SOLUTIONS / "bpe.py").read_text(encoding="utf-8")
    assert (copied / "bpe.py").read_text(encoding="utf-8").count("my_") > 20, "names really changed"
    assert original.split("def ")[1][:20] != (copied / "bpe.py").read_text(encoding="utf-8").split("def ")[1][:20]
    hand_ins = {"reference": SOLUTIONS, "copy": copied}
    hand_ins |= {path.name: path for path in (SUBMISSIONS / "correct").iterdir() if path.is_dir()}
    prints = {name: similarity.measures(loading.load(path)).prints for name, path in hand_ins.items()}
    pairs = similarity.similar_pairs(prints, base=similarity.measures(loading.load(TEMPLATE)).prints)
    # The notebook hand-in of the fixtures holds largest_pair_ties' Part 1 and naive_slicing's Part 2 word for
    # word: real copies, found, each in its part.
    assert {(pair.first, pair.second): sorted(part for part, _ in pair.parts) for pair in pairs} == {
        ("copy", "reference"): sorted(MODULES),
        ("largest_pair_ties", "notebook"): ["simple_tokenizers"],
        ("naive_slicing", "notebook"): ["bpe"],
    }
    assert all(shared > 0.9 for pair in pairs for _, shared in pair.parts)
    assert similarity.measures(loading.load(copied))[0] != similarity.measures(loading.load(SOLUTIONS))[0]


@pytest.mark.unit
def test_a_copy_moved_into_a_module_the_hand_in_imports_is_still_similar(tmp_path):
    copied = renamed_copy(SOLUTIONS, tmp_path / "copy")
    hidden = tmp_path / "hidden"
    (hidden / "tools").mkdir(parents=True)
    for path in copied.glob("*.py"):  # every part a line that imports its code, in three different ways
        (hidden / path.name).write_text(f"from {path.stem}_impl import *  # noqa: F403\n", encoding="utf-8")
        (hidden / f"{path.stem}_impl.py").write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    (hidden / "bpe.py").write_text("from tools.helper import *  # noqa: F403\n", encoding="utf-8")
    (hidden / "bpe_impl.py").unlink()
    (hidden / "tools" / "__init__.py").write_text("from .merging import *  # noqa: F403\n", encoding="utf-8")
    (hidden / "tools" / "helper.py").write_text("import tools\nfrom tools import *  # noqa: F403\n", encoding="utf-8")
    (hidden / "tools" / "merging.py").write_text((copied / "bpe.py").read_text(encoding="utf-8"), encoding="utf-8")
    (hidden / "unused.py").write_text((TEMPLATE / "bpe.py").read_text(encoding="utf-8"), encoding="utf-8")
    prints = {name: similarity.measures(loading.load(path)).prints for name, path in (("a", SOLUTIONS), ("b", hidden))}
    pairs = similarity.similar_pairs(prints, base=similarity.measures(loading.load(TEMPLATE)).prints)
    assert [(pair.first, pair.second) for pair in pairs] == [("a", "b")]
    assert {part for part, shared in pairs[0].parts if shared > 0.9} == set(MODULES), "every part, bpe's in tools/"


def test_similar_code_is_listed_by_name_and_part_and_near_empty_hand_ins_are_compared_with_no_one(tmp_path):
    """Three hand-ins of the stubs with only Part 1's two one-line functions written (each its own names)
    share all the code they have: too little to tell a copy from the one way to write it, so none is listed,
    and the section says how small is too small. A renamed, reordered copy of the reference's Part 1 is
    listed with both names and the part."""
    submissions = tmp_path / "submissions"
    stub = (TEMPLATE / "simple_tokenizers.py").read_text(encoding="utf-8")
    for student, name in (("e1", "text"), ("e2", "words"), ("e3", "s")):
        (submissions / student).mkdir(parents=True)
        (submissions / student / "simple_tokenizers.py").write_text(
            f"{stub}\n\ndef char_tokenize({name}):\n    return list({name})\n\n\n"
            f"def word_tokenize({name}):\n    return {name}.split()\n",
            encoding="utf-8",
        )
    (submissions / "ada").mkdir()
    (submissions / "ada" / "simple_tokenizers.py").write_bytes((SOLUTIONS / "simple_tokenizers.py").read_bytes())
    renamed_copy(SOLUTIONS, tmp_path / "copy")
    (submissions / "ren").mkdir()
    (submissions / "ren" / "simple_tokenizers.py").write_bytes(
        (tmp_path / "copy" / "simple_tokenizers.py").read_bytes()
    )
    roster = tmp_path / "roster.csv"
    roster.write_text(
        "id,name\nada,Ada Lovelace\nren,Ren Amamiya\ne1,Eve One\ne2,Eve Two\ne3,Eve Three\n", encoding="utf-8"
    )
    out = tmp_path / "out"
    process = run_batch(submissions, out, "--part", "simple_tokenizers", "--roster", str(roster))
    assert process.returncode == 0, process.stderr[-2000:]
    summary = (out / "summary.md").read_text(encoding="utf-8")
    section = _section(summary, "Similar code")
    rows = [line for line in section.splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert len(rows) == 1, section
    assert rows[0].startswith("| ada (Ada Lovelace), ren (Ren Amamiya) | Part 1 (") and "%" in rows[0], rows[0]
    assert f"fewer than {similarity.SMALLEST} fingerprints" in section, section
    assert "e1" not in _section(summary, "Identical code"), "nor listed as identical"
    page = (out / "summary.html").read_text(encoding="utf-8")
    assert "ada (Ada Lovelace), ren (Ren Amamiya)" in page


def _section(summary: str, title: str) -> str:
    """A section of a Markdown class summary, without its title; "" where the summary has none."""
    return summary.split(f"\n## {title}\n", 1)[1].split("\n## ")[0] if f"\n## {title}\n" in summary else ""


def test_graded_code_that_imports_a_library_is_listed_for_a_look(tmp_path):
    """A library may do the exercise (subword-nmt learns word-level BPE as the contract does): the summary
    lists graded code that imports beyond the standard library, regex and the hand-in's own modules."""
    submissions = tmp_path / "submissions"
    reference = (SOLUTIONS / "word_bpe.py").read_text(encoding="utf-8").replace("def train_bpe(", "def _trained(", 1)
    wrapped = reference + (
        "\n\ndef train_bpe(text, num_merges):\n"
        "    from subword_nmt import learn_bpe  # noqa: F401  (a library at work, as far as a reader can tell)\n"
        "    return _trained(text, num_merges)\n"
    )
    hands = {
        "ada": {"word_bpe.py": wrapped},
        "bea": {"word_bpe.py": (SOLUTIONS / "word_bpe.py").read_text(encoding="utf-8"), "helper.py": "import json\n"},
    }
    for student, files in hands.items():
        (submissions / student).mkdir(parents=True)
        for name, text in files.items():
            (submissions / student / name).write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    process = run_batch(submissions, out, "--part", "word_bpe")
    assert process.returncode == 0, process.stderr[-3000:]
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "Imports to look at" in summary, summary[-3000:]
    rows = [line for line in summary.split("Imports to look at", 1)[1].split("\n## ", 1)[0].splitlines() if "|" in line]
    assert any(row.startswith("| ada |") and "subword_nmt" in row for row in rows), rows
    assert not any(row.startswith("| bea |") or "regex" in row or "json" in row for row in rows), rows


@pytest.fixture(scope="module")
def one_bug(tmp_path_factory: pytest.TempPathFactory) -> Path:
    submissions = tmp_path_factory.mktemp("feedback") / "submissions"
    write_submission(submissions, Student("bug", "buggy", BUGS["merge_pair forgets to skip past a merged pair"]))
    return submissions


@pytest.mark.parametrize(
    ("mode", "shown", "hidden"),
    [
        ("full", ["What passed", "call: get_pair_counts(", "expected:", "got:", "hint:"], []),
        ("failures", ["call:     merge_pair(", "expected:", "got:", "hint:"], ["What passed", "get_pair_counts("]),
        (
            "scores",
            ["merge_pair", "this check failed", "3 / 14"],
            ["call:", "expected:", "got:", "hint:", "['lo', 'w', ' ', 'lo']"],
        ),
    ],
)
def test_the_feedback_shows_what_the_instructor_chose(one_bug, tmp_path, mode, shown, hidden):
    out = tmp_path / "out"
    process = run_batch(one_bug, out, "--part", "bpe", "--feedback", mode)
    assert process.returncode == 0, process.stderr
    for name in ("feedback.md", "feedback.html"):
        text = (out / "bug" / name).read_text(encoding="utf-8")
        for piece in shown:
            assert piece in text, (mode, name, piece)
        for piece in hidden:
            assert piece not in text, (mode, name, piece)
    kept = json.loads((out / "bug" / "results.json").read_text(encoding="utf-8"))
    assert any(test["extra_data"]["expected"] for test in kept["tests"]), "the instructor's record keeps it all"


def test_a_changed_feedback_choice_rewrites_the_feedback_without_grading_again(one_bug, tmp_path):
    out = tmp_path / "out"
    assert run_batch(one_bug, out, "--part", "bpe", "--feedback", "full").returncode == 0
    again = run_batch(one_bug, out, "--part", "bpe", "--feedback", "scores")
    assert "(0 graded now, 1 up to date)" in again.stderr
    assert "expected:" not in (out / "bug" / "feedback.md").read_text(encoding="utf-8")


def test_the_feedback_page_shows_the_students_own_failing_function(one_bug, tmp_path):
    out = tmp_path / "out"
    assert run_batch(one_bug, out, "--part", "bpe").returncode == 0
    page = (out / "bug" / "feedback.html").read_text(encoding="utf-8")
    assert '<div class="beside">' in page and 'class="highlight"' in page
    # the function the tests ran is the student's last def of it (the buggy one), highlighted by Pygments
    mine = page.split("Your <code>merge_pair</code>")[1].split("</pre>")[0]
    assert 'class="nf">merge_pair</span>' in mine, "highlighted"
    code = html.unescape(re.sub(r"<[^>]+>", "", mine))
    assert code.strip().startswith("def merge_pair(tokens, pair):") and "i += 1" in code
    assert "Your <code>get_pair_counts</code>" not in page, "only the functions that lost points"


@pytest.mark.unit
def test_the_page_shows_a_functions_code_not_a_stub_left_beside_it():
    """A release's folder handed in whole holds each function twice, once done and once the untouched stub:
    the stub (a docstring and ``raise NotImplementedError``, what every stub is) is no code to show."""
    done = "def merge_pair(tokens, pair):\n    return list(tokens)\n"
    stub = 'def merge_pair(tokens, pair):\n    """Merge."""\n    # TODO\n    raise NotImplementedError\n'
    for order in ([("bpe", done), ("bpe", stub)], [("bpe", stub), ("bpe", done)]):
        assert code_view.functions(order)[("bpe", "merge_pair")] == done.rstrip("\n"), order
    assert ("bpe", "merge_pair") not in code_view.functions([("bpe", stub)])
    # a stub's own template, as the release ships it, is a stub too
    template = (TEMPLATE / "bpe.py").read_text(encoding="utf-8")
    assert not code_view.functions([("bpe", template)])


def syntax_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of each source read as syntax from now on (student_syntax.parse, which every reader calls)."""
    read: list[int] = []
    parse = student_syntax.parse

    def counted(source: str) -> ast.Module | None:
        read.append(len(source))
        return parse(source)

    monkeypatch.setattr(student_syntax, "parse", counted)
    return read


@pytest.mark.unit
def test_a_long_source_is_read_as_syntax_once_for_all_its_measures(tmp_path, monkeypatch):
    """Past similarity.KEPT_CHARACTERS no tree is kept between readings: the code hash, the fingerprints and
    the imports come from one."""
    folder = tmp_path / "long"
    folder.mkdir()
    padding = "# " + "x" * similarity.KEPT_CHARACTERS + "\nimport numpy\n"
    (folder / "bpe.py").write_text((SOLUTIONS / "bpe.py").read_text(encoding="utf-8") + padding, encoding="utf-8")
    loaded = loading.load(folder)
    code = similarity.sources(loaded)
    read = syntax_reads(monkeypatch)
    measured = similarity.measures(loaded, code)
    assert measured.imports == ["numpy"] and measured.prints
    assert read == [len(code[0][1])]


def test_the_feedback_page_reads_each_source_once_however_many_of_its_functions_fail(tmp_path, monkeypatch):
    """A long source is a second or more to read as syntax: once for the page, not once per failing function."""
    folder = tmp_path / "three-bugs"
    folder.mkdir()
    broken = "\n\ndef get_pair_counts(tokens):\n    return {}\n\n\ndef merge_pair(tokens, pair):\n    return []\n"
    broken += "\n\ndef decode(ids, vocab):\n    return ''\n"
    (folder / "bpe.py").write_text((SOLUTIONS / "bpe.py").read_text(encoding="utf-8") + broken, encoding="utf-8")
    loaded = loading.load(folder)
    suite = suites.resolve("hidden")
    with Grader() as grader:
        document = hand_in.grade_loaded(loaded, suite, limits=CageLimits(), grader=grader, only=(suite / "bpe",))
    code = similarity.sources(loaded)
    read = syntax_reads(monkeypatch)
    page = html_report.render(document, code)
    assert page.count('<div class="beside">') >= 3, "each failing function beside its code"
    shown = page.split("Your <code>get_pair_counts</code>")[1].split("</pre>")[0]
    assert "return {}" in html.unescape(re.sub(r"<[^>]+>", "", shown)), "its last definition, the one run"
    assert read == [len(code[0][1])], "one read of bpe.py's syntax"


@pytest.mark.parametrize(
    ("line", "told"),
    [
        ("ghost,,1,typo", "line 2: no student 'ghost' in this batch; fix the id or delete the line"),
        ("bug,Part 9,1,x", "line 2: 'Part 9' is not a part or test here"),
        ("bug,bpe.merge_pair,two,x", "line 2: points 'two' is not a number"),
        ("bug,bpe,1,a,b", "line 2: has 5 cells, not 4; quote a comment with commas"),
    ],
)
def test_a_bad_adjustment_is_one_line_naming_the_file_line_and_fix(one_bug, tmp_path, line, told):
    out = tmp_path / "out"
    out.mkdir()
    (out / "adjustments.csv").write_text(f"student,part_or_test,points,comment\n{line}\n", encoding="utf-8")
    process = run_batch(one_bug, out, "--part", "bpe")
    assert process.returncode == 2
    assert process.stderr.strip() == f"grade batch: {out / 'adjustments.csv'}: {told}" or (
        told in process.stderr and process.stderr.count("\n") == 1
    ), process.stderr
    assert not (out / "bug").exists(), "refused before grading anything"
