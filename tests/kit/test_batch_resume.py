"""``grade batch`` killed with SIGKILL mid-class: nothing is left running, and the resumed batch ends
with the gradebook of an uninterrupted one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from bug_corpus import BUGS
from classroom import HANGS, Student, write_submission
from conftest import batch_command, run_batch


def _descendants(root: int) -> set[int]:
    """Every process under ``root``, from /proc (Linux)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    found: set[int] = set()
    frontier = [root]
    while frontier:
        current = frontier.pop()
        children = [pid for pid, parent in parents.items() if parent == current]
        found.update(children)
        frontier.extend(children)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to find left-over processes")
def test_a_batch_killed_with_sigkill_resumes_to_an_identical_gradebook(tmp_path):
    submissions = tmp_path / "submissions"
    kinds = ["correct", "not started"] * 3
    for number, kind in enumerate(kinds):
        write_submission(submissions, Student(f"s{number}", kind))
    for number, name in enumerate(sorted(BUGS)[:4]):
        write_submission(submissions, Student(f"b{number}", "buggy", BUGS[name]))
    write_submission(submissions, Student("h0", "hangs", HANGS))
    uninterrupted = tmp_path / "uninterrupted"
    assert run_batch(submissions, uninterrupted, "--jobs", "2").returncode == 0

    killed = tmp_path / "killed"
    process = subprocess.Popen(batch_command(submissions, killed, "--jobs", "2"), stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while len(list(killed.glob("*/results.json"))) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    tree = _descendants(process.pid)
    assert tree, "graders and workers were running"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    done_before = len(list(killed.glob("*/results.json")))
    assert 3 <= done_before < len(kinds) + 5, "killed mid-batch"
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in tree) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in tree if _alive(pid)], "the killed batch left processes behind"

    resumed = run_batch(submissions, killed, "--jobs", "2")
    assert resumed.returncode == 0, resumed.stderr
    graded_now = int(resumed.stderr.split("(")[1].split(" graded now")[0])
    assert graded_now == len(kinds) + 5 - done_before
    assert (killed / "gradebook.csv").read_bytes() == (uninterrupted / "gradebook.csv").read_bytes()
    assert not list(killed.rglob(".partial-*")), "half-written files are swept"
