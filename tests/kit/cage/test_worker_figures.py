"""No verdict on a call is made where the student's code runs: student code that reaches the worker's own
module globals (through its frames, at import and in the call) and replaces what once judged a call changes
nothing the grader decides. The worker is driven directly here, with no policy in front of it: whatever
refuses such code before it runs, these verdicts must hold without it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from autograder.cage.cage_limits import CageLimits
from autograder.cage.starting import start_worker
from autograder.hand_in import loading
from autograder.testing.proxy import GradingSession, StudentRaised, WorkerCrashed

# Its hand-ins reach into the worker on purpose: the layer below the plain-Python policy is under test.
pytestmark = [pytest.mark.without_policy, pytest.mark.attack]

MIB = 2**20

# Replaces, in every frame's globals it can reach, what judged "unchanged" and measured a peak in the worker
# (and anything named like them), both at import and during each call; by sys._getframe and through a raised
# exception's traceback.
REACHES = """
import sys

def _reach(frame):
    while frame is not None:
        found = frame.f_globals
        for name in ("_unchanged", "_arguments_unchanged"):
            found[name] = lambda *arguments: True
        for name in ("get_traced_memory", "growth", "resident_bytes"):
            found[name] = lambda *arguments: (0, 0)
        frame = frame.f_back

def _reach_everywhere():
    _reach(sys._getframe())
    try:
        raise ValueError
    except ValueError as error:
        _reach(error.__traceback__.tb_frame)

_reach_everywhere()

def empties(table):
    _reach_everywhere()
    table.clear()
    return 0

def reads(table):
    _reach_everywhere()
    return len(table)

def holds(size):
    _reach_everywhere()
    held = bytearray(size)
    return len(held)

def grows_past_the_budgets(table):
    table.extend(["x" * 1024] * 20_000)  # 20 MiB of text, past the 16 MiB a message may hold
    return 0

def holds_its_own(table):
    table.append(len)
    return 0

def resets(size):
    held = bytearray(size)
    del held
    try:  # Linux resets a process's peak to what it holds now on "5" here: a process of its own may not
        with open("/proc/self/clear_refs", "w") as file:
            file.write("5")
    except OSError:
        pass
    return size
"""


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory):
    folder: Path = tmp_path_factory.mktemp("reaches")
    (folder / "word_bpe.py").write_text(REACHES, encoding="utf-8")
    started = start_worker(loading.load(folder), CageLimits())
    try:
        yield GradingSession(started.worker, CageLimits())
    finally:
        started.worker.stop()
        started.cage.remove()


def test_a_call_that_empties_its_argument_is_seen_changing_it_whatever_it_replaced(session):
    record = session.call("word_bpe", "empties", ({"a b": 3, "c": 1},), {})
    assert record.answered and record.mutated
    assert record.args_after == ({},)


def test_a_call_that_reads_its_argument_is_seen_leaving_it_alone(session):
    record = session.call("word_bpe", "reads", ({"a b": 3, "c": 1},), {})
    assert record.returned == 2 and not record.mutated


def test_arguments_changed_past_the_message_budgets_are_seen_changing_by_their_digest_alone(session):
    record = session.call("word_bpe", "grows_past_the_budgets", ([1, 2],), {})
    assert record.answered and record.returned == 0 and record.mutated
    assert record.args_after is None  # too big to send back: the digest said they changed


def test_arguments_that_no_longer_are_plain_data_are_seen_changing(session):
    record = session.call("word_bpe", "holds_its_own", ([1, 2],), {})
    assert record.answered and record.returned == 0 and record.mutated


def test_a_call_that_holds_memory_is_measured_by_the_kernel_whatever_it_replaced(session):
    held = session.call("word_bpe", "holds", (96 * MIB,), {}, memory_growth=True)
    idle = session.call("word_bpe", "holds", (0,), {}, memory_growth=True)
    assert held.grown_bytes is not None and idle.grown_bytes is not None
    assert held.grown_bytes >= 96 * MIB > 8 * idle.grown_bytes


def test_a_measured_call_cannot_set_its_own_peak_back(session):
    record = session.call("word_bpe", "resets", (96 * MIB,), {}, memory_growth=True)
    assert record.grown_bytes is not None and record.grown_bytes >= 96 * MIB


SPREADS = '''
import os

def spreads(size):
    """Hold ``size`` bytes in a child while this process holds none, as a call that hides its memory would."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        held = bytearray(size)
        os.write(write_end, b"x")
        os._exit(0)
    os.read(read_end, 1)
    return pid
'''


def test_a_measured_call_cannot_spread_its_memory_over_processes_of_its_own(tmp_path):
    (tmp_path / "word_bpe.py").write_text(SPREADS, encoding="utf-8")
    started = start_worker(loading.load(tmp_path), CageLimits())
    try:
        session = GradingSession(started.worker, CageLimits())
        unmeasured = session.call("word_bpe", "spreads", (MIB,), {})
        with pytest.raises(StudentRaised, match="BlockingIOError"):
            session.call("word_bpe", "spreads", (64 * MIB,), {}, memory_growth=True)
    finally:
        started.worker.stop()
        started.cage.remove()
    assert unmeasured.answered  # the same call forks where its memory is not measured


# A measured call that writes its own answer and then, in the worker's name, the end of its process with a
# figure of nothing, into the channel it finds in the worker's globals; then ends as the worker would ask.
FORGES_ITS_END = """
import sys

def _worker():
    frame = sys._getframe()
    while frame is not None and "_PROTOCOL_OUT" not in frame.f_globals:
        frame = frame.f_back
    return frame.f_globals

def holds(size):
    held = bytearray(size)
    worker = _worker()
    codec, out = worker["codec"], worker["_PROTOCOL_OUT"]
    out.write(codec.dump_message({"ok": True, "value": len(held), "output": ""}))
    out.write(codec.dump_message({"ok": True, "ended": "ab" * 16, "stray": 0, "restart": False, "grown_bytes": 0}))
    out.flush()
    worker["forks"].end_as_asked()
"""


def test_a_measured_call_cannot_write_its_own_figure_in_the_workers_name(tmp_path):
    (tmp_path / "word_bpe.py").write_text(FORGES_ITS_END, encoding="utf-8")
    started = start_worker(loading.load(tmp_path), CageLimits())
    try:
        session = GradingSession(started.worker, CageLimits())
        with pytest.raises(WorkerCrashed, match="grader's channel"):
            session.call("word_bpe", "holds", (64 * MIB,), {}, memory_growth=True)
    finally:
        started.worker.stop()
        started.cage.remove()
