"""Careless or hostile hand-ins get one clear line naming the file and the fix, and break nothing."""

from __future__ import annotations

import csv
import json
import os
import re
import struct
import subprocess
import sys
import time
import zipfile
import zlib
from pathlib import Path

import nbformat
import pytest
from classroom import SOLUTIONS
from commands import batch_command, grade, run_batch
from markdown_it import MarkdownIt
from results import gradebook_rows

from autograder.cage.cage import remove_tree
from autograder.course.batch import gradebook
from autograder.hand_in import bounded, loading
from autograder.hand_in.hand_in_limits import HandInLimits

# Its hand-ins step outside the plain-Python policy on purpose, to test the worker and the cage.
pytestmark = pytest.mark.without_policy


def _zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return path


def _first_two_parts() -> dict[str, bytes]:
    return {f"{module}.py": (SOLUTIONS / f"{module}.py").read_bytes() for module in ("simple_tokenizers", "bpe")}


def _refused_in_one_line(process: subprocess.CompletedProcess[str], *words: str) -> None:
    assert process.returncode == 2, process.stderr[-2000:]
    assert process.stderr.count("\n") == 1, process.stderr
    assert "Traceback" not in process.stderr
    for word in words:
        assert word in process.stderr, process.stderr


@pytest.fixture
def cages(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The cages folder of the graders this test starts: their own temporary folder, so another test's
    cages (the suite runs in parallel) are never counted as left behind."""
    private = tmp_path / "grader-tmp"
    private.mkdir()
    monkeypatch.setenv("TMPDIR", str(private))
    return private / f"bpe-kit-{os.getuid()}" / "cages"


def _left_in(cages: Path) -> list[str]:
    return sorted(path.name for path in cages.iterdir()) if cages.exists() else []


@pytest.mark.parametrize("shape", ["a file and a folder of one name", "a name longer than the file system allows"])
def test_a_zip_the_file_system_cannot_hold_is_refused_by_name(tmp_path, shape, cages):
    code = _first_two_parts()
    words: tuple[str, ...]
    if shape.startswith("a file and a folder"):
        odd, words = {"notes": b"mine", "notes/today.txt": b"more"}, ("'notes'", "both a file and a folder")
    else:
        odd, words = {"n" * 300 + ".txt": b"long"}, ("longer than 255 bytes",)
    process, _ = grade(_zip(tmp_path / "hand-in.zip", {**code, **odd}))
    _refused_in_one_line(process, "hand-in.zip", *words)
    assert _left_in(cages) == [], "no cage left behind"


def _lying_zip(path: Path, inflated_mib: int) -> Path:
    """A member whose headers declare 1 KiB (with that kilobyte's CRC) and that inflates to ``inflated_mib``."""
    zeros = b"\0" * 2**20
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bpe.py", (SOLUTIONS / "bpe.py").read_bytes())
        with archive.open("simple_tokenizers.py", "w") as member:
            for _ in range(inflated_mib):
                member.write(zeros)
    data = bytearray(path.read_bytes())
    real = struct.pack("<I", inflated_mib * 2**20)
    claimed_crc, claimed = struct.pack("<I", zlib.crc32(b"\0" * 1024)), struct.pack("<I", 1024)
    # The local header, then the central directory's entry: where each keeps the CRC, the size and the name.
    for signature, crc_at, size_at, name_at in ((b"PK\x03\x04", 14, 22, 30), (b"PK\x01\x02", 16, 24, 46)):
        start = data.find(signature)
        while start != -1:
            name = data[start + name_at : start + name_at + 20]
            if name == b"simple_tokenizers.py" and data[start + size_at : start + size_at + 4] == real:
                data[start + crc_at : start + crc_at + 4] = claimed_crc
                data[start + size_at : start + size_at + 4] = claimed
            start = data.find(signature, start + 4)
    path.write_bytes(bytes(data))
    return path


@pytest.mark.attack
def test_a_zip_bomb_inflates_no_further_than_its_headers_declare(tmp_path):
    bomb = _lying_zip(tmp_path / "bomb.zip", inflated_mib=768)
    assert bomb.stat().st_size < 5 * 2**20
    with zipfile.ZipFile(bomb) as archive:
        assert archive.getinfo("simple_tokenizers.py").file_size == 1024, "the fixture's headers lie"
    command = [sys.executable, "-m", "autograder.cli", str(bomb), "--format", "json", "--part", "bpe"]
    with (tmp_path / "out").open("wb") as out_file, (tmp_path / "err").open("wb") as err_file:
        process = subprocess.Popen(command, stdout=out_file, stderr=err_file)
        _, status, usage = os.wait4(process.pid, 0)  # reaped here, for its own peak memory
        process.returncode = os.waitstatus_to_exitcode(status)
    out, err = (tmp_path / "out").read_text(), (tmp_path / "err").read_text()
    # The grader never holds the inflated member: its peak memory stays far below the 768 MiB.
    assert usage.ru_maxrss * 1024 < 400 * 2**20, f"the grader peaked at {usage.ru_maxrss // 1024} MiB"
    assert process.returncode == 0, err[-2000:]
    assert json.loads(out)["score"] > 0, "taken at its word (a kilobyte of zeros): Part 2 is still graded"


@pytest.mark.unit
def test_a_zip_larger_than_a_hand_in_may_hold_is_refused_before_its_members_are_listed(tmp_path, monkeypatch):
    """Opening a zip lists every member it holds: 300,000 empty ones (29 MB) took 1.2 s and 166 MB of the
    trusted process, and nothing bounded a student's zip file itself."""
    crowded = tmp_path / "crowded.zip"
    with zipfile.ZipFile(crowded, "w") as archive:
        for index in range(30_000):
            archive.writestr(f"junk/{index}", b"")
    assert crowded.stat().st_size > 2 * 2**20
    opened: list[object] = []
    monkeypatch.setattr(zipfile, "ZipFile", lambda *args, **kwargs: opened.append(args))
    with pytest.raises(bounded.HandInError) as refused:
        loading.load(crowded, HandInLimits(handin_mb=1, handin_files=100))
    assert not opened, "refused by its size alone"
    message = str(refused.value)
    assert "crowded.zip" in message and "handin_mb" in message and "\n" not in message, message
    monkeypatch.undo()
    full = tmp_path / "full.zip"  # as much as the limit lets a hand-in hold, of bytes deflate cannot shrink
    bpe = (SOLUTIONS / "bpe.py").read_bytes()
    with zipfile.ZipFile(full, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bpe.py", bpe)
        archive.writestr("data/noise.bin", os.urandom(2**20 - len(bpe)))
    assert full.stat().st_size > 0.99 * 2**20
    assert loading.load(full, HandInLimits(handin_mb=1, handin_files=100)).files["bpe.py"] == bpe


def test_a_notebook_of_too_many_cells_is_refused_before_it_is_parsed(tmp_path):
    cell: dict[str, object] = {
        "cell_type": "code",
        "metadata": {},
        "source": "x = 1",
        "outputs": [],
        "execution_count": None,
    }
    notebook = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [cell] * 100_000}
    path = tmp_path / "homework.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    process, _ = grade(path)
    _refused_in_one_line(process, "homework.ipynb", "100000 cells", "notebook_cells")


def test_in_a_batch_a_bad_zip_is_one_students_line_and_the_class_goes_on(tmp_path, cages):
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    code = _first_two_parts()
    _zip(submissions / "amy.zip", code)
    _zip(submissions / "bob.zip", {**code, "notes": b"x", "notes/a.txt": b"y"})
    out = tmp_path / "out"
    process = run_batch(submissions, out, "--part", "simple_tokenizers")
    assert process.returncode == 0, process.stderr
    rows = gradebook_rows(out)
    assert rows["amy"]["status"] == gradebook.GRADED
    assert rows["bob"]["status"] == gradebook.CANNOT_GRADE and "both a file and a folder" in rows["bob"]["reason"]
    assert _left_in(cages) == [], "no cage left behind"


@pytest.mark.attack
def test_a_folder_nested_a_thousand_deep_is_one_students_line_and_the_class_goes_on(tmp_path, cages, request):
    submissions = tmp_path / "submissions"
    for student in ("amy", "bob"):
        (submissions / student).mkdir(parents=True)
        (submissions / student / "simple_tokenizers.py").write_bytes(_first_two_parts()["simple_tokenizers.py"])
    deep = submissions / "bob"
    request.addfinalizer(lambda: remove_tree(submissions))  # pytest's own clean-up recurses per level
    for _ in range(1200):  # 2,400 bytes of path: the file system holds it; pathlib's rglob calls itself per level
        deep = deep / "a"
        deep.mkdir()  # one level at a time: mkdir(parents=True) calls itself per level too
    (deep / "notes.txt").write_text("deep down", encoding="utf-8")
    process, _ = grade(submissions / "bob", "--part", "simple_tokenizers")
    _refused_in_one_line(process, "a/a/a", "1024 bytes")
    out = tmp_path / "out"
    process = run_batch(submissions, out, "--part", "simple_tokenizers")
    assert process.returncode == 0, process.stderr[-3000:]
    rows = gradebook_rows(out)
    assert rows["amy"]["status"] == gradebook.GRADED
    assert rows["bob"]["status"] == gradebook.CANNOT_GRADE and "1024 bytes" in rows["bob"]["reason"], rows["bob"]


@pytest.mark.attack
def test_megabytes_of_code_cost_the_grader_megabytes_not_gigabytes(tmp_path, cages):
    """Python's syntax tree of dense code takes about 200 bytes a character (8 MB of one-line
    assignments: 1.5 GB), and the trusted processes read a hand-in's syntax; they hold no control group's
    cap, so a hand-in within handin_mb could take the batch's memory. The worker may spend its own."""
    code = _first_two_parts()
    dense = "".join(f"filler_{number} = [{number}, {number}]\n" for number in range(250_000)).encode()
    submissions = tmp_path / "submissions"
    (submissions / "bob").mkdir(parents=True)
    (submissions / "bob" / "simple_tokenizers.py").write_bytes(code["simple_tokenizers.py"])
    (submissions / "bob" / "bpe.py").write_bytes(code["bpe.py"].replace(b"return merged", b"return []", 1) + dense)
    out = tmp_path / "out"
    command = batch_command(
        submissions, out, "--part", "simple_tokenizers", "--part", "bpe", "--limit", "memory_mb=400"
    )
    with (tmp_path / "err").open("wb") as errors:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(process.pid, 0)  # the batch itself, reaped here for its own peak
    assert os.waitstatus_to_exitcode(status) == 0, (tmp_path / "err").read_text()[-3000:]
    assert usage.ru_maxrss * 1024 < 600 * 2**20, f"the batch peaked at {usage.ru_maxrss // 1024} MiB"
    rows = gradebook_rows(out)
    assert rows["bob"]["status"] == gradebook.GRADED and float(rows["bob"]["Part 1 (30)"]) == 30, rows["bob"]


@pytest.mark.attack
def test_megabytes_of_code_spread_over_imported_modules_cost_the_grader_megabytes(tmp_path, cages):
    """The similarity measure follows a part's imports into the hand-in's own modules: a dozen of them, each
    short enough to read, are not read past one source's worth, and their trees are not kept."""
    code = _first_two_parts()
    submissions = tmp_path / "submissions"
    (submissions / "bob").mkdir(parents=True)
    (submissions / "bob" / "simple_tokenizers.py").write_bytes(code["simple_tokenizers.py"])
    chain = "".join(f"from helper_{number} import *  # noqa: F403\n" for number in range(12))
    (submissions / "bob" / "bpe.py").write_bytes(code["bpe.py"] + chain.encode())
    for number in range(12):
        dense = "".join(f"filler_{number}_{line} = [{line}, {line}]\n" for line in range(12_000))  # 400 KB
        (submissions / "bob" / f"helper_{number}.py").write_text(dense, encoding="utf-8")
    out = tmp_path / "out"
    command = batch_command(
        submissions, out, "--part", "simple_tokenizers", "--part", "bpe", "--limit", "memory_mb=400"
    )
    with (tmp_path / "err").open("wb") as errors:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(process.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, (tmp_path / "err").read_text()[-3000:]
    assert usage.ru_maxrss * 1024 < 400 * 2**20, f"the batch peaked at {usage.ru_maxrss // 1024} MiB"
    assert gradebook_rows(out)["bob"]["status"] == gradebook.GRADED


@pytest.mark.parametrize("kind", ["notebook with its outputs", "folder with its data"])
def test_a_hand_in_file_larger_than_a_file_the_student_may_write_is_still_graded(tmp_path, kind):
    """file_size_mb caps what the student's code writes; the worker's copy of the hand-in is the grader's."""
    code = _first_two_parts()["simple_tokenizers.py"].decode()
    printed = {"output_type": "stream", "name": "stdout", "text": "x" * (2 * 2**20)}
    if kind == "notebook with its outputs":
        cells = [nbformat.v4.new_code_cell(code), nbformat.v4.new_code_cell("print(1)", outputs=[printed])]
        path = tmp_path / "homework.ipynb"
        path.write_text(json.dumps(nbformat.v4.new_notebook(cells=cells)), encoding="utf-8")
    else:
        path = tmp_path / "student"
        (path / "data").mkdir(parents=True)
        (path / "simple_tokenizers.py").write_text(code, encoding="utf-8")
        (path / "data" / "corpus.txt").write_text("x" * (2 * 2**20), encoding="utf-8")
    process, document = grade(path, "--part", "simple_tokenizers", "--limit", "file_size_mb=1")
    assert document and document["score"] == document["max_score"], process.stdout[-3000:]


def test_a_notebook_of_megabytes_of_code_is_refused_before_it_is_read_as_code(tmp_path):
    """Each of its cells may be short: what the grader reads as syntax is the notebook's whole code."""
    dense = "".join(f"filler_{number} = [{number}, {number}]\n" for number in range(800))  # 19 KB a cell
    cells = [nbformat.v4.new_code_cell(_first_two_parts()["simple_tokenizers.py"].decode())]
    cells += [nbformat.v4.new_code_cell(dense) for _ in range(60)]
    path = tmp_path / "homework.ipynb"
    path.write_text(json.dumps(nbformat.v4.new_notebook(cells=cells)), encoding="utf-8")
    process, _ = grade(path, "--part", "simple_tokenizers")
    _refused_in_one_line(process, "homework.ipynb", "characters of code", "1,000,000")


# Nesting that Python reads, but not ast.dump (a function that calls itself a level at a time); and nesting
# past what the parser itself takes (a MemoryError, not a SyntaxError).
NESTED = {
    "deeper than ast.dump goes": "\nnegated = " + "-" * 990 + "1\n",
    "deeper than the parser goes": "\nnegated = " + "-" * 50_000 + "1\n",
}


@pytest.mark.attack
@pytest.mark.parametrize("nesting", sorted(NESTED))
def test_deeply_nested_code_is_graded_and_the_class_goes_on(tmp_path, nesting, cages):
    """The trusted process reads a hand-in's syntax (similarity, the function to fix first, the code beside
    a failing test, a notebook's needed cells): nesting that breaks that reading costs at most that
    reading, never the student's grade or the class's."""
    code = _first_two_parts()
    buggy = code["bpe.py"].replace(b"return merged", b"return merged[:1]", 1)  # two failing: fix-first is read
    assert buggy != code["bpe.py"]
    nested = {**code, "bpe.py": buggy + NESTED[nesting].encode()}
    submissions = tmp_path / "submissions"
    for student, files in (("amy", code), ("bob", nested)):
        (submissions / student).mkdir(parents=True)
        for name, content in files.items():
            (submissions / student / name).write_bytes(content)
    notebook = tmp_path / "bob.ipynb"
    cells = [nbformat.v4.new_code_cell(content.decode()) for content in nested.values()]
    notebook.write_text(json.dumps(nbformat.v4.new_notebook(cells=cells)), encoding="utf-8")
    for alone in (submissions / "bob", notebook):
        process, document = grade(alone, "--part", "simple_tokenizers", "--part", "bpe")
        assert "Traceback" not in process.stderr, process.stderr[-3000:]
        assert document, process.stderr[-3000:]
        assert document["score"] >= 30, document["output"]  # Part 1 is untouched
    out = tmp_path / "out"
    process = run_batch(submissions, out, "--part", "simple_tokenizers", "--part", "bpe")
    assert process.returncode == 0, process.stderr[-3000:]
    rows = gradebook_rows(out)
    assert rows["amy"]["status"] == rows["bob"]["status"] == gradebook.GRADED, rows["bob"]["reason"]
    assert float(rows["bob"]["Part 1 (30)"]) == 30
    assert (out / "bob" / "feedback.html").exists()


MAGIC_CELLS = {
    "a %%time cell runs its body": ("%%time\n" + (SOLUTIONS / "simple_tokenizers.py").read_text(encoding="utf-8"), ""),
    "a black-style continuation line that starts with !=": ("ok = (\n    len('ab')\n    != 3\n)\n", ""),
    "line magics and shell escapes": ("%matplotlib inline\n!pip install regex\nfiles = !ls\nlen?\n", "!pip"),
    "a cell magic that is not Python": ("%%bash\necho hello\n", "%%bash"),
}


@pytest.mark.unit
@pytest.mark.parametrize("ipython", ["IPython's transformer", "the fallback"])
def test_ipython_syntax_becomes_python_as_ipython_reads_it(ipython, monkeypatch):
    from autograder.hand_in.ipython_syntax import plain_python

    if ipython == "the fallback":
        monkeypatch.setitem(sys.modules, "IPython.core.inputtransformer2", None)  # import raises ImportError
    else:
        pytest.importorskip("IPython.core.inputtransformer2")
    for name, (cell, skipped) in MAGIC_CELLS.items():
        code, notes = plain_python(cell)
        compile(code, name, "exec")
        if code != "pass":  # a cell skipped whole has no lines to keep
            assert code.count("\n") == cell.rstrip("\n").count("\n"), f"{name}: the lines keep their numbers"
        assert (skipped in notes) if skipped else notes == [], (name, notes)
    assert "def char_tokenize" in plain_python(MAGIC_CELLS["a %%time cell runs its body"][0])[0]
    assert "!= 3" in plain_python(MAGIC_CELLS["a black-style continuation line that starts with !="][0])[0]


def test_an_honest_notebook_with_magics_earns_full_marks(tmp_path):
    cells = [nbformat.v4.new_code_cell(cell) for cell, _ in MAGIC_CELLS.values()]
    cells.append(nbformat.v4.new_code_cell((SOLUTIONS / "bpe.py").read_text(encoding="utf-8")))
    path = tmp_path / "homework.ipynb"
    path.write_text(json.dumps(nbformat.v4.new_notebook(cells=cells)), encoding="utf-8")
    process, document = grade(path, "--part", "simple_tokenizers", "--part", "bpe")
    assert process.returncode == 0, process.stderr
    assert document["score"] == document["max_score"], document["output"]


WRITES_INTO_EVERY_DESCRIPTOR = """
import os as _os
for _descriptor in range(3, 256):
    try:
        _os.write(_descriptor, b"what the student wrote " * 8)
    except OSError:
        pass
"""


@pytest.mark.attack
def test_code_that_writes_into_the_graders_channel_fails_its_load_once_and_at_once(reference_with):
    folder = reference_with(only=("simple_tokenizers", "bpe"), bpe=WRITES_INTO_EVERY_DESCRIPTOR)
    started = time.monotonic()
    process, document = grade(folder, "--part", "simple_tokenizers", "--part", "bpe")
    assert process.returncode in (0, 1), process.stderr[-2000:]
    # Without the frame marker every call waited for stray bytes to make a message: minutes, all "timed out".
    assert time.monotonic() - started < 60
    bpe = [test["extra_data"] for test in document["tests"] if test["extra_data"]["module"] == "bpe"]
    assert {test["outcome"] for test in bpe} == {"error"}
    assert all("wrote into the grader's channel" in test["detail"] for test in bpe), bpe[0]["detail"]
    honest = [test for test in document["tests"] if test["extra_data"]["module"] == "simple_tokenizers"]
    assert sum(test["score"] for test in honest) == sum(test["max_score"] for test in honest)


ANSWERS_TWO_WAYS = '''
_seen = set()
_right_merge_pair = merge_pair

def merge_pair(tokens, pair):
    """Wrong the first time it meets an input of three tokens or more, right ever after."""
    result = _right_merge_pair(tokens, pair)
    key = (tuple(tokens), pair)
    if key in _seen or len(tokens) < 3:
        return result
    _seen.add(key)
    return result + ["?"]
'''


def test_two_answers_to_one_input_are_the_students_failure_not_the_graders(reference_with):
    folder = reference_with(only=("bpe",), bpe=ANSWERS_TWO_WAYS)
    process, document = grade(folder, "--part", "bpe")
    assert process.returncode in (0, 1), process.stderr[-2000:]
    merge_pair = [test["extra_data"] for test in document["tests"] if test["extra_data"]["function"] == "merge_pair"]
    assert "grader error" not in {test["outcome"] for test in merge_pair}
    flaky = [test for test in merge_pair if "two different answers to one input" in test["hint"]]
    assert flaky and {test["outcome"] for test in flaky} == {"failed"}, merge_pair
    assert "the second time, no failure" in flaky[0]["detail"]


# Text UTF-8 cannot hold: a lone surrogate, as os.fsdecode makes of a file name's stray byte.
UNENCODABLE = """
_counts = get_pair_counts


def get_pair_counts(tokens):
    print("a file name read with os.fsdecode: \\udc80")
    return _counts(tokens)


def merge_pair(tokens, pair):
    return ["\\udc80"]
"""


def test_text_that_utf8_cannot_hold_is_printed_as_escapes_and_an_answer_of_it_says_why(reference_with):
    folder = reference_with(only=("bpe",), bpe=UNENCODABLE)
    process, document = grade(folder, "--part", "bpe")
    assert document, process.stderr[-2000:]
    tests = [test["extra_data"] for test in document["tests"]]
    counts = [test for test in tests if test["function"] == "get_pair_counts"]
    assert counts and {test["outcome"] for test in counts} == {"passed"}, counts[0]
    merge_pair = [test for test in tests if test["function"] == "merge_pair" and test["outcome"] != "passed"]
    assert merge_pair and all("surrogates not allowed" in test["detail"] for test in merge_pair), merge_pair[0]
    assert not any("too large" in test["detail"] for test in merge_pair), merge_pair[0]


BROKEN_TOKENIZERS = b"def char_tokenize(text):\n    return []\n"


def test_an_upload_named_in_another_lms_shape_stays_with_its_uploader(tmp_path):
    """Canvas's download of student 1234 holds a file named the Moodle way with student 999's id."""
    download = tmp_path / "canvas"
    download.mkdir()
    honest = (SOLUTIONS / "simple_tokenizers.py").read_bytes()
    (download / "doejane_999_5001_simple_tokenizers.py").write_bytes(honest)
    (download / "smithjohn_1234_5002_simple_tokenizers.py").write_bytes(honest)
    (download / "smithjohn_1234_5003_x_999_assignsubmission_file_simple_tokenizers.py").write_bytes(BROKEN_TOKENIZERS)
    (download / "notes from the TA.txt").write_bytes(b"not a hand-in")
    out = tmp_path / "out"
    process = run_batch(download, out, "--part", "simple_tokenizers")
    assert process.returncode == 0, process.stderr
    rows = gradebook_rows(out)
    assert set(rows) == {"999", "1234"}
    assert rows["999"]["percent"] == "100.0", "student 999's work was replaced by another's upload"
    assert rows["1234"]["percent"] == "100.0"
    assert "'notes from the TA.txt' does not fit" in process.stderr


@pytest.mark.parametrize(
    "other_name",
    [
        "alice\n",
        "Alice",  # one folder on a case-insensitive disk (macOS, Windows): OUT/alice and OUT/Alice would merge
    ],
)
def test_two_names_that_clean_to_one_id_are_both_graded_and_the_collision_reported(tmp_path, other_name):
    submissions = tmp_path / "submissions"
    for name, code in (("alice", (SOLUTIONS / "simple_tokenizers.py").read_bytes()), (other_name, BROKEN_TOKENIZERS)):
        (submissions / name).mkdir(parents=True)
        (submissions / name / "simple_tokenizers.py").write_bytes(code)
    out = tmp_path / "out"
    process = run_batch(submissions, out, "--part", "simple_tokenizers")
    assert process.returncode == 0, process.stderr
    rows = gradebook_rows(out)
    assert len(rows) == 2 and {row["status"] for row in rows.values()} == {gradebook.GRADED}, rows
    other = next(student for student in rows if student != "alice")
    assert other.casefold().startswith("alice-"), "two ids one folder apart only by case"
    assert len({path.name.casefold() for path in out.iterdir() if path.is_dir()}) == len(
        [path for path in out.iterdir() if path.is_dir()]
    ), sorted(out.iterdir())
    assert rows["alice"]["percent"] == "100.0" and rows[other]["percent"] != "100.0", "each keeps its own grade"
    assert repr(other_name) in rows[other]["note"] and other in rows["alice"]["note"]
    assert f"graded as {other}" in process.stderr
    # The same ids in every run: a second run finds both results and grades nothing again.
    again = run_batch(submissions, out, "--part", "simple_tokenizers")
    assert "0 graded now" in again.stderr, again.stderr


HOSTILE_TEXT = """
import sys as _sys

def char_tokenize(text):
    # A cleared screen, a window title and a fake green score; then Markdown and HTML that try to get out.
    print("\\x1b[2J\\x1b]0;owned\\x07\\x1b[32mScore: 200 / 200 (100%)\\x1b[0m\\r\\u202e")
    raise ValueError("```\\n<img src=x onerror=alert(1)>\\n[click](http://example.invalid) `` ` ``")
"""


def test_what_a_student_controls_reads_as_text_in_every_report(tmp_path):
    """Names from an LMS, printed output and exception text: no formula, no escape sequence, no markup acts."""
    download = tmp_path / "moodle"
    download.mkdir()
    tokenizers = (SOLUTIONS / "simple_tokenizers.py").read_text(encoding="utf-8") + HOSTILE_TEXT
    byte_bpe = (SOLUTIONS / "byte_bpe.py").read_text(encoding="utf-8") + "\n\ndef decode(ids, merges):\n    return ''\n"
    for name, code in (("simple_tokenizers.py", tokenizers), ("byte_bpe.py", byte_bpe)):
        (download / f"=1+2 @SUM(A1)_301_assignsubmission_file_{name}").write_text(code, encoding="utf-8")
        (download / f"-Bea Bee_302_assignsubmission_file_{name}").write_text(code, encoding="utf-8")
    out = tmp_path / "out"
    process = run_batch(download, out, "--part", "simple_tokenizers", "--part", "byte_bpe")
    assert process.returncode == 0, process.stderr

    for sheet in ("gradebook.csv", "canvas.csv"):
        with (out / sheet).open(encoding="utf-8", newline="") as stream:
            cells = [cell for row in csv.reader(stream) for cell in row]
        formulas = [
            cell
            for cell in cells
            if cell[:1] in ("=", "+", "-", "@", "\t", "\r") and not re.fullmatch(r"[+-]?\d+(\.\d+)?", cell)
        ]
        assert formulas == [], f"{sheet} starts cells with a formula: {formulas}"
        assert "'=1+2 @SUM(A1)" in cells and "'-Bea Bee" in cells, f"{sheet}: the names still read right"

    markdown = MarkdownIt("commonmark").enable("table")
    written = sorted(path for path in out.rglob("*") if path.is_file() and path.suffix in (".md", ".html", ".csv"))
    assert {path.name for path in written} >= {"feedback.md", "feedback.html", "summary.md", "summary.html"}
    for path in written:
        text = path.read_text(encoding="utf-8")
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f\u202e]", text.replace("\r\n", "\n")), (
            f"{path}: a control character"
        )
        page = markdown.render(text) if path.suffix == ".md" else text
        assert "<img src=x" not in page and 'href="http://example.invalid"' not in page, f"{path}: markup acts"
        assert oct(path.stat().st_mode & 0o777) == oct(0o644), f"{path}: mode {oct(path.stat().st_mode)}"
    feedback = (out / "301" / "feedback.md").read_text(encoding="utf-8")
    assert "\\x1b[32mScore: 200 / 200" in feedback, "the escape sequence is shown, escaped"
    summary = markdown.render((out / "summary.md").read_text(encoding="utf-8"))
    assert "a\\x00b" in summary, "the NUL of a test's case, escaped"

    terminal = subprocess.run(
        [
            sys.executable,
            "-m",
            "autograder.cli",
            str(
                download
                / next(
                    iter(
                        sorted(
                            path.name
                            for path in download.iterdir()
                            if path.name.startswith("=") and "simple" in path.name
                        )
                    )
                )
            ),
            "--part",
            "simple_tokenizers",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert "\x1b" not in terminal.stdout and "\\x1b[2J" in terminal.stdout, terminal.stdout[-2000:]


def test_the_progress_bar_counts_what_could_not_be_read_as_the_last_line_does(tmp_path):
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    (submissions / "amy.py").write_bytes((SOLUTIONS / "simple_tokenizers.py").read_bytes())
    (submissions / "bob.zip").write_bytes(b"PK\x03\x04 not a zip")
    command = batch_command(submissions, tmp_path / "out", "--part", "simple_tokenizers", quiet=False)
    process = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert process.returncode == 0, process.stderr[-2000:]
    assert "1 could not be graded" in process.stderr and "1 could not grade" in process.stderr, process.stderr


def test_a_hand_in_that_cannot_be_read_is_named_to_its_student_from_the_class_folder(tmp_path):
    """A student's feedback names the hand-in the batch could not read from the class folder: where the
    instructor keeps a class is not the student's to see."""
    course = tmp_path / "class"
    course.mkdir()
    (course / "alice.zip").write_bytes(b"not a zip at all")
    (course / "bob").mkdir()
    (course / "bob" / "simple_tokenizers.py").write_text("", encoding="utf-8")
    out = tmp_path / "out"
    process = run_batch(course, out, "--part", "simple_tokenizers")
    assert process.returncode == 0, process.stderr
    for name in ("feedback.md", "feedback.html"):
        told = (out / "alice" / name).read_text(encoding="utf-8")
        assert "alice.zip: is not a valid .zip" in told and str(tmp_path) not in told, told
