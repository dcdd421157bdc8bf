"""The grader trusts no frame: what a worker's process writes into the protocol pipe is read within the
codec's budgets, and in step, or not at all.

Two levels. A fake worker (a script of this file's own, never student code) speaks the protocol to the
real ``client.Worker`` and forges each kind of frame; the grader's memory is watched with tracemalloc.
Then two hand-ins forge frames through the real CLI, and the grader's own peak of memory is read from
the process that grades (its ``RUSAGE_SELF``, not the worker's).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from classroom import SOLUTIONS

from autograder.cage.cage_limits import CageLimits
from autograder.cage.client import AnswerTooLarge, ChannelBroken, OutOfStep, Worker, WorkerGone, WorkerTimedOut
from autograder.cage.inside import codec, protocol
from autograder.kit_root import KIT_ROOT
from autograder.testing.proxy import _payload


def _request(module: str, function: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    """A call's request as the proxy makes it (proxy.FunctionProxy), for a worker the test drives itself."""
    return {"op": protocol.CALL, "module": module, "function": function, "payload": _payload(args, kwargs)}


MIB = 1024 * 1024

# The fake worker: it answers each call as its first argument says, forging frames by hand.
FAKE_WORKER = r"""
import json, marshal, os, struct, sys, threading, time

from autograder.cage.inside import codec

out = os.fdopen(1, "wb", buffering=0)
ITEMS = codec.BUDGETS.items


def frame(body):
    return struct.pack(">4sI", b"BPEk", len(body)) + body


def send(message):
    out.write(frame(json.dumps(message).encode()))


def honest(how, tag):
    return {"ok": True, "value": ["answer", how], "tag": tag, "output": ""}


def answer(how, tag):
    if how == "huge length":  # a header that claims 4 GiB, and no body
        out.write(struct.pack(">4sI", b"BPEk", 0xFFFFFFFF))
        time.sleep(30)
    elif how == "many values":  # within the bytes, past the values: 5.5 million empty lists
        empties = b"[]," * ((codec.BUDGETS.message_bytes - 100) // 3)
        out.write(frame(b'{"ok": true, "value": [' + empties + b'[]], "tag": "' + tag.encode() + b'"}'))
    elif how == "deep":  # nested past the parser's recursion
        out.write(frame(b'{"ok": true, "value": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"))
    elif how == "garbage":
        out.write(b"what the student wrote " * 8)
        send(honest(how, tag))
    elif how == "truncated, then gone":
        out.write(frame(json.dumps(honest(how, tag)).encode())[:12])
        os._exit(0)
    elif how == "truncated, then quiet":
        out.write(frame(json.dumps(honest(how, tag)).encode())[:12])
        time.sleep(30)
    elif how == "flood":  # the answer, then far more than a pipe holds
        send(honest(how, tag))
        def flood():
            for _ in range(100_000):
                send(honest(how, tag))
        threading.Thread(target=flood, daemon=True).start()
    elif how == "never asked":  # an answer for a call that was never asked, then its own
        send(honest("forged", os.urandom(8).hex()))
        send(honest(how, tag))
    elif how == "twice":  # its own answer, then again: stale for the next call
        send(honest(how, tag))
        send(honest(how, tag))
    elif how == "late":  # its own answer, then another one while the next call runs
        send(honest(how, tag))
        def late():
            time.sleep(0.3)
            send(honest("late", tag))
        threading.Thread(target=late, daemon=True).start()
    elif how == "slow":
        time.sleep(1)
        send(honest(how, tag))
    else:
        send(honest(how, tag))


stdin = sys.stdin.buffer
codec.read_request(stdin)  # the config
send({"ok": True, "started": True})
send({"ok": True, "ready": True, "notices": [], "output": ""})
while True:
    request = codec.read_request(stdin)
    if request is None:
        break
    if request["op"] == "fork":
        send({"ok": True, "imported": request["module"], "loaded": True, "cells": [], "output": ""})
    elif request["op"] == "end":
        send({"ok": True, "ended": "0" * 32, "stray": False, "restart": False})
    elif request["op"] == "call":
        answer(request["arguments"][0][0], request.get("tag", ""))
    elif request["op"] == "calls":
        for body, tag in zip(request["calls"], request.get("tags", [""] * len(request["calls"]))):
            answer(marshal.loads(body)["arguments"][0][0], tag)
"""


class FakeCage:
    """Just what ``Worker`` asks of a cage, to start the fake worker as a plain process."""

    level = SimpleNamespace(full=False)

    def __init__(self, script: Path) -> None:
        self.script = script
        self.working_directory = script.parent

    def command(self) -> list[str]:
        return [sys.executable, str(self.script)]

    def spawn_options(self, parent_death: object) -> dict[str, object]:
        return {}

    def environment(self) -> dict[str, str]:
        return {"PYTHONPATH": str(KIT_ROOT), "PATH": "/usr/bin:/bin"}

    def worker_config(self) -> dict[str, object]:
        return {}

    def prepare_start(self) -> None: ...
    def adopt(self, pid: int) -> None: ...
    def end_processes(self) -> None: ...
    def remove(self) -> None: ...

    def watch_disk(self) -> None: ...
    def stop_watching_disk(self) -> None: ...

    def memory_exceeded(self) -> bool:
        return False

    def disk_exceeded(self) -> bool:
        return False


@pytest.fixture
def worker(tmp_path: Path) -> Iterator[Worker]:
    script = tmp_path / "fake_worker.py"
    script.write_text(FAKE_WORKER, encoding="utf-8")
    worker = Worker(FakeCage(script), CageLimits(), {"kind": "modules"})  # type: ignore[arg-type]
    yield worker
    worker.close()


def ask(worker: Worker, how: str, timeout: float = 5.0) -> object:
    """One call through the real client; its answer's value, as the proxy would read it."""
    reply = worker.request(_request("bpe", "merge_pair", (how,), {}), timeout)
    return codec.from_plain(reply.message["value"])


@pytest.mark.attack
def test_an_honest_answer_comes_back_with_its_calls_tag(worker):
    assert ask(worker, "honest") == ["answer", "honest"]
    assert ask(worker, "honest again") == ["answer", "honest again"]
    assert worker.starts == 1


@pytest.mark.parametrize(
    ("how", "failure", "words"),
    [
        ("huge length", AnswerTooLarge, f"answer too large: a message of {0xFFFFFFFF} bytes, past the limit of"),
        ("many values", AnswerTooLarge, f"values, past the limit of {codec.BUDGETS.items}"),
        ("deep", ChannelBroken, "maximum recursion depth"),
        ("garbage", ChannelBroken, "bytes that are not a message"),
        ("truncated, then gone", WorkerGone, "exited with code 0"),
        ("never asked", OutOfStep, "an answer that was not this call's"),
    ],
)
@pytest.mark.attack
def test_a_forged_frame_fails_its_call_in_one_line_and_the_next_call_gets_a_fresh_worker(worker, how, failure, words):
    assert ask(worker, "first") == ["answer", "first"]
    tracemalloc.start()
    started = time.monotonic()
    try:
        with pytest.raises(failure) as raised:
            ask(worker, how)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert words in str(raised.value) and "\n" not in str(raised.value)
    # Within the budgets: no more than a few copies of the bytes a frame may hold (parsed unbudgeted, the
    # 5.5 million empty lists would take over 400 MiB), and a header's claim is never waited on.
    assert peak < 3 * codec.BUDGETS.message_bytes, f"{peak / MIB:.0f} MiB"
    assert time.monotonic() - started < 4
    assert ask(worker, "next") == ["answer", "next"]
    assert worker.starts == 2


@pytest.mark.attack
def test_a_length_claimed_past_the_budget_costs_the_grader_nothing_but_the_header(worker):
    ask(worker, "first")
    tracemalloc.start()
    try:
        with pytest.raises(AnswerTooLarge):
            ask(worker, "huge length")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < MIB


@pytest.mark.attack
def test_a_valid_header_with_a_body_that_never_comes_is_a_timeout_of_that_call(worker):
    with pytest.raises(WorkerTimedOut):
        ask(worker, "truncated, then quiet", timeout=1.0)
    assert ask(worker, "next") == ["answer", "next"]


@pytest.mark.attack
@pytest.mark.parametrize("how", ["flood", "twice"])
def test_answers_past_the_one_asked_are_never_read_for_a_later_call(worker, how):
    """The extra answers wait in the pipe (a flood blocks its writer there): the next request finds them and
    goes to a fresh worker instead."""
    tracemalloc.start()
    try:
        assert ask(worker, how) == ["answer", how]
        time.sleep(0.2)  # the flood fills the pipe
        assert ask(worker, "next") == ["answer", "next"]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert worker.starts == 2
    assert peak < MIB


@pytest.mark.attack
def test_an_answer_written_while_the_next_call_runs_fails_that_call_never_answers_it(worker):
    assert ask(worker, "late") == ["answer", "late"]
    with pytest.raises(OutOfStep):
        worker.request(_request("bpe", "merge_pair", ("slow",), {}), 5.0)  # the late frame comes in its second
    assert ask(worker, "next") == ["answer", "next"]


@pytest.mark.attack
def test_in_calls_sent_together_a_frame_for_a_call_never_asked_stops_the_stream(worker):
    ask(worker, "first")  # the module is imported: calls into it may be sent together
    bodies = [codec.request_body(_request("bpe", "merge_pair", (how,), {})) for how in ("a", "never asked", "c")]
    worker.send_calls("bpe", bodies)
    assert codec.from_plain(worker.next_answer(5).message["value"]) == ["answer", "a"]
    with pytest.raises(OutOfStep):
        worker.next_answer(5)
    assert ask(worker, "next") == ["answer", "next"]


@pytest.mark.slow
@pytest.mark.unit
def test_the_encoder_refuses_what_the_decoder_would_and_counts_the_same():
    """One budget both ways: a message the worker may send is one the grader reads. Empty tuples pass the
    encoder's walk (one item each) and are refused as written (a key and a list each, on the wire)."""
    values = [()] * (codec.BUDGETS.items * 6 // 10)
    body = codec.dump_body({"ok": True, "value": codec.to_plain(values)})
    with pytest.raises(codec.TooLarge, match="answer too large"):
        codec.dump_message({"ok": True, "value": codec.to_plain(values)})
    with pytest.raises(codec.TooLarge, match="answer too large"):
        codec.load_message(body)
    with pytest.raises(codec.TooLarge, match="answer too large"):
        codec.to_plain(list(range(codec.BUDGETS.items + 1)))


@pytest.mark.unit
@pytest.mark.parametrize(
    "value",
    [
        ["a,b", "[c]", "{d}: e", 'a "quoted", [escaped] \\ one', "\\", ["x", {"k": ("v", "")}], [], ()],
        {"a:b": [1, 2.5, None, True], ",": {"[": "]"}},
        "[" * 1000 + "," * 1000,
    ],
)
def test_a_bodys_values_are_counted_exactly_once_strings_are_left_out(value):
    """The second count (past the quick one) counts what json.loads makes, whatever the strings hold."""
    body = codec.dump_body({"ok": True, "value": codec.to_plain(value)})

    def made(tree: object) -> int:
        if isinstance(tree, list):
            return 1 + sum(map(made, tree))
        if isinstance(tree, dict):
            return 1 + sum(1 + made(item) for item in tree.values())
        return 1

    assert codec.exact_items(body) == made(json.loads(body))
    assert codec.wire_items(body) >= made(json.loads(body))


@pytest.mark.unit
def test_the_limits_page_lists_every_budget_with_its_value_in_order():
    page = (KIT_ROOT / "docs" / "reference" / "limits.md").read_text(encoding="utf-8")
    rows = "\n".join(f"| `{name}` | {value} |" for name, value in codec.BUDGETS.as_dict().items())
    assert "| budget | value |\n| --- | --- |\n" + rows + "\n" in page


# Hand-ins that forge frames with no name the static policy refuses: ``open`` on a descriptor number.
FORGE = """

import struct as _struct

_right_merge_pair = merge_pair
_written = []


def _forge(body):
    frame = _struct.pack(">4sI", b"BPEk", len(body)) + body
    for descriptor in range(3, 64):
        try:
            with open(descriptor, "wb", buffering=0, closefd=False) as channel:
                channel.write(frame)
        except OSError:
            pass
"""
FORGES_A_BIG_FRAME = (
    FORGE
    + '''

_BODY = b'{"ok": true, "value": [' + b"[]," * (21 * 1024 * 1024) + b'[]], "output": ""}'


def merge_pair(tokens, pair):
    """Every answer is preceded by 63 MiB of empty lists."""
    _forge(_BODY)
    return _right_merge_pair(tokens, pair)
'''
)
FORGES_AN_ANSWER_OUT_OF_STEP = (
    FORGE
    + """

def merge_pair(tokens, pair):
    \"\"\"The first call of each process forges one answer more: every later one would be a call late.\"\"\"
    if not _written:
        _written.append(1)
        _forge(b'{"ok": true, "value": [], "output": ""}')
    return _right_merge_pair(tokens, pair)
"""
)

# The CLI in this process, its own peak of memory written to stderr as it exits (the worker's is not in it).
# VmHWM, the peak of this process's own memory since its exec: getrusage's ru_maxrss keeps, across the fork
# and exec, the peak of the process that started it (pytest's, hundreds of MiB late in a run).
GRADE_AND_SAY_PEAK = """
import atexit, runpy, sys
def _peak():
    with open("/proc/self/status") as status:
        return next(line.split()[1] for line in status if line.startswith("VmHWM:"))
atexit.register(lambda: print("grader peak KiB", _peak(), file=sys.stderr))
sys.argv = ["autograder.cli", *sys.argv[1:]]
runpy.run_module("autograder.cli", run_name="__main__")
"""


def grade_watched(folder: Path) -> tuple[dict, int]:
    """Grade ``folder``'s bpe part with the real CLI: its results, and the grading process's peak in KiB."""
    process = subprocess.run(
        [sys.executable, "-c", GRADE_AND_SAY_PEAK, str(folder), "--part", "bpe", "--format", "json"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=folder.parent,
    )
    assert process.returncode in (0, 1), process.stderr[-2000:]
    peak = int(process.stderr.rsplit("grader peak KiB", 1)[1].split()[0])
    return json.loads(process.stdout), peak


def hand_in(tmp_path: Path, code: str) -> Path:
    folder = tmp_path / "student"
    folder.mkdir()
    (folder / "bpe.py").write_text((SOLUTIONS / "bpe.py").read_text(encoding="utf-8") + code, encoding="utf-8")
    return folder


def scores(document: dict, function: str) -> tuple[float, float]:
    tests = [test for test in document["tests"] if test["extra_data"]["function"] == function]
    return sum(test["score"] for test in tests), sum(test["max_score"] for test in tests)


@pytest.mark.slow
def test_a_hand_in_that_forges_a_big_frame_costs_the_grader_no_more_than_an_honest_one(tmp_path):
    """Before: 3.5 GB and 198 s for this one hand-in, the grader parsing 63 MiB of empty lists a call."""
    document, peak = grade_watched(hand_in(tmp_path, FORGES_A_BIG_FRAME))
    assert peak < 200 * 1024, f"the grader peaked at {peak // 1024} MiB"
    merge_pair = [test["extra_data"] for test in document["tests"] if test["extra_data"]["function"] == "merge_pair"]
    assert all(test["score"] == 0 for test in document["tests"] if test["extra_data"]["function"] == "merge_pair")
    assert any("answer too large" in test["detail"] for test in merge_pair), merge_pair[0]["detail"]
    earned, possible = scores(document, "get_pair_counts")  # it forges nothing: graded as honest code is
    assert earned == possible > 0


@pytest.mark.slow
def test_a_hand_in_that_forges_an_answer_gets_no_later_answer_out_of_step(tmp_path):
    """Before: the reference with one forged frame a process scored 19/71, every later answer a call late."""
    document, _ = grade_watched(hand_in(tmp_path, FORGES_AN_ANSWER_OUT_OF_STEP))
    earned, possible = scores(document, "get_pair_counts")
    assert earned == possible > 0
    details = [test["extra_data"]["detail"] for test in document["tests"] if test["score"] < test["max_score"]]
    assert details and all("not this call's" in detail for detail in details), details
