"""What a hidden test gives a student's code stays in that test: no other test's feedback can show it.

The hand-in here passes every test of ``char_tokenize`` and ``build_char_vocab`` and records each call it
is given, everywhere it can: a module-level list, files in every folder it may write, output written past
``print`` (straight to the descriptor, and by a child process that lingers). Its ``encode_words`` fails
every call on purpose and shows all it can find (printed, raised, written past ``print``); Part 2's module
shows it again as it is imported, in the part graded after. Graded by the real CLI in each mode that hides
passed tests, and by the Gradescope runner, no file the student receives holds one recorded call.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from classroom import SOLUTIONS
from conftest import grade, run_batch

RECORD = "SEEN" + "CALL"  # never whole in the hand-in's source, which a feedback page may quote

SPY = r"""
import os
import sys

TAG = "SEEN" + "CALL"
RECORDED = []
PLACES = ["/tmp/bpe-kit-spy.txt", "/dev/shm/bpe-kit-spy.txt", "spy.txt", "/var/tmp/bpe-kit-spy.txt"]
PLACES.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "spy-beside.txt"))


def keep(line):
    for place in PLACES:
        try:
            with open(place, "a") as file:
                file.write(line + "\n")
        except OSError:
            pass


def record(function, argument):
    line = f"{TAG}({function}: {argument!r})"
    RECORDED.append(line)
    keep(line)
    try:
        os.write(2, (line + "\n").encode())  # past print: the worker's own output
    except OSError:
        pass
    try:
        if os.fork() == 0:  # a child that outlives the call, and says it again later
            os.setsid()
            for _ in range(20):
                try:
                    os.write(2, (line + " (from a child)\n").encode())
                except OSError:
                    pass
                keep(line + " (kept by a child)")
                __import__("time").sleep(0.05)
            os._exit(0)
    except OSError:
        pass


def found():
    lines = list(RECORDED)
    for place in PLACES:
        try:
            with open(place) as file:
                lines += file.read().splitlines()
        except OSError:
            pass
    return "\n".join(lines)
"""

RECORDS = (
    (SOLUTIONS / "simple_tokenizers.py").read_text(encoding="utf-8")
    + SPY
    + """
_char_tokenize, _build_char_vocab = char_tokenize, build_char_vocab


def char_tokenize(text):
    record("char_tokenize", text)
    return _char_tokenize(text)


def build_char_vocab(texts):
    record("build_char_vocab", texts)
    return _build_char_vocab(texts)


def encode_words(text, vocab):
    seen = found()
    print(seen)
    os.write(2, seen.encode())
    raise ValueError(seen)
"""
)

# Part 2, graded after Part 1: it shows whatever Part 1's calls left, as it is imported.
SHOWS_AT_IMPORT = (
    SPY
    + """
seen = found()
print(seen)
os.write(2, seen.encode())
raise ImportError(seen)
"""
)


@pytest.fixture(scope="module")
def hand_in(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("apart") / "class" / "mallory"
    folder.mkdir(parents=True)
    (folder / "simple_tokenizers.py").write_text(RECORDS, encoding="utf-8")
    (folder / "bpe.py").write_text(SHOWS_AT_IMPORT, encoding="utf-8")
    return folder


def received(folder: Path) -> dict[str, str]:
    """Every file of a student's OUT folder that the student is given (all but the instructor's results)."""
    return {
        path.name: path.read_text(encoding="utf-8", errors="replace")
        for path in folder.iterdir()
        if path.is_file() and path.name != "results.json"
    }


@pytest.mark.parametrize("mode", ["failures", "scores"])
def test_no_recorded_call_reaches_a_batch_feedback(hand_in, mode):
    out = hand_in.parent.parent / f"out-{mode}"
    process = run_batch(hand_in.parent, out, "--feedback", mode, "--part", "simple_tokenizers", "--part", "bpe")
    assert process.returncode == 0, process.stderr[-2000:]
    files = received(out / "mallory")
    assert files, "the student's feedback files"
    for name, text in files.items():
        assert RECORD not in text, f"{name} shows a call of a test the student passed"
    instructor = json.loads((out / "mallory" / "results.json").read_text(encoding="utf-8"))
    by_function: dict[str, list[bool]] = {}
    for test in instructor["tests"]:
        by_function.setdefault(test["extra_data"]["function"], []).append(test["score"] == test["max_score"])
    assert all(by_function["char_tokenize"]) and all(by_function["build_char_vocab"]), "the spy's calls pass"
    assert not any(by_function["encode_words"]), "the function that shows what it found fails"


def test_no_recorded_call_reaches_gradescope_results(hand_in, tmp_path):
    tree = tmp_path / "autograder"
    (tree / "submission").mkdir(parents=True)
    for path in hand_in.iterdir():
        (tree / "submission" / path.name).write_bytes(path.read_bytes())
    environment = {**os.environ, "AUTOGRADER_ROOT": str(tree)}
    command = [sys.executable, "-c", "from autograder.course.gradescope import main; main()"]
    process = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=600)
    assert process.returncode == 0, process.stderr[-2000:]
    results = (tree / "results" / "results.json").read_text(encoding="utf-8")
    assert '"encode_words' in results or "encode_words" in results, "the failing tests are there"
    assert RECORD not in results, "results.json shows a call of a test the student passed"


PROBES_THE_WORKER = '''
import os


def char_tokenize(text):
    """Reach for the worker that forked this process: its memory, and its processes."""
    said = []
    for how in ("rb", "r+b"):
        try:
            with open(f"/proc/{os.getppid()}/mem", how):
                said.append(f"opened the worker's memory ({how})")
        except OSError as error:
            said.append(f"{how}: {type(error).__name__}")
    raise ValueError("; ".join(said))
'''


def test_a_parts_process_cannot_reach_into_the_worker_that_forked_it(tmp_path):
    """The worker holds no call, and forks every part's process: were its memory open to them (they run as its
    user), a part's code could change what it does for the next. It is not dumpable: no /proc/<pid>/mem."""
    folder = tmp_path / "prober"
    folder.mkdir()
    (folder / "simple_tokenizers.py").write_text(PROBES_THE_WORKER, encoding="utf-8")
    process, document = grade(folder, "--suite", "hidden", "--part", "simple_tokenizers")
    assert process.returncode in (0, 1), process.stderr[-2000:]
    said = [test["extra_data"]["detail"] for test in document["tests"] if test["extra_data"]["function"] == "char_tokenize"]
    assert said and all("PermissionError" in detail for detail in said), said[:1]
    assert not any("opened the worker's memory" in detail for detail in said), said[:1]
