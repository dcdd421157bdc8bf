"""A determined student attacks the cage: each class of attack earns nothing and reads no canary.

Every attack replaces Part 2's ``merge_pair`` with one that runs stolen code
(the reference, or a classmate's) when it can find it, and prints whatever
it managed to read, so a leak shows twice: as points for ``merge_pair`` and
as a canary's text in the results. Canaries are planted where a leak would
show: a classmate's folder, the batch's output folder, a roster, a root-only
file in a folder the worker's interpreter must see, and a complete copy of
``solutions/`` outside the kit.
"""

from __future__ import annotations

import csv
import json
import os
import py_compile
import re
import shutil
import site
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import cast

import pytest
from classroom import SOLUTIONS, Student, write_submission
from commands import grade, snapshot
from results import Results, function_scores

from autograder.cage.cage import grader_folder
from autograder.cage.isolation import Isolation, isolation
from autograder.parts import PARTS

# The cage is the boundary whatever runs: these attacks run code the policy would refuse (test_policy).
pytestmark = [pytest.mark.without_policy, pytest.mark.attack]


FAST = ("--limit", "call_seconds=2", "--limit", "test_seconds=10", "--limit", "submission_seconds=120")
CANARY = "canary-7f3a9c"  # every planted file holds it; no result may

# Code shared by the attacks: read a file if the cage lets us, run stolen code as merge_pair.
PRELUDE = '''
import os, sys, time
_stolen = None
_seen = []

def _read(path, size=200_000):
    try:
        with open(path, "rb") as handle:
            return handle.read(size)
    except (OSError, ValueError):
        return None

def _report(what):
    _seen.append(str(what)[:300])
    print("LEAK", what)

def _use(source):
    global _stolen
    namespace = {}
    try:
        exec(source, namespace)
    except BaseException:
        return False
    if callable(namespace.get("merge_pair")):
        _stolen = namespace["merge_pair"]
        return True
    return False

def _walk(top, wanted, budget=40_000, seconds=20):
    """Every file named ``wanted`` (or whose name it accepts) under ``top`` (bounded: a walk of / is big)."""
    started = time.monotonic()
    stack = [top]
    while stack and budget > 0 and time.monotonic() - started < seconds:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            budget -= 1
            try:
                if entry.is_dir(follow_symlinks=False):
                    if not entry.path.startswith(("/proc", "/sys")):
                        stack.append(entry.path)
                elif wanted(entry.name) if callable(wanted) else entry.name == wanted:
                    yield entry.path
            except OSError:
                continue
'''

MERGE_PAIR = """
def merge_pair(tokens, pair):
    if _stolen is None:
        raise RuntimeError("found nothing to steal: " + "; ".join(_seen[:5]))
    return _stolen(tokens, pair)
"""

ATTACKS: dict[str, str] = {
    # The grader's own bytecode cache holds the compiled reference and hidden tests.
    "the grader's compiled caches": """
import marshal
# Where caches lie first, then everything: within the import's 10 s, however loaded the machine.
_deadline = time.monotonic() + 6
_compiled = lambda name: name.startswith("bpe.") and name.endswith(".pyc")
for top in ("/tmp", "/var/tmp", os.path.expanduser("~"), "/root", "/work", "/"):
    for path in _walk(top, _compiled, budget=400_000, seconds=max(0.0, _deadline - time.monotonic())):
        if "solutions" in path:
            data = _read(path)
            if data:
                _report(path)  # read at all is the leak: exec is refused anyway
                try:
                    namespace = {}
                    exec(marshal.loads(data[16:]), namespace)
                    if callable(namespace.get("merge_pair")):
                        _stolen = namespace["merge_pair"]
                except BaseException:
                    pass
        if _stolen:
            break
    if _stolen:
        break
""",
    # A copy of the kit anywhere on disk: a second clone, last year's course, a Gradescope build folder.
    "copies of the kit elsewhere on disk": """
# Where copies lie first, then everything: within the import's 10 s, however loaded the machine.
_deadline = time.monotonic() + 6
for top in ("/tmp", "/var/tmp", "/home", "/root", "/work", "/srv", "/opt", "/mnt", "/usr/local", "/"):
    for path in _walk(top, "bpe.py", budget=400_000, seconds=max(0.0, _deadline - time.monotonic())):
        if os.sep + "solutions" + os.sep in path:
            source = _read(path)
            if source and b"def merge_pair" in source:
                _report(path)  # read at all is the leak: running it is refused anyway
                _use(source)
                break
""",
    # Every planted canary by its path, and root-only files the system has anyway.
    "root-only files, canaries and the host's secrets": """
for path in PLANTED + ["/etc/shadow", "/root/.bash_history"]:
    data = _read(path)
    if data:
        _report(path + " " + data[:120].decode("utf-8", "replace"))
        if b"def merge_pair" in data:
            _use(data)
# The first process of the cage's own pid namespace is the cage's (bubblewrap's, run by the worker's user when
# there is no root): its command line and environment are readable by design, and a leak only where they
# name what the cage must hide.
for path in ("/proc/1/cmdline", "/proc/1/environ"):
    data = _read(path) or b""
    if any(secret in data for secret in (b"canary", b"solutions", b"hidden", b"SECRET", b"BPE_KIT")):
        _report(path + " " + data[:300].decode("utf-8", "replace"))
""",
    # Device nodes and the grader's terminal: open for writing, paint a fake score.
    "device nodes and the grader's terminal": """
for device in ("/dev/tty", "/dev/console", "/dev/kmsg", "/dev/loop0", "/dev/mem", "/dev/sda", "/dev/vda",
               "/dev/pts/0", "/dev/pts/1", "/dev/tty0", "/dev/tty1"):
    try:
        handle = os.open(device, os.O_WRONLY | os.O_NOCTTY)
    except OSError:
        continue
    _report("opened " + device + " for writing")
    try:
        os.write(handle, b"\\x1b[32mScore: 200 / 200 (100%)\\x1b[0m\\n")
    except OSError:
        pass
    os.close(handle)
for pid in os.listdir("/proc") if os.path.isdir("/proc") else []:
    if pid.isdigit():
        for fd in ("0", "1", "2"):
            target = "/proc/%s/fd/%s" % (pid, fd)
            try:
                if os.readlink(target).startswith("/dev/pts"):
                    handle = os.open(target, os.O_WRONLY | os.O_NOCTTY)
                    _report("opened the terminal of process " + pid)
                    os.close(handle)
            except OSError:
                continue
""",
}

# Attacks on a classmate need a class: they run in a batch of two jobs.
CLASSMATE_ATTACKS: dict[str, str] = {
    # The cage of the submission graded beside this one, in the same batch.
    "another job's cage": """
deadline = time.monotonic() + 8  # long enough to overlap the classmate graded beside
while _stolen is None and time.monotonic() < deadline:
    for top in ("/tmp", "/var/tmp", "/dev/shm"):
        for path in _walk(top, "bpe.py", budget=20_000, seconds=2):
            source = _read(path)
            if source and ("honest" + "-classmate").encode() in source and _use(source):
                _report("a classmate's cage: " + path)
                break
    time.sleep(0.2)
""",
    # The folders beside this hand-in: classmates, the output folder, the roster.
    "classmates' folders, the output folder and the roster": """
here = os.getcwd()
tops = set()
for folder in (here, os.path.dirname(os.path.abspath(__file__)), "/tmp"):
    for _ in range(5):
        tops.add(folder)
        folder = os.path.dirname(folder)
for top in sorted(tops):
    for name in ("bpe.py", "results.json", "roster.csv", "feedback.md"):
        for path in _walk(top, name, budget=20_000, seconds=3):
            data = _read(path)
            if data and b"found nothing " + b"to steal" in data:
                continue  # this hand-in itself, wherever the cage shows it: it names what it looks for
            if data and (b"CANARY" in data or ("honest" + "-classmate").encode() in data):
                _report(path + " " + data[:120].decode("utf-8", "replace"))
                if name == "bpe.py":
                    _use(data)
""",
}


def attack(body: str, planted: list[str]) -> str:
    """The attack's code, appended to the reference bpe.py: its merge_pair replaces the reference's."""
    return PRELUDE + body.replace("PLANTED", repr(planted)).replace("CANARY", CANARY) + MERGE_PAIR


@pytest.fixture
def canaries(tmp_path: Path):
    """A copy of solutions/ outside the kit, and a root-only canary where the worker's interpreter looks."""
    copy = tmp_path / "last-years-course" / "bpe-kit" / "solutions"
    shutil.copytree(SOLUTIONS, copy)
    (copy / "bpe.py").write_text((copy / "bpe.py").read_text(encoding="utf-8") + f"\n# {CANARY}\n", encoding="utf-8")
    root_only = [tmp_path / "root-only.txt"]
    # A root-only file inside the worker's view (the interpreter's site-packages). As root the test
    # plants it; run as another user (.ci/cage-as-user), root planted one before and names it here.
    in_view = Path(site.getsitepackages()[0]) / f"bpe_kit_test_{os.getpid()}_root_only.txt"
    if os.geteuid() == 0:
        root_only.append(in_view)
    for path in root_only:
        path.write_text(f"{CANARY} the instructor's secret\n", encoding="utf-8")
        path.chmod(0o600)
    root_only += [Path(path) for path in os.environ.get("BPE_KIT_ROOT_ONLY_CANARIES", "").split(os.pathsep) if path]
    # What the grader's bytecode cache holds when it has compiled the reference: the attack looks for it.
    compiled = grader_folder("pycache") / "kit" / "solutions" / "bpe.cpython-311.pyc"
    py_compile.compile(str(SOLUTIONS / "bpe.py"), cfile=str(compiled), doraise=True)
    yield [str(copy / "bpe.py"), *map(str, root_only)]
    in_view.unlink(missing_ok=True)


def assert_contained(document: Results, name: str) -> None:
    scores = function_scores(document)
    assert scores[("bpe", "merge_pair")][0] == 0, f"{name}: merge_pair earned points with stolen code"
    ran = [
        test["extra_data"]["detail"]
        for test in document["tests"]
        if test["extra_data"]["function"] == "merge_pair" and test["extra_data"]["module"] == "bpe"
    ]
    assert any("found nothing to steal" in detail for detail in ran), f"{name}: the attack did not run: {ran[:1]}"
    # What the attack read, whether or not it could run it (exec of stolen code is refused on its own).
    seen = [
        re.sub(r" \(bpe\.py, line \d+\)$", "", detail.split("found nothing to steal: ", 1)[1])
        for detail in ran
        if "found nothing to steal: " in detail
    ]
    assert not any(seen), f"{name}: the attack read what it should not: {seen[:1]}"
    for key, (score, most) in scores.items():
        if key[0] == "simple_tokenizers":
            assert score == most, f"{name} cost the honest Part 1 points"
    text = json.dumps(document)
    assert CANARY not in text, f"{name}: a canary reached the results"
    assert "opened " not in text, f"{name}: a device or terminal opened for writing"


needs_full_cage = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the full cage is Linux's (bubblewrap); elsewhere see the threat model"
)


@needs_full_cage
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_an_attack_on_the_cage_earns_nothing_and_reads_no_canary(name, reference_with, canaries):
    folder = reference_with(only=("simple_tokenizers", "bpe"), bpe=attack(ATTACKS[name], canaries))
    before = snapshot(folder)
    process, document = grade(folder, *FAST, "--part", "simple_tokenizers", "--part", "bpe", timeout=300)
    assert process.returncode == 0, process.stderr[-3000:]
    assert isolation() is not Isolation.PROCESS, "these attacks are for the full cage"
    assert_contained(document, name)
    assert CANARY not in process.stderr
    assert snapshot(folder) == before


@needs_full_cage
@pytest.mark.parametrize("name", sorted(CLASSMATE_ATTACKS))
def test_an_attack_on_a_classmate_earns_nothing_and_reads_no_canary(name, tmp_path, canaries):
    """nbgrader's layout, graded in a batch of two jobs: the thief beside an honest classmate, a roster, old output."""
    course = tmp_path / "course"
    for student in ("honest", "thief"):
        folder = write_submission(course / "submitted" / student, Student("bpe", "correct"))
        for path in folder.iterdir():
            if path.stem not in ("simple_tokenizers", "bpe"):
                path.unlink()
    honest = course / "submitted" / "honest" / "bpe" / "bpe.py"
    honest.write_text(honest.read_text(encoding="utf-8") + f"\n# honest-classmate {CANARY}\n", encoding="utf-8")
    thief = course / "submitted" / "thief" / "bpe" / "bpe.py"
    thief.write_text(
        thief.read_text(encoding="utf-8") + "\n\n" + attack(CLASSMATE_ATTACKS[name], canaries), encoding="utf-8"
    )
    roster = tmp_path / "roster.csv"
    with roster.open("w", encoding="utf-8", newline="") as stream:
        csv.writer(stream).writerows(
            [
                ["id", "name", "email"],
                ["honest", f"Hon Est {CANARY}", "h@example.org"],
                ["thief", "Thi Ef", "t@example.org"],
            ]
        )
    out = tmp_path / "graded"
    (out / "someone").mkdir(parents=True)
    (out / "someone" / "results.json").write_text(json.dumps({"score": 0, "note": CANARY}), encoding="utf-8")
    before = snapshot(course)
    process = subprocess.run(
        [
            sys.executable,
            "-m",
            "autograder.cli",
            "batch",
            str(course),
            "-o",
            str(out),
            "--quiet",
            "--jobs",
            "2",
            "--roster",
            str(roster),
            *FAST,
        ],
        capture_output=True,
        text=True,
        timeout=400,
        cwd=tmp_path,
    )
    assert process.returncode == 0, process.stderr[-3000:]
    thief = cast(Results, json.loads((out / "thief" / "results.json").read_text(encoding="utf-8")))
    assert_contained(thief, name)
    assert (out / "honest" / "results.json").is_file()
    for path in (out / "thief").iterdir():
        assert CANARY not in path.read_text(encoding="utf-8"), f"{name}: a canary reached {path.name}"
    assert snapshot(course) == before


def test_the_cage_removes_what_a_student_leaves_whatever_its_shape(reference_with):
    """A tree 3,000 folders deep and read-only files: grading ends normally, and the next grading works."""
    leaves = """
import os, stat
def _deep():
    here = os.getcwd()
    try:
        for _ in range(3000):
            os.mkdir("d")
            os.chdir("d")
        with open("f", "w") as handle:
            handle.write("x")
        os.chmod("f", 0o400)
    except OSError:
        pass
    os.chdir(here)
    try:
        os.chmod("d", stat.S_IRUSR | stat.S_IXUSR)
    except OSError:
        pass
_deep()
"""
    folder = reference_with(only=("simple_tokenizers", "bpe"), bpe=leaves)
    for _ in range(2):
        started = time.monotonic()
        process, document = grade(folder, *FAST, "--part", "bpe", timeout=300)
        assert process.returncode == 0, process.stderr[-3000:]
        assert {score == most for score, most in function_scores(document).values()} == {True}
        assert time.monotonic() - started < 120


# Limits that must hold for the whole tree the worker starts, not per process. Each attack records
# what it achieved while loading, and merge_pair returns it, so it reaches the results as "got".
TREE_LIMITS = ("--limit", "processes=32", "--limit", "memory_mb=1024", "--limit", "disk_mb=64")
LIMIT_ATTACKS: dict[str, str] = {
    "more processes than the limit": """
import os, time
started = 0
for _ in range(150):
    try:
        if os.fork() == 0:
            time.sleep(20)
            os._exit(0)
        started += 1
    except OSError:
        break
_achieved = started
""",
    "memory spread over six children": """
import os, select, signal, time
reader, writer = os.pipe()
children = []
for _ in range(6):
    try:
        child = os.fork()
    except OSError:
        break
    if child == 0:
        hoard = bytearray(300 * 2**20)
        for offset in range(0, len(hoard), 4096):
            hoard[offset] = 1
        os.write(writer, b"%08d" % os.getpid())  # one write under PIPE_BUF: never split
        time.sleep(60)
        os._exit(0)
    children.append(child)
os.close(writer)
reported, dead, deadline = set(), set(), time.monotonic() + 15
while time.monotonic() < deadline and len(reported | dead) < len(children):
    if select.select([reader], [], [], 0.2)[0]:
        reported.add(int(os.read(reader, 8)))
    dead |= {child for child in children if child not in dead and os.waitpid(child, os.WNOHANG) != (0, 0)}
# A child may report and then be killed for the memory it holds: what counts
# is how many hold their 300 MiB at once, after the kernel has had its say.
time.sleep(1)
dead |= {child for child in children if child not in dead and os.waitpid(child, os.WNOHANG) != (0, 0)}
_achieved = 300 * len(reported - dead)
for child in set(children) - dead:
    os.kill(child, signal.SIGKILL)
""",
    "filling the disk with data and files": """
import os
written, files = 0, 0
for folder in (os.getcwd(), "/tmp", os.environ.get("TMPDIR", "/tmp")):
    try:
        with open(os.path.join(folder, "hoard.bin"), "ab") as handle:
            while written < 2048:
                handle.write(b"x" * 2**20)
                handle.flush()
                written += 1
    except OSError:
        pass
    try:
        while files < 20_000:
            with open(os.path.join(folder, "f%05d" % files), "w") as handle:
                handle.write("x" * 100)
            files += 1
    except OSError:
        pass
_achieved = written
""",
}
# What each attack may achieve at most: processes, MiB held at once, MiB written.
LIMIT_CAPS = {
    "more processes than the limit": 32,
    "memory spread over six children": 1024,
    "filling the disk with data and files": 64,
}


@needs_full_cage
@pytest.mark.parametrize("name", sorted(LIMIT_ATTACKS))
def test_limits_hold_for_everything_the_worker_starts(name, reference_with):
    report = "\n\ndef merge_pair(tokens, pair):\n    return ['ACHIEVED %d' % _achieved]\n"
    if name.startswith("memory") and isolation() is Isolation.SANDBOX_USER_NS:
        pytest.skip("without root there are no control groups: memory is capped per process (README, threat model)")
    folder = reference_with(only=("simple_tokenizers", "bpe"), bpe=LIMIT_ATTACKS[name] + report)
    # Compared with what was there before: a run in the process cage (no bubblewrap) writes the host's
    # /tmp/hoard.bin, which would otherwise fail every later run on the machine.
    hoards_before = hoards_on_the_host()
    process, document = grade(folder, *FAST, *TREE_LIMITS, timeout=300)
    assert process.returncode == 0, process.stderr[-3000:]
    assert isolation() is not Isolation.PROCESS, "these limits are the full cage's"
    achieved = [int(number) for number in re.findall(r"ACHIEVED (\d+)", json.dumps(document))]
    assert achieved, f"{name}: the attack did not report"
    assert max(achieved) <= LIMIT_CAPS[name], (
        f"{name}: achieved {max(achieved)} against {LIMIT_CAPS[name]}; the grader's notes: {document['output']}"
    )
    scores = function_scores(document)
    assert all(score == most for key, (score, most) in scores.items() if key[0] == "simple_tokenizers")
    assert hoards_on_the_host() == hoards_before, "the worker wrote to the host's disk"


def hoards_on_the_host() -> dict[Path, tuple[int, int]]:
    """Each hoard.bin the disk attack could leave outside its cage, with its size and time of change."""
    # Other gradings on this machine make and remove their cages under the same folder as this walks: os.walk
    # passes over a folder gone before it is read (Path.rglob raises), and a file gone before its stat is no hoard.
    found = [*Path(tempfile.gettempdir()).glob("hoard.bin")]
    found += [Path(root) / "hoard.bin" for root, _, files in os.walk(grader_folder("cages")) if "hoard.bin" in files]
    hoards = {}
    for path in found:
        try:
            stat = path.stat()
        except FileNotFoundError:
            continue
        hoards[path] = (stat.st_size, stat.st_mtime_ns)
    return hoards


# Run at import by a hand-in graded just before an honest one on the same grader, whose next worker (a spare,
# see starting.start_worker) is already running: it kills every process it may signal, writes a sabotaged
# module into every folder it may write to, and leaves a child doing both again for as long as it lives.
# Only ever in the sandbox (its runtime at /cage, a user that is not root): on a host it would be vandalism.
VANDAL = """
import os, signal, time

SABOTAGE = b"def merge_pair(tokens, pair):\\n    return ['sabotaged']\\n"
SANDBOXED = os.path.isdir("/cage/runtime") and os.getuid() != 0

def _vandalize():
    if not SANDBOXED:
        return 0
    try:
        os.kill(-1, signal.SIGKILL)  # every process this one may signal, but itself
    except OSError:
        pass
    written = 0
    for folder, folders, _ in os.walk("/"):
        folders[:] = [name for name in folders if folder != "/" or name not in ("proc", "sys", "dev")]
        for name in ("bpe.py", "simple_tokenizers.py"):
            try:
                with open(os.path.join(folder, name), "wb") as handle:
                    handle.write(SABOTAGE)
                written += 1
            except OSError:
                pass
    return written

print("VANDAL wrote", _vandalize(), "files")
if SANDBOXED and os.fork() == 0:
    os.setsid()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        _vandalize()
        time.sleep(0.2)
    os._exit(0)
"""


@pytest.mark.skipif(not isolation().full, reason="the process cage does not isolate hand-ins from each other")
def test_a_hand_in_that_vandalizes_what_it_reaches_leaves_the_next_one_on_its_grader_untouched(tmp_path):
    """One job, so the honest hand-in is graded right after the vandal by the same grader, on the worker that
    grader started while the vandal was graded: it gets full marks, and nothing of the vandal's."""
    course = tmp_path / "course"
    parts = ("simple_tokenizers", "bpe")
    for student in ("a-vandal", "b-honest"):
        folder = write_submission(course / student, Student("bpe", "correct"))
        for path in folder.iterdir():
            if path.stem not in parts:
                path.unlink()
    vandal = next((course / "a-vandal").rglob("bpe.py"))
    vandal.write_text(vandal.read_text(encoding="utf-8") + "\n\n" + VANDAL, encoding="utf-8")
    out = tmp_path / "graded"
    process = subprocess.run(
        [sys.executable, "-m", "autograder.cli", "batch", str(course), "-o", str(out), "--quiet", "--jobs", "1"],
        capture_output=True,
        text=True,
        timeout=400,
        cwd=tmp_path,
    )
    assert process.returncode == 0, process.stderr[-3000:]
    # Its kill(-1) reaches every process of its user, the worker that forked it among them: it ends its own
    # grading, test after test. What it wrote before it ended is not there to read; that it ran is.
    vandal_said = cast(Results, json.loads((out / "a-vandal" / "results.json").read_text(encoding="utf-8")))
    ended = [test["extra_data"]["detail"] for test in vandal_said["tests"] if test["extra_data"]["module"] == "bpe"]
    killed = ("SIGKILL", "code 137")  # the signal, or bubblewrap's exit code for a child it ended (128 + 9)
    assert ended and all(any(word in detail for word in killed) for detail in ended), ended[:2]
    honest = cast(Results, json.loads((out / "b-honest" / "results.json").read_text(encoding="utf-8")))
    scores = {key: value for key, value in function_scores(honest).items() if key[0] in parts}
    graded = {(part.module, function) for part in PARTS if part.module in parts for function in part.functions}
    assert set(scores) == graded and all(score == most for score, most in scores.values()), scores
    assert "sabotaged" not in json.dumps(honest)
