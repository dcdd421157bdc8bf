"""``grade batch`` run again: killed with SIGKILL mid-class, nothing is left running and the resumed batch
ends with the gradebook of an uninterrupted one; run on the same hand-ins, it grades only what changed."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from bug_corpus import BUGS
from classroom import HANGS, SOLUTIONS, Student, write_submission
from commands import batch_command, run_batch
from results import full_marks, gradebook_rows

# The first two parts only (`--part`): resuming does not depend on which tests run, and each hand-in grades fast.
PARTS_GRADED = ("--part", "simple_tokenizers", "--part", "bpe")
KINDS = ("correct", "not started") * 3


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


@pytest.fixture(scope="module")
def cheap_class(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Eleven hand-ins graded on two parts, uninterrupted: their folder and the output."""
    root = tmp_path_factory.mktemp("resume")
    submissions = root / "submissions"
    for number, kind in enumerate(KINDS):
        write_submission(submissions, Student(f"s{number}", kind))
    in_parts = [name for name in sorted(BUGS) if BUGS[name][0] in PARTS_GRADED[1::2]]
    for number, name in enumerate(in_parts[:4]):
        write_submission(submissions, Student(f"b{number}", "buggy", BUGS[name]))
    write_submission(submissions, Student("h0", "hangs", HANGS))
    uninterrupted = root / "uninterrupted"
    assert run_batch(submissions, uninterrupted, "--jobs", "2", *PARTS_GRADED).returncode == 0
    header = (uninterrupted / "gradebook.csv").read_text(encoding="utf-8").splitlines()[0]
    assert "Part 2 (" in header and "Part 3 (" not in header, "an assignment of two parts has their columns only"
    return submissions, uninterrupted


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to find left-over processes")
def test_a_batch_killed_with_sigkill_resumes_to_an_identical_gradebook(cheap_class, tmp_path):
    submissions, uninterrupted = cheap_class
    killed = tmp_path / "killed"
    process = subprocess.Popen(
        batch_command(submissions, killed, "--jobs", "2", *PARTS_GRADED),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while len(list(killed.glob("*/results.json"))) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    tree = _descendants(process.pid)
    assert tree, "graders and workers were running"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    done_before = len(list(killed.glob("*/results.json")))
    assert 3 <= done_before < len(KINDS) + 5, "killed mid-batch"
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in tree) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in tree if _alive(pid)], "the killed batch left processes behind"

    resumed = run_batch(submissions, killed, "--jobs", "2", *PARTS_GRADED)
    assert resumed.returncode == 0, resumed.stderr
    graded_now = int(resumed.stderr.split("(")[1].split(" graded now")[0])
    assert graded_now == len(KINDS) + 5 - done_before
    assert (killed / "gradebook.csv").read_bytes() == (uninterrupted / "gradebook.csv").read_bytes()
    assert not list(killed.rglob(".partial-*")), "half-written files are swept"


def test_a_second_run_grades_nothing_and_a_change_is_regraded(cheap_class, tmp_path):
    submissions, uninterrupted = cheap_class
    out = tmp_path / "out"
    shutil.copytree(uninterrupted, out)
    again = run_batch(submissions, out, *PARTS_GRADED)
    assert "(0 graded now" in again.stderr, again.stderr
    assert (out / "gradebook.csv").read_bytes() == (uninterrupted / "gradebook.csv").read_bytes()
    changed = tmp_path / "submissions"
    shutil.copytree(submissions, changed)
    (changed / "s1" / "simple_tokenizers.py").write_text(  # s1 had not started
        (SOLUTIONS / "simple_tokenizers.py").read_text(encoding="utf-8"), encoding="utf-8"
    )
    third = run_batch(changed, out, *PARTS_GRADED)
    assert "(1 graded now" in third.stderr, third.stderr
    assert gradebook_rows(out)["s1"]["total"] == full_marks("simple_tokenizers")
    forced = run_batch(changed, out, "--force", *PARTS_GRADED)
    assert f"({len(KINDS) + 5} graded now" in forced.stderr, forced.stderr


def test_a_result_measured_by_an_older_kit_is_measured_again_not_graded_again(cheap_class, tmp_path):
    """Its code hash and fingerprints, taken another way, would match no one's now: they are taken again
    from the hand-in, and the grade is kept."""
    submissions, uninterrupted = cheap_class
    out = tmp_path / "out"
    shutil.copytree(uninterrupted, out)
    stored = out / "s0" / "results.json"
    fresh_stamp = json.loads(stored.read_text(encoding="utf-8"))["extra_data"]["batch"]
    older = json.loads(stored.read_text(encoding="utf-8"))
    older["extra_data"]["batch"] |= {"code_hash": "0" * 16, "similarity": [1, 2, 3]}
    del older["extra_data"]["batch"]["similarity_version"]
    stored.write_text(json.dumps(older), encoding="utf-8")
    again = run_batch(submissions, out, *PARTS_GRADED)
    assert "(0 graded now" in again.stderr, again.stderr
    assert json.loads(stored.read_text(encoding="utf-8"))["extra_data"]["batch"] == fresh_stamp
    assert (out / "gradebook.csv").read_bytes() == (uninterrupted / "gradebook.csv").read_bytes()


# Not unit: the grading's digest names the cage this machine gives, and finding that out may run bwrap.
def test_results_of_other_parts_or_limits_are_not_reused():
    from autograder.cage.cage_limits import CageLimits
    from autograder.grading.fingerprints import grading_hash
    from autograder.grading.grading_limits import Limits
    from autograder.kit_root import KIT_ROOT
    from autograder.testing import suites

    suite, references = suites.resolve("hidden"), KIT_ROOT / "solutions"
    hashes = {
        grading_hash(suite, references, Limits()),
        grading_hash(suite, references, Limits(), ("bpe",)),
        grading_hash(suite, references, Limits(cage=CageLimits(call_seconds=9))),
    }
    assert len(hashes) == 3


def _interrupted(submissions: Path, out: Path, presses: int) -> tuple[subprocess.CompletedProcess[str], set[int]]:
    """``grade batch`` as a terminal runs it, pressed Ctrl-C ``presses`` times once three hand-ins are graded:
    SIGINT to the whole foreground process group, every press 0.1 s after the last."""
    process = subprocess.Popen(
        batch_command(submissions, out, "--jobs", "2", *PARTS_GRADED, quiet=False),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own group, as a shell gives a command: the presses reach only it
    )
    deadline = time.monotonic() + 120
    while len(list(out.glob("*/results.json"))) < 3 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    tree = _descendants(process.pid)
    for _ in range(presses):
        os.killpg(process.pid, signal.SIGINT)
        time.sleep(0.1)
    stdout, stderr = process.communicate(timeout=30)  # a limit on stopping, not a measure of speed
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr), tree


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to find left-over processes")
def test_ctrl_c_stops_at_once_keeps_what_is_graded_and_says_how_to_resume(cheap_class, tmp_path):
    submissions, uninterrupted = cheap_class
    out = tmp_path / "out"
    stopped, tree = _interrupted(submissions, out, presses=1)
    assert stopped.returncode == 130, stopped.stderr[-2000:]
    kept = len(list(out.glob("*/results.json")))
    assert 3 <= kept < len(KINDS) + 5, "stopped mid-batch, with what was graded kept"
    assert f"{kept} graded result(s) are kept in {out}" in stopped.stderr
    assert "Run the same command again" in stopped.stderr
    assert "Traceback" not in stopped.stderr + stopped.stdout
    # The stop's line is the last word: nothing of the batch's (a semaphore it left for multiprocessing's
    # resource tracker to clean up and warn of, once the batch is gone) follows it.
    said = [line for line in stopped.stderr.splitlines() if line.strip()]
    assert said[-1].startswith("grade batch: stopped;"), stopped.stderr[-2000:]
    assert "warn" not in stopped.stderr.lower(), stopped.stderr[-2000:]
    deadline = time.monotonic() + 10  # a worker ends when the kernel tells it its grader died: give it a moment
    while any(_alive(pid) for pid in tree) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert tree and not [pid for pid in tree if _alive(pid)], "graders and workers end with the batch"

    # The instructor adjusts a grade before resuming: the resumed batch applies it and grades only the rest.
    adjustments = out / "adjustments.csv"
    assert adjustments.read_text(encoding="utf-8") == "student,part_or_test,points,comment\n"
    adjustments.write_text(
        'student,part_or_test,points,comment\ns0,Part 1,3,"explained the tokenizer in class, well"\n',
        encoding="utf-8",
    )
    resumed = run_batch(submissions, out, "--jobs", "2", *PARTS_GRADED)
    assert resumed.returncode == 0, resumed.stderr
    assert f"({len(KINDS) + 5 - kept} graded now, {kept} up to date)" in resumed.stderr
    expected = gradebook_rows(uninterrupted)
    rows = gradebook_rows(out)
    assert float(rows["s0"]["total"]) == float(expected["s0"]["total"]) + 3 and rows["s0"]["adjustment"] == "3"
    assert {key: row for key, row in rows.items() if key != "s0"} == {
        key: {**row, "adjustment": "0"} for key, row in expected.items() if key != "s0"
    }
    feedback = (out / "s0" / "feedback.md").read_text(encoding="utf-8")
    assert "## Adjustments by your instructor" in feedback and "explained the tokenizer in class, well" in feedback

    regraded = run_batch(submissions, out, "--force", *PARTS_GRADED)
    assert regraded.returncode == 0 and f"({len(KINDS) + 5} graded now" in regraded.stderr
    assert gradebook_rows(out)["s0"]["total"] == rows["s0"]["total"], "a regrade keeps the adjustment"
    assert "explained the tokenizer" in (out / "s0" / "feedback.html").read_text(encoding="utf-8")
    assert "explained the tokenizer" in adjustments.read_text(encoding="utf-8"), "the instructor's file is theirs"


@pytest.mark.slow
def test_ctrl_c_pressed_three_times_prints_no_traceback(cheap_class, tmp_path):
    submissions, _ = cheap_class
    stopped, _ = _interrupted(submissions, tmp_path / "out", presses=3)
    assert stopped.returncode == 130, stopped.stderr[-2000:]
    for sign in ("Traceback", "Fatal Python error", "Exception ignored", "KeyboardInterrupt"):
        assert sign not in stopped.stderr + stopped.stdout, stopped.stderr[-2000:]
    assert "Run the same command again" in stopped.stderr


def test_a_stopped_pool_has_nothing_left_running_into_the_interpreters_exit():
    """A pool's manager thread still closing its pipes as Python exits races concurrent.futures' exit hook,
    which then writes to a pipe the thread has just closed ("Exception ignored ... Bad file descriptor",
    seen once in CI after three presses of Ctrl-C): the batch stops its pool whole before it exits."""
    from concurrent.futures import ProcessPoolExecutor

    from autograder.course.batch.pool import _stop

    pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    running = pool.submit(time.sleep, 60)
    deadline = time.monotonic() + 60
    while not running.running() and time.monotonic() < deadline:
        time.sleep(0.01)
    manager = getattr(pool, "_executor_manager_thread", None)  # typeshed types it wrongly
    assert manager is not None and manager.is_alive()
    _stop(pool)
    assert not manager.is_alive(), "the manager thread ended before _stop returned"
