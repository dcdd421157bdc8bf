"""Every system call an honest hand-in's part processes make over the whole hidden suite is one the seccomp
allow-list names: recorded with ``strace -f`` around the real CLI, on each Python CI has and at each cage
level this machine gives. A call the list does not name fails the test with the call and the process.

The worker's processes are told apart from the grader's by their tree: the process that execs the worker's
``bootstrap.pyc`` (its calls from that exec on, the first one filtered) and everything it starts, threads
included. strace writes a file per process (``-ff``) and says which pid a child has outside the sandbox's PID
namespace (``--decode-pids=pidns``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from classroom import SOLUTIONS
from engines import require
from pythons import interpreter, python_versions

from autograder.cage import seccomp
from autograder.cage.isolation import FORCE_PROCESS_CAGE, FORCE_VARIABLE

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

# --no-cache: a part graded before is not run again, and would trace nothing. strace slows every call; the suite's own limits would time out honest calls and end their workers early.
SLOW_LIMITS = ("--limit", "call_seconds=120", "--limit", "test_seconds=600", "--limit", "submission_seconds=3600")
CALL = re.compile(r"^([a-z_][a-z0-9_]*)\(")
# An interpreter's exec of the bootstrap: not bubblewrap's own, whose arguments name the bootstrap too (its setup
# before the exec, namespaces and mounts, is bubblewrap's, unfiltered by design: the filter starts at the exec).
BOOTSTRAP_EXEC = re.compile(r'^execve\("[^"]*/python[0-9.]*", .*bootstrap\.pyc')
CHILD = re.compile(r"^(?:clone|clone3|fork|vfork)\(.*\)\s+=\s+(\d+)(?: /\* (\d+) in strace's PID NS \*/)?")


def part_process_calls(trace_files: list[Path]) -> dict[str, set[int]]:
    """``{call: pids}`` for the worker's tree: each bootstrap process from its exec on, and all it started."""
    lines: dict[int, list[str]] = {}
    for path in trace_files:
        lines[int(path.suffix.lstrip("."))] = path.read_text(encoding="utf-8", errors="replace").splitlines()
    children: dict[int, list[int]] = defaultdict(list)
    for pid, written in lines.items():
        for line in written:
            match = CHILD.match(line)
            if match:
                children[pid].append(int(match.group(2) or match.group(1)))
    calls: dict[str, set[int]] = defaultdict(set)
    roots: dict[int, int] = {}  # pid -> the line of its bootstrap exec
    for pid, written in lines.items():
        for index, line in enumerate(written):
            if BOOTSTRAP_EXEC.match(line) and line.rstrip().endswith("= 0"):
                roots[pid] = index
    seen: set[int] = set()
    stack = [(pid, start) for pid, start in roots.items()]
    while stack:
        pid, start = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        for line in lines.get(pid, [])[start:]:
            match = CALL.match(line)
            if match:
                calls[match.group(1)].add(pid)
        stack.extend((child, 0) for child in children[pid])
    return calls


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="seccomp and strace are Linux's")
@pytest.mark.parametrize("level", ["best", "forced"])
@pytest.mark.parametrize("version", python_versions())
def test_the_part_processes_make_only_calls_the_allow_list_names(version, level, tmp_path):
    """Over the whole hidden suite, graded from the reference: every call of the worker's tree is allowed
    (or is clone3, which answers ENOSYS by design); none was refused."""
    strace = require("strace", install="apt-get install strace")
    if seccomp.worker_filter() is None:
        pytest.skip("the filter knows x86-64's and arm64's call numbers")
    python = interpreter(version)
    environment = {**os.environ}
    if level == "forced":
        # A step down from bubblewrap: the container cage as root, the process cage for anyone else.
        environment[FORCE_VARIABLE] = FORCE_PROCESS_CAGE
        doctor = subprocess.run(
            [python, "-m", "autograder.cli", "doctor"], capture_output=True, text=True, env=environment, timeout=300
        )
        if "none: the grader is root" in doctor.stdout + doctor.stderr:
            # Root whose interpreter other users cannot run (pyenv in a 0700 /root): the container cage is then
            # tested in a real container, by tests/kit/cage/test_container.py, with the system's Python.
            pytest.skip("the container cage cannot start this interpreter as a user of its own here")
    traces = tmp_path / "trace"
    # -s 4096: the bootstrap's path is how its exec is found, and strace cuts strings at 32 bytes by default.
    traced = [strace, "-ff", "-qq", "-s", "4096", "--decode-pids=pidns", "-o", str(traces)]
    process = subprocess.run(
        [*traced, python, "-m", "autograder.cli", str(SOLUTIONS), "--format", "json", "--no-cache", *SLOW_LIMITS],
        capture_output=True,
        text=True,
        env=environment,
        timeout=3600,
        cwd=tmp_path,
    )
    assert process.returncode in (0, 1), process.stderr[-3000:]
    calls = part_process_calls(sorted(tmp_path.glob("trace.*")))
    assert "execve" in calls and "clone" in calls, f"no worker was traced: {process.stderr[-2000:]}"
    named = seccomp.allowed_calls() | set(seccomp.allow_list()["enosys"]["calls"])
    unnamed = {call: sorted(pids)[:3] for call, pids in calls.items() if call not in named}
    assert not unnamed, f"part processes made calls the allow-list does not name (call: pids): {unnamed}"
