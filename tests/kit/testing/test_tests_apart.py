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
from classroom import PROBES_THE_WORKER, SOLUTIONS
from commands import grade, run_batch

# Its hand-ins step outside the plain-Python policy on purpose, to test the worker and the cage.
pytestmark = [pytest.mark.without_policy, pytest.mark.attack]

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


# Part 2, graded after Part 1: it shows what it finds, as it is imported and in a wrong answer.
SHOWS_WHAT_IT_FINDS = r"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def found():
    lines = []
    try:
        lines.append(os.getxattr(HERE, "user.spy").decode("utf-8", "replace"))
    except OSError:
        pass
    stashed = b""
    for number in range(8):
        try:
            value = os.stat(os.path.join(HERE, f"pad{number}.txt")).st_atime_ns - 9 * 10**18
        except OSError:
            break
        if 0 <= value < 2**56:
            stashed += value.to_bytes(7, "big")
    lines.append(stashed.rstrip(b"\0").decode("utf-8", "replace"))
    return "\n".join(line for line in lines if line)


print(found())


def decode(ids, vocab):
    return found()
"""

# Part 1 right, but each call stashed where the worker might put back only what it knows to look at: the
# extended attributes of the hand-in's folder, and access times (set far ahead: no read moves them back).
STASHES = r"""
import os as _os

_HERE = _os.path.dirname(_os.path.abspath(__file__))
_TAG = "SEEN" + "CALL"
_char_tokenize = char_tokenize


def _stash(line):
    try:
        _os.setxattr(_HERE, "user.spy", line.encode()[:2000])
    except OSError:
        pass
    data = line.encode()[:56].ljust(56, b"\0")
    for number in range(8):
        path = _os.path.join(_HERE, f"pad{number}.txt")
        try:
            _os.utime(path, ns=(9 * 10**18 + int.from_bytes(data[7 * number : 7 * number + 7], "big"), 0))
        except OSError:
            pass


def char_tokenize(text):
    _stash(f"{_TAG}(char_tokenize: {text!r})")
    return _char_tokenize(text)
"""

# Part 1 right, but each answer forges the worker's first message of a process (what was printed while
# loading) with the calls it recorded: the bootstrap's own send, reached through __main__.
FORGES = r"""
import sys

TAG = "SEEN" + "CALL"
RECORDED = []
_worker = sys.modules.get("__main__")
if _worker is not None and hasattr(_worker, "send"):
    _send = _worker.send

    def _forged(message, _send=_send):
        if RECORDED:
            message = {**message, "imported": "simple_tokenizers", "output": "\n".join(RECORDED)}
        _send(message)

    _worker.send = _forged
_char_tokenize = char_tokenize


def char_tokenize(text):
    RECORDED.append(f"{TAG}(char_tokenize: {text!r})")
    return _char_tokenize(text)
"""

# Part 2 right, but train_bpe says "not started" once merge_pair was called in its process: which of its
# tests are lost would tell whether another test called merge_pair (and, with more care, with what).
SIGNALS = r"""
_seen = []
_training = []
_merge_pair, _train_bpe = merge_pair, train_bpe


def merge_pair(tokens, pair):
    if not _training:  # a test's call, not train_bpe's own
        _seen.append(pair)
    return _merge_pair(tokens, pair)


def train_bpe(text, num_merges=20):
    if _seen:
        raise NotImplementedError
    _training.append(True)
    try:
        return _train_bpe(text, num_merges)
    finally:
        _training.pop()
"""


# Part 1 right but encode_words, which fails showing what it finds; a passing build_char_vocab leaves the first
# character of its input in the machine's counters, as a process sees them: which of two files got a new
# inode (a mode change makes the worker put the file back), and how far the next pid has moved.
COUNTS = r"""
import os
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
MARK = 0xA5


def _inode(name):
    return os.stat(os.path.join(HERE, name)).st_ino


def _found():
    said = []
    try:
        bits = [_inode(f"a{number}") > _inode(f"b{number}") for number in range(16)]
        value = sum(bit << number for number, bit in enumerate(bits))
        if value & 0xFF == MARK:
            said.append(f"inodes: {chr(value >> 8)!r}")
    except OSError:
        pass
    if os.getpid() > 1000:
        said.append(f"pids: {os.getpid()}")
    return ("SEEN" + "CALL " + "; ".join(said)) if said else "nothing found"


FOUND = _found()
_build_char_vocab = build_char_vocab
_told = []


def build_char_vocab(texts):
    if texts and texts[0] and not _told:
        _told.append(True)
        value = MARK | (ord(texts[0][0]) & 0xFF) << 8
        for number in range(16):
            os.chmod(os.path.join(HERE, f"{'a' if value >> number & 1 else 'b'}{number}"), 0o600)
        for _ in range(1500):
            thread = threading.Thread(target=int)
            thread.start()
            thread.join()
    return _build_char_vocab(texts)


def encode_words(text, vocab):
    raise ValueError(FOUND)
"""


# Part 1 right, but char_tokenize fails showing what it recorded once build_char_vocab was called in its
# process, and word_tokenize once either was. Decided again apart, char_tokenize passes, recording its calls:
# a worker that ran it decides no other failure, or word_tokenize would show them.
LURKS = r"""
TAG = "SEEN" + "CALL"
RECORDED = []
CALLED = set()
_inside = []
_build_char_vocab, _char_tokenize, _word_tokenize = build_char_vocab, char_tokenize, word_tokenize


def _called(function, name, *arguments):
    if _inside:  # the module's own call, not a test's
        return function(*arguments)
    _inside.append(True)
    try:
        answer = function(*arguments)
    finally:
        _inside.pop()
    RECORDED.append(f"{TAG}({name}: {arguments!r})")
    CALLED.add(name)
    return answer


def _shown():
    print("\n".join(RECORDED))
    return RECORDED[-3:]


def build_char_vocab(texts):
    return _called(_build_char_vocab, "build_char_vocab", texts)


def char_tokenize(text):
    if not _inside and "build_char_vocab" in CALLED:
        return _shown()
    return _called(_char_tokenize, "char_tokenize", text)


def word_tokenize(text):
    if not _inside and CALLED:
        return _shown()
    return _word_tokenize(text)
"""


# Part 1 right, but once build_char_vocab's calls are recorded, char_tokenize answers each input wrongly the
# first time, showing them, and rightly the next: hypothesis calls the property flaky, a group of exceptions.
FLAKES = r"""
TAG = "SEEN" + "CALL"
RECORDED = []
_SEEN = set()
_build_char_vocab, _char_tokenize = build_char_vocab, char_tokenize


def build_char_vocab(texts):
    RECORDED.append(f"{TAG}({texts!r})")
    return _build_char_vocab(texts)


def char_tokenize(text):
    print(" ".join(RECORDED))
    if RECORDED and text not in _SEEN:
        _SEEN.add(text)
        return RECORDED[-12:]
    return _char_tokenize(text)
"""

# Part 1 right, but once build_char_vocab has seen a text with a newline (a hidden call it passes),
# char_tokenize fails exactly on the texts that shrink to it (hypothesis's order of characters), so the
# example its failing property shows would be that text; where nothing is recorded, it fails every call.
CHOOSES = r"""
TEXTS = []
_build_char_vocab, _char_tokenize = build_char_vocab, char_tokenize


def build_char_vocab(texts):
    TEXTS.extend(texts)
    return _build_char_vocab(texts)


def _rank(character):
    number = ord(character)
    return number - 48 if 48 <= number <= 90 else (90 - number if number < 48 else number)


def char_tokenize(text):
    chosen = [seen for seen in TEXTS if "\n" in seen]
    if not chosen:
        return ["wrong"]
    secret = chosen[0]
    if len(text) >= len(secret) and all(_rank(a) >= _rank(b) for a, b in zip(text, secret)):
        return ["wrong"]
    return _char_tokenize(text)
"""
CHOSEN = repr("a b\nc")[1:-1]  # the text with a newline of build_char_vocab's hand-written tests, as a repr shows it


# Part 1 right, but a passing build_char_vocab leaves the first character of its input in the inode numbers of
# the pad files (which of each pair the worker made anew); Part 2, graded next in the same worker, reads it as
# it is imported, and says it: printed, or as the code it ends its process with.
SENDS = r"""
import os as _os

_HERE = _os.path.dirname(_os.path.abspath(__file__))
_build_char_vocab = build_char_vocab
_told = []


def build_char_vocab(texts):
    if texts and texts[0] and not _told:
        _told.append(True)
        value = 0xA5 | (ord(texts[0][0]) & 0xFF) << 8
        for number in range(16):
            _os.chmod(_os.path.join(_HERE, f"{'a' if value >> number & 1 else 'b'}{number}"), 0o600)
    return _build_char_vocab(texts)
"""
HEARS = r"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def _heard():
    try:
        bits = [os.stat(f"{HERE}/a{n}").st_ino > os.stat(f"{HERE}/b{n}").st_ino for n in range(16)]
    except OSError:
        return None
    value = sum(bit << number for number, bit in enumerate(bits))
    return chr(value >> 8) if value & 0xFF == 0xA5 else None


HEARD = _heard()
"""
SAYS_AT_IMPORT = (
    HEARS
    + """
if HEARD is not None:
    print("SEEN" + "CALL " + repr(HEARD))
"""
)
EXITS_AT_IMPORT = (
    HEARS
    + """
if HEARD is not None:
    os._exit(77)
"""
)
PADS = {f"{side}{number}": "" for side in "ab" for number in range(16)}


@pytest.fixture(scope="module")
def hand_ins(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A class of spies: ``mallory`` records everywhere it can write; ``stasher`` where the worker might not
    look; ``forger`` forges the worker's messages; ``signaller`` tells through its outcomes alone;
    ``counter`` through the counters a sandbox keeps (inode and process numbers); ``lurker`` in the worker
    that decides failures again; ``flaker`` in a flaky failure (an exception group); ``chooser`` in the
    example its failure shows, which it picks by what it fails on; ``loud`` and ``exiter`` in the next
    part's import, which reads the counters of the worker that served the passing tests."""
    solutions = {name: (SOLUTIONS / name).read_text(encoding="utf-8") for name in ("simple_tokenizers.py", "bpe.py")}
    students: dict[str, dict[str, str]] = {
        "mallory": {"simple_tokenizers.py": RECORDS, "bpe.py": SHOWS_AT_IMPORT},
        "stasher": {
            "simple_tokenizers.py": solutions["simple_tokenizers.py"] + STASHES,
            "bpe.py": solutions["bpe.py"] + SHOWS_WHAT_IT_FINDS,
            **{f"pad{number}.txt": "pad\n" for number in range(8)},
        },
        "forger": {"simple_tokenizers.py": solutions["simple_tokenizers.py"] + FORGES, "bpe.py": solutions["bpe.py"]},
        "signaller": {
            "simple_tokenizers.py": solutions["simple_tokenizers.py"],
            "bpe.py": solutions["bpe.py"] + SIGNALS,
        },
        "counter": {
            "simple_tokenizers.py": solutions["simple_tokenizers.py"] + COUNTS,
            **{f"{side}{number}": "" for side in "ab" for number in range(16)},
        },
        "lurker": {"simple_tokenizers.py": solutions["simple_tokenizers.py"] + LURKS},
        "flaker": {"simple_tokenizers.py": solutions["simple_tokenizers.py"] + FLAKES},
        "chooser": {"simple_tokenizers.py": solutions["simple_tokenizers.py"] + CHOOSES},
        "loud": {
            "simple_tokenizers.py": solutions["simple_tokenizers.py"] + SENDS,
            "bpe.py": solutions["bpe.py"] + SAYS_AT_IMPORT,
            **PADS,
        },
        "exiter": {
            "simple_tokenizers.py": solutions["simple_tokenizers.py"] + SENDS,
            "bpe.py": solutions["bpe.py"] + EXITS_AT_IMPORT,
            **PADS,
        },
    }
    course = tmp_path_factory.mktemp("apart") / "class"
    for student, files in students.items():
        (course / student).mkdir(parents=True)
        for name, text in files.items():
            (course / student / name).write_text(text, encoding="utf-8")
    return course


def received(folder: Path) -> dict[str, str]:
    """Every file of a student's OUT folder that the student is given (all but the instructor's results)."""
    return {
        path.name: path.read_text(encoding="utf-8", errors="replace")
        for path in folder.iterdir()
        if path.is_file() and path.name != "results.json"
    }


@pytest.mark.parametrize("mode", ["failures", "scores"])
def test_no_recorded_call_reaches_a_batch_feedback(hand_ins, mode):
    out = hand_ins.parent / f"out-{mode}"
    process = run_batch(hand_ins, out, "--feedback", mode, "--part", "simple_tokenizers", "--part", "bpe")
    assert process.returncode == 0, process.stderr[-2000:]
    students = ("mallory", "stasher", "forger", "signaller", "counter", "lurker", "flaker", "chooser", "loud", "exiter")
    for student in students:
        files = received(out / student)
        assert files, f"{student}: the feedback files"
        for name, text in files.items():
            assert RECORD not in text, f"{student}'s {name} shows a call of a test the student passed"
            assert CHOSEN not in text, f"{student}'s {name} shows an input of a test the student passed"
            assert "code 77" not in text, f"{student}'s {name} shows the code an import heard"
    mallory = passed_by_function(out / "mallory")
    assert all(mallory["char_tokenize"]) and all(mallory["build_char_vocab"]), "the spy's calls pass"
    assert not any(mallory["encode_words"]), "the function that shows what it found fails"
    stasher = passed_by_function(out / "stasher")
    assert all(stasher["char_tokenize"]) and not any(stasher["decode"]), "the stash is made, and looked for"
    assert all(passed_by_function(out / "forger")["char_tokenize"]), "the forger's calls pass"
    # Each of its tests decided in a process that never saw merge_pair called: none is lost.
    assert all(passed_by_function(out / "signaller")["train_bpe"]), "a test lost to a signal"
    lurker = passed_by_function(out / "lurker")
    assert all(lurker["char_tokenize"]) and all(lurker["word_tokenize"]), "each failure decided where nothing lurks"
    assert all(passed_by_function(out / "flaker")["char_tokenize"]), "decided again where nothing is recorded"
    chooser = passed_by_function(out / "chooser")
    assert all(chooser["build_char_vocab"]) and not all(chooser["char_tokenize"]), "the choice is made, and fails"
    assert all(passed_by_function(out / "exiter")["merge_pair"]), "decided where the import hears nothing"


def passed_by_function(folder: Path) -> dict[str, list[bool]]:
    """Whether each test passed, by function, from the instructor's own results."""
    instructor = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    by_function: dict[str, list[bool]] = {}
    for test in instructor["tests"]:
        by_function.setdefault(test["extra_data"]["function"], []).append(test["score"] == test["max_score"])
    return by_function


@pytest.mark.parametrize("student", ["mallory", "stasher", "forger", "counter", "lurker", "flaker", "chooser"])
def test_no_recorded_call_reaches_gradescope_results(hand_ins, tmp_path, student):
    tree = tmp_path / "autograder"
    (tree / "submission").mkdir(parents=True)
    for path in (hand_ins / student).iterdir():
        (tree / "submission" / path.name).write_bytes(path.read_bytes())
    environment = {**os.environ, "AUTOGRADER_ROOT": str(tree)}
    command = [sys.executable, "-c", "from autograder.course.gradescope import main; main()"]
    process = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=600)
    assert process.returncode == 0, process.stderr[-2000:]
    results = (tree / "results" / "results.json").read_text(encoding="utf-8")
    assert '"tests"' in results, "the grader's results"
    assert RECORD not in results, "results.json shows a call of a test the student passed"
    assert CHOSEN not in results, "results.json shows an input of a test the student passed"


def test_a_parts_process_cannot_reach_into_the_worker_that_forked_it(tmp_path):
    """The worker holds no call, and forks every part's process: were its memory open to them (they run as its
    user), a part's code could change what it does for the next. It is not dumpable: no /proc/<pid>/mem."""
    folder = tmp_path / "prober"
    folder.mkdir()
    (folder / "simple_tokenizers.py").write_text(PROBES_THE_WORKER, encoding="utf-8")
    process, document = grade(folder, "--suite", "hidden", "--part", "simple_tokenizers")
    assert process.returncode in (0, 1), process.stderr[-2000:]
    said = [
        test["extra_data"]["detail"] for test in document["tests"] if test["extra_data"]["function"] == "char_tokenize"
    ]
    assert said and all("PermissionError" in detail for detail in said), said[:1]
    assert not any("opened the worker's memory" in detail for detail in said), said[:1]
