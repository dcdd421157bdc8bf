"""Submissions per second of ``grade batch``, its scaling from 1 to 2 jobs, and its peak memory.

Builds a class (default 200) in a temporary folder: half correct, the rest
mostly one realistic bug each, some untouched stubs, two that hang and two
that crash the worker; grades it with the real CLI (hidden suite, its full
example budget, default limits) once per job count, and prints the figures.
Peak memory is the largest total resident size of the batch's whole process
tree, sampled every 0.1 s. Figures are from one run on this machine.

    python benchmarks/batch_throughput.py [--size 200] [--jobs 1 2]
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from autograder.suites import KIT_ROOT

sys.path.insert(0, str(KIT_ROOT / "tests" / "kit"))
from classroom import mixed_class, write_submission

TARGET_SECONDS_200 = 60.0
TARGET_SCALING = 1.7
TARGET_MEMORY_MB = 2048


def tree_rss_mb(root: int) -> float:
    """Resident memory of ``root`` and all its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry.name)
        children.setdefault(int(fields[1]), []).append(pid)
        rss[pid] = int(fields[21])  # pages
    total, frontier = 0, [root]
    while frontier:
        pid = frontier.pop()
        total += rss.get(pid, 0)
        frontier.extend(children.get(pid, []))
    return total * 4096 / 2**20


def grade_class(submissions: Path, out: Path, jobs: int) -> tuple[float, float]:
    """Wall seconds and peak memory (MiB) of one ``grade batch`` run."""
    command = [sys.executable, "-m", "autograder.cli", "batch", str(submissions), "-o", str(out),
               "--jobs", str(jobs), "--quiet"]
    peak = 0.0
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.wait(0.1):
            peak = max(peak, tree_rss_mb(process.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, errors = process.communicate()
    seconds = time.perf_counter() - started
    done.set()
    sampler.join()
    if process.returncode != 0:
        raise SystemExit(f"grade batch failed ({process.returncode}): {errors.decode()[-2000:]}")
    return seconds, peak


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=200)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        submissions = Path(scratch) / "submissions"
        kinds: dict[str, int] = {}
        for student in mixed_class(arguments.size):
            write_submission(submissions, student)
            kinds[student.kind] = kinds.get(student.kind, 0) + 1
        print(f"class of {arguments.size}: " + ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items())))
        timings: dict[int, float] = {}
        gradebooks: dict[int, str] = {}
        for jobs in arguments.jobs:
            out = Path(scratch) / f"out-{jobs}"
            seconds, peak = grade_class(submissions, out, jobs)
            timings[jobs] = seconds
            gradebooks[jobs] = (out / "gradebook.csv").read_text(encoding="utf-8")
            rows = list(csv.DictReader(gradebooks[jobs].splitlines()))
            graded = sum(1 for row in rows if row["status"] == "graded")
            print(f"--jobs {jobs}: {seconds:.1f} s, {arguments.size / seconds:.2f} submissions/s, "
                  f"peak memory {peak:.0f} MiB (target < {TARGET_MEMORY_MB}), {graded} graded")
        if len(set(gradebooks.values())) > 1:
            print("WARNING: the gradebooks differ between job counts")
        if 1 in timings and 2 in timings:
            print(f"scaling 1 -> 2 jobs: {timings[1] / timings[2]:.2f}x (target >= {TARGET_SCALING})")
        if 2 in timings:
            projected = timings[2] * 200 / arguments.size
            print(f"--jobs 2 for 200 submissions: {projected:.1f} s (target < {TARGET_SECONDS_200:.0f} s)")


if __name__ == "__main__":
    main()
