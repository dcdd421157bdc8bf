"""Submissions per second of ``grade batch``, its scaling from 1 to 2 jobs, and its peak memory.

Builds a class (default 200) in a temporary folder: half correct, the rest
mostly one realistic bug each, some untouched stubs, two that hang and two
that crash the worker; grades it with the real CLI (hidden suite, its full
example budget, default limits) once per job count, and prints the figures.
Peak memory is the largest total resident size of the batch's whole process
tree, sampled every 0.1 s. Figures are from one run on this machine.

    python benchmarks/batch_throughput.py [--size 200] [--jobs 1 2] [--limit]

``--limit`` first measures the limit a hand-in's grading is held to, in the same run: the hidden tests
in this process against the reference (no cage, no worker, warm), and a correct hand-in's cost in a real
``--jobs 1`` batch beside it; five times, each ratio printed, then their median.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import hashlib
import marshal
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from autograder.cage.isolation import FORCE_PROCESS_CAGE, FORCE_VARIABLE, UNCAGED_FLAG, isolation
from autograder.kit_root import KIT_ROOT
from autograder.testing.example_store import STORE_VARIABLE
from autograder.testing.memory_growth import growth_of
from autograder.testing.reference import reference

sys.path.insert(0, str(KIT_ROOT / "tests" / "kit" / "support"))
from classroom import Student, mixed_class, write_submission
from figures import Figures, add_option

FIGURES = Figures("batch_throughput")

TARGET_SECONDS_200 = 60.0
TARGET_SCALING = 1.7
TARGET_MEMORY_MB = 2048
TARGET_CAGE_COST = 0.10  # the bubblewrap cage may cost at most this share of the process cage's throughput
# A correct hand-in's cost in the batch may be at most this many times the limit: the same hidden tests
# run in this process against the reference, with no cage, no worker and a warm interpreter.
TARGET_OVER_LIMIT = 1.5
# In-process gradings whose mean is the limit: the mean, as the batch's cost is a mean (of 40 hand-ins); a
# median, which leaves out the slow runs a garbage collection makes, put the limit 4% under the mean.
LIMIT_ROUNDS = 20
# Correct hand-ins in the larger of the two batches whose difference is the cost of 40: each batch's start
# (Part 5's reference timing, about a second) moves by a tenth from run to run, and over 20 hand-ins that
# alone moved a repeat's ratio by 0.3.
LIMIT_CLASS = 41
LIMIT_REPEATS = 5


def tree_total(root: int, measure: Callable[[Path, list[str]], float]) -> float:
    """The sum of ``measure(its /proc folder, the fields of its stat file)`` over ``root`` and all its
    descendants (a process that ends while it is read counts nothing)."""
    children: dict[int, list[int]] = {}
    measured: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            measured[int(entry.name)] = measure(entry, fields)
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    total, frontier = 0.0, [root]
    while frontier:
        pid = frontier.pop()
        total += measured.get(pid, 0.0)
        frontier.extend(children.get(pid, []))
    return total


def tree_rss_mb(root: int) -> float:
    """Resident memory of ``root`` and all its descendants, from /proc."""
    return tree_total(root, lambda _, fields: int(fields[21]) * 4096 / 2**20)  # resident pages


def write_mixed_class(submissions: Path, size: int) -> str:
    """A class of ``size`` (classroom.mixed_class) in ``submissions``, and the line that says what is in it."""
    kinds: dict[str, int] = {}
    for student in mixed_class(size):
        write_submission(submissions, student)
        kinds[student.kind] = kinds.get(student.kind, 0) + 1
    return f"class of {size}: " + ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items()))


def batch_command(submissions: Path, out: Path, *options: str) -> list[str]:
    """The real ``grade batch`` of ``submissions`` into ``out`` with ``options``, quiet."""
    return [sys.executable, "-m", "autograder.cli", "batch", str(submissions), "-o", str(out), *options, "--quiet"]


def grade_class(submissions: Path, out: Path, jobs: int, *, process_cage: bool = False) -> tuple[float, float]:
    """Wall seconds and peak memory (MiB) of one ``grade batch`` run (in the process cage if asked)."""
    command = batch_command(submissions, out, "--jobs", str(jobs))
    # A course's first batch: no example drawn before (example_store), so every set is drawn once here.
    environment = {**os.environ, STORE_VARIABLE: str(out.with_name(out.name + "-examples"))}
    if process_cage:
        command.append(UNCAGED_FLAG)
        environment[FORCE_VARIABLE] = FORCE_PROCESS_CAGE
    peak = 0.0
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environment)
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


class _InProcessWorker:
    """Stands in for the caged worker: each call runs the reference function here (the limit's "no cage")."""

    def request(self, message: dict[str, Any], timeout: float) -> Any:
        from autograder.cage.client import Reply
        from autograder.cage.inside import call_folders, codec, protocol, streams

        if message["op"] != protocol.CALL:
            return Reply({"ok": True})
        function = getattr(reference(message["module"]), message["function"])
        args, kwargs = marshal.loads(message["payload"])  # as the worker reads them
        folder = message.get("folder")  # Part 6's load and save: the files, as the worker writes them
        if folder is not None:
            call_folders.prepare(folder["name"], folder["files"])
        stream = message.get("stream")  # chunk_text: fed and read as the worker does (streams)
        try:
            if stream is None:
                value = function(*args, **kwargs)
            else:
                given, feed = streams.prepared(args, stream)
                value, told = streams.taken(function(*given, **kwargs), feed, stream)
        except Exception as error:  # the tests that expect an error (vocab_size below 256)
            return Reply({"ok": False, "kind": protocol.RAISED, "type": type(error).__name__, "message": str(error)})
        reply = {"ok": True, "value": codec.to_plain(value)}
        if stream is not None:
            reply["stream"] = told
        # The arguments after the call, as the worker reports them: the digest of their marshal bytes.
        reply["after_digest"] = hashlib.sha256(marshal.dumps((args, kwargs), codec.MARSHAL_VERSION)).hexdigest()
        if folder is not None and folder["collect"]:
            reply["files"] = codec.to_plain(call_folders.collect(folder["name"]))
        return Reply(reply)

    def measured_request(self, message: dict[str, Any], timeout: float) -> Any:
        """Part 6's train_bytes: its answer, and its memory's growth measured as the reference's is."""
        args, _ = marshal.loads(message["payload"])  # the memory test passes them by position
        module_file = str(reference(message["module"]).__file__)
        return self.request(message, timeout), growth_of(module_file, message["function"], *args)

    def runs_at_once(self, modules: set[str]) -> bool:
        return False  # no calls sent ahead: here a call is a function call already

    tainted = holds_passed_calls = False  # no processes: the limit is the tests' own cost

    def passed_test(self) -> None:
        pass

    def stop(self) -> None:
        pass


def in_process_seconds(
    rounds: int = LIMIT_ROUNDS, clock: Callable[[], float] = time.perf_counter, only: tuple[Path, ...] = ()
) -> float:
    """The limit: the mean of ``rounds`` warm in-process gradings of the reference (after one to warm up),
    timed by ``clock`` (the wall clock; hand_in_cpu.py passes the CPU clock), of the hidden suite or its
    test folders ``only``."""
    from autograder.cage.cage_limits import CageLimits
    from autograder.testing import suites
    from autograder.testing.grader import Grader
    from autograder.testing.plugin import GradingPlugin
    from autograder.testing.proxy import GradingSession

    times = []
    # A call's folder is made in the working folder, as the worker makes it in its copy of the hand-in.
    with tempfile.TemporaryDirectory() as scratch, contextlib.chdir(scratch), Grader() as grader:
        for _ in range(rounds + 1):
            session = GradingSession(_InProcessWorker(), CageLimits(), plans=grader.plans)  # type: ignore[arg-type]
            plugin = GradingPlugin(session, recorded=grader.examples)
            started = clock()
            grader.run(suites.resolve("hidden"), plugin, only)
            times.append(clock() - started)
            lost = [outcome.name for outcome in plugin.outcomes if outcome.outcome.value != "passed"]
            if lost:
                raise SystemExit(f"the in-process limit is not a full-marks grading: {lost[:3]}")
    return statistics.mean(times[1:])


def batch_seconds_per_correct(scratch: Path, count: int) -> float:
    """A correct hand-in's cost in a real ``grade batch --jobs 1``: (a class of ``count`` - a class of 1) / (count - 1),
    so the batch's own start (imports, collection, Part 5's reference timing) is not counted."""
    seconds = []
    for size in (1, count):
        submissions = scratch / f"correct-{size}"
        if not submissions.exists():
            for number in range(size):
                write_submission(submissions, Student(f"c{number:03d}", "correct"))
        out = scratch / f"out-correct-{size}"
        shutil.rmtree(out, ignore_errors=True)
        seconds.append(grade_class(submissions, out, 1)[0])
    return (seconds[1] - seconds[0]) / (count - 1)


def over_limit(scratch: Path) -> None:
    """Print the cost of a correct hand-in in the batch over the limit, LIMIT_REPEATS times and their median.

    Each repeat measures the limit just before and just after the batch, and takes their mean, so the ratio
    is of figures taken together: this machine's speed drifts by a tenth within a minute, and a limit taken
    on one side of the batch alone moved a repeat's ratio by as much."""
    ratios = []
    for _repeat in range(LIMIT_REPEATS):
        before = in_process_seconds()
        cost = batch_seconds_per_correct(scratch, LIMIT_CLASS)
        limit = (before + in_process_seconds()) / 2
        ratios.append(cost / limit)
        FIGURES.say(
            f"limit (the hidden tests in-process on the reference, warm, no cage; mean of {LIMIT_ROUNDS} before "
            f"and {LIMIT_ROUNDS} after): "
            f"{limit:.3f} s a hand-in; a correct hand-in in grade batch --jobs 1 (mean of {LIMIT_CLASS - 1}): "
            f"{cost:.3f} s = {cost / limit:.2f}x the limit"
        )
    FIGURES.say(
        f"median of {LIMIT_REPEATS}: {statistics.median(ratios):.2f}x the limit (target <= {TARGET_OVER_LIMIT}x)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=200)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument(
        "--compare-cages",
        action="store_true",
        help="grade once more, at the most jobs, in the process cage: the sandbox's cost and scores",
    )
    parser.add_argument(
        "--limit",
        action="store_true",
        help="also measure a correct hand-in's cost in the batch against the in-process limit",
    )
    add_option(parser)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        if arguments.limit:
            over_limit(Path(scratch))
        submissions = Path(scratch) / "submissions"
        FIGURES.say(write_mixed_class(submissions, arguments.size))
        timings: dict[int, float] = {}
        gradebooks: dict[int, str] = {}
        for jobs in arguments.jobs:
            out = Path(scratch) / f"out-{jobs}"
            seconds, peak = grade_class(submissions, out, jobs)
            timings[jobs] = seconds
            gradebooks[jobs] = (out / "gradebook.csv").read_text(encoding="utf-8")
            rows = list(csv.DictReader(gradebooks[jobs].splitlines()))
            graded = sum(1 for row in rows if row["status"] == "graded")
            FIGURES.say(
                f"--jobs {jobs}: {seconds:.1f} s, {arguments.size / seconds:.2f} submissions/s, "
                f"peak memory {peak:.0f} MiB (target < {TARGET_MEMORY_MB}), {graded} graded"
            )
        if len(set(gradebooks.values())) > 1:
            FIGURES.say("WARNING: the gradebooks differ between job counts")
        if 1 in timings and 2 in timings:
            FIGURES.say(f"scaling 1 -> 2 jobs: {timings[1] / timings[2]:.2f}x (target >= {TARGET_SCALING})")
        if 2 in timings:
            projected = timings[2] * 200 / arguments.size
            FIGURES.say(f"--jobs 2 for 200 submissions: {projected:.1f} s (target < {TARGET_SECONDS_200:.0f} s)")
        if arguments.compare_cages:
            jobs = max(arguments.jobs)
            out = Path(scratch) / "out-process-cage"
            seconds, _ = grade_class(submissions, out, jobs, process_cage=True)
            cost = timings[jobs] / seconds - 1
            FIGURES.say(
                f"--jobs {jobs} in the process cage: {seconds:.1f} s; the {isolation().value} cage costs "
                f"{cost:+.1%} of its throughput (target <= {TARGET_CAGE_COST:.0%})"
            )
            same = (out / "gradebook.csv").read_text(encoding="utf-8") == gradebooks[jobs]
            FIGURES.say("gradebooks of the two cages: " + ("identical" if same else "DIFFERENT"))
    if arguments.docs:
        FIGURES.write()


if __name__ == "__main__":
    main()
