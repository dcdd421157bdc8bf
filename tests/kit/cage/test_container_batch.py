"""A class graded by ``grade batch`` in a real container, one hand-in attacking the rest: whatever it signals,
kills or writes, the batch and its classmates are graded right and nothing of its user is left.

The container is Docker's (``container.py``), with the kit as the Gradescope package installs it (the
``gradescope_root`` fixture of test_container). Each batch runs twice: with TMPDIR the usual /tmp, and with
TMPDIR a 0700 folder of root's, as harnesses make them, which the workers' users cannot enter. After the
batch, in the same container (its PID namespace ends every process with it), a look at /proc lists every
process of a worker's uid still there, and at the shared folders for their files.
"""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path
from typing import Any

import pytest
from test_container import INSIDE, engines, gradescope_root, hidden, in_container, solution_files  # noqa: F401

from autograder.cage.cage_limits import CageLimits
from autograder.cage.worker_user import SHARED_FOLDERS, UID_BASE

pytestmark = [pytest.mark.container, pytest.mark.slow, pytest.mark.without_policy]

PART = "simple_tokenizers"
CLASSMATES = ("honest-1", "honest-2")
# Generous for a loaded machine: the hand-ins are the reference, which answers in milliseconds.
LIMITS = ("--limit", "call_seconds=10", "--limit", "test_seconds=60", "--limit", "submission_seconds=300")
# A batch still running after this long is stuck: three hand-ins of one part take a few minutes here, under load.
BATCH_SECONDS = 780
PRIVATE_TMP = "/tmp/private-tmp"  # made 0700 root's inside the container, as a harness makes one per run

# A detached grandchild (two forks, a session of its own) that signals every process it can see: SIGKILL to
# each pid in /proc, then kill(-1, SIGKILL), everything it may (its worker among them); then, for ten minutes,
# SIGSTOP to every pid in /proc and to the next pids the kernel will give (ns_last_pid says which): a process
# that becomes its user, even for a moment between fork and exec, is stopped there, and whoever waits for it
# waits for ever.
SIGNALS_EVERYONE = """
def _signal_everyone():
    import os
    import signal
    import time

    if os.fork() != 0:
        return
    os.setsid()
    if os.fork() != 0:
        os._exit(0)
    me = os.getpid()

    def everyone(number):
        for entry in os.listdir("/proc"):
            if entry.isdigit() and int(entry) != me:
                try:
                    os.kill(int(entry), number)
                except OSError:
                    pass

    everyone(signal.SIGKILL)
    try:
        os.kill(-1, signal.SIGKILL)
    except OSError:
        pass
    until, rounds = time.monotonic() + 600, 0
    while time.monotonic() < until:
        rounds += 1
        if rounds % 256 == 0:
            everyone(signal.SIGSTOP)
        try:
            with open("/proc/sys/kernel/ns_last_pid") as last:
                newest = int(last.read())
        except (OSError, ValueError):
            newest = 0
        for pid in range(max(newest - 4, 2), newest + 8):
            if pid != me:
                try:
                    os.kill(pid, signal.SIGSTOP)
                except OSError:
                    pass
    os._exit(0)


_signal_everyone()
"""

# What the threat model allows past disk_mb: what a worker writes between two of the watchdog's looks.
OVERSHOOT_MB = 4 * CageLimits().file_size_mb
# 1 GiB in files of 4 MiB (each under the 16 MiB file_size_mb), spread over every folder it can write.
GIB, PIECE = 1 << 30, 4 << 20
FLOODS_THE_DISK = f"""
def _flood():
    import os
    import time

    folders = [os.environ.get("TMPDIR", "/tmp"), os.getcwd(), os.path.join(os.getcwd(), "calls")]
    folders += {list(SHARED_FOLDERS)!r}
    piece, written, number = b"x" * {PIECE}, 0, 0
    while written < {GIB}:
        progress = written
        for folder in folders:
            try:
                os.makedirs(folder, exist_ok=True)
                with open(os.path.join(folder, "flood-%d-%d" % (os.getpid(), number)), "wb") as file:
                    file.write(piece)
                written += len(piece)
            except OSError:
                pass
            number += 1
        if written == progress:
            break
    time.sleep(3)  # held, for the sampler to see


_flood()
"""

# Run in the container after the batch: every live process of a worker's uid, and every file of one's in the
# shared folders, as JSON on one line.
LOOK_AFTER = f"""
import json, os
left = []
for entry in os.listdir("/proc"):
    try:
        with open("/proc/%s/status" % entry) as status:
            fields = dict(line.split(":", 1) for line in status if ":" in line)
    except OSError:
        continue
    uid = int(fields["Uid"].split()[0])
    if uid >= {UID_BASE} and not fields["State"].strip().startswith("Z"):
        left.append("process %s of uid %d: %s" % (entry, uid, fields["Name"].strip()))
for top in {list(SHARED_FOLDERS)!r}:
    for folder, _, names in os.walk(top):
        for name in names:
            try:
                info = os.lstat(os.path.join(folder, name))
            except OSError:
                continue
            if info.st_uid >= {UID_BASE}:
                left.append("file %s of uid %d" % (os.path.join(folder, name), info.st_uid))
print("LEFT " + json.dumps(left))
"""


# Run in the container beside the batch: the most that the workers' users held in files at once, sampled
# until the batch ends, in every folder a worker could write: the cages (wherever TMPDIR put them) whole, and
# the top of each shared folder (a sample may miss a peak between two looks: the flood holds its files a while).
SAMPLE_WRITTEN = f"""
import os
whole = ["/tmp/bpe-kit-0", "{PRIVATE_TMP}"]
tops = {list(SHARED_FOLDERS)!r}


def owned(path):
    try:
        info = os.lstat(path)
    except OSError:
        return 0
    return info.st_size if info.st_uid >= {UID_BASE} else 0


peak = 0
while not os.path.exists("{INSIDE}/batch-ended"):
    total = 0
    for top in whole:
        for folder, _, names in os.walk(top):
            total += sum(owned(os.path.join(folder, name)) for name in names)
    for top in tops:
        try:
            total += sum(owned(os.path.join(top, name)) for name in os.listdir(top))
        except OSError:
            pass
    peak = max(peak, total)
print("PEAK %d" % peak)
"""


def batch_script(tmpdir: str) -> str:
    """The container's command: the batch, its exit code, then what is left (``LOOK_AFTER``)."""
    python, kit = f"{INSIDE}/venv/bin/python", f"{INSIDE}/source/kit"
    make_private = f"mkdir -m 700 {PRIVATE_TMP} && " if tmpdir == PRIVATE_TMP else ""
    return textwrap.dedent(
        f"""\
        {make_private}cd {kit}
        rm -f {INSIDE}/batch-ended
        {python} {INSIDE}/sample_written.py > {INSIDE}/peak.txt &
        TMPDIR={tmpdir} PYTHONPATH={kit} timeout -s KILL {BATCH_SECONDS} {python} -m autograder.cli batch {INSIDE}/class -o {INSIDE}/out \\
            --quiet --jobs 2 --part {PART} {" ".join(LIMITS)}
        echo "BATCH EXIT $?"
        touch {INSIDE}/batch-ended
        wait
        cat {INSIDE}/peak.txt
        sleep 1
        {python} {INSIDE}/look_after.py
        """
    )


def grade_class(root: Path, hide: list[Path], attack: str, tmpdir: str) -> tuple[dict[str, Any], list[str], int, str]:
    """Grade the attacker beside two honest classmates; their results, what is left, and the container's words."""
    for folder in ("class", "out"):
        shutil.rmtree(root / folder, ignore_errors=True)
    for student, appended in [("attacker", attack), *((name, "") for name in CLASSMATES)]:
        (root / "class" / student).mkdir(parents=True)
        text = solution_files(**({PART: appended} if appended else {}))[f"{PART}.py"]
        (root / "class" / student / f"{PART}.py").write_text(text, encoding="utf-8")
    (root / "look_after.py").write_text(LOOK_AFTER, encoding="utf-8")
    (root / "sample_written.py").write_text(SAMPLE_WRITTEN, encoding="utf-8")
    # A fresh /tmp and /var/tmp, as an image has them: not this machine's, where other graders run.
    fresh = [*hide, Path("/tmp"), Path("/var/tmp")]
    process = in_container(root, ["sh", "-c", batch_script(tmpdir)], hide=fresh, workdir="/", env={})
    said = f"exit {process.returncode}; stdout: {process.stdout[-2000:]}; stderr: {process.stderr[-3000:]}"
    assert "BATCH EXIT 0" in process.stdout, said
    left = next(line for line in process.stdout.splitlines() if line.startswith("LEFT "))
    results = {}
    for student in ("attacker", *CLASSMATES):
        path = root / "out" / student / "results.json"
        assert path.exists(), f"{student} was not graded; {said}"
        results[student] = json.loads(path.read_text(encoding="utf-8"))
    peak = next(line for line in process.stdout.splitlines() if line.startswith("PEAK "))
    return results, json.loads(left[len("LEFT ") :]), int(peak.split()[1]), said


def assert_classmates_graded_right(results: dict[str, Any], said: str) -> None:
    for student in CLASSMATES:
        tests = results[student]["tests"]
        outcomes = {test["extra_data"]["outcome"] for test in tests}
        assert tests and all(test["status"] == "passed" for test in tests), f"{student}: {outcomes}; {said}"


@pytest.mark.parametrize("tmpdir", ["/tmp", PRIVATE_TMP])
def test_a_hand_in_that_signals_everyone_ends_nothing_but_its_own(gradescope_root, hidden, tmpdir):  # noqa: F811
    root, _ = gradescope_root
    results, left, _, said = grade_class(root, hidden, SIGNALS_EVERYONE, tmpdir)
    assert_classmates_graded_right(results, said)
    assert left == [], said
    # Its own part graded as its doing: not a grader error, which would be a zero that proves nothing.
    outcomes = {test["extra_data"]["outcome"] for test in results["attacker"]["tests"]}
    assert outcomes and "grader error" not in outcomes, said


@pytest.mark.parametrize("tmpdir", ["/tmp", PRIVATE_TMP])
def test_a_hand_in_that_floods_the_shared_folders_is_ended_at_its_total(gradescope_root, hidden, tmpdir):  # noqa: F811
    root, _ = gradescope_root
    results, left, peak, said = grade_class(root, hidden, FLOODS_THE_DISK, tmpdir)
    assert_classmates_graded_right(results, said)
    assert left == [], said
    # The threat model's bound: disk_mb, passed by at most what is written between two of the watchdog's looks.
    limits = CageLimits()
    assert peak <= (limits.disk_mb + OVERSHOOT_MB) * 2**20, f"{peak / 2**20:.0f} MiB written at once; {said}"
    ended = [test["output"] for test in results["attacker"]["tests"] if "MiB of files in all" in test["output"]]
    assert ended, f"not ended at its total; {said}"
    outcomes = {test["extra_data"]["outcome"] for test in results["attacker"]["tests"]}
    assert outcomes and "grader error" not in outcomes, said
