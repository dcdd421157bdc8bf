"""Where a correct hand-in's CPU goes in a batch's grader, against the in-process limit: a steady instrument.

Wall-clock figures on a shared machine move by a tenth from one minute to the next (batch_throughput's
``--limit`` repeats swing from 1.4x to 1.7x in one run); CPU time read from the kernel moves by a few
milliseconds. This grades the reference ``--hand-ins`` times as a batch's grader does (on one CPU, with
spare workers, the suite collected once) and prints, per hand-in, the mean CPU of the grader process and
of the worker's process tree from its boot to its end (and of that, the spare's boot before its hand-in
was known); then the CPU of the same hidden tests in-process against the reference (batch_throughput's
limit, on the CPU clock), and the ratio of the two.

    python benchmarks/hand_in_cpu.py [--hand-ins 20] [--part MODULE ...]

``--part`` grades those parts only, on both sides (the kit before Part 6 had Parts 1 to 5: a comparison
with it passes those five).

Linux only: a process tree's CPU is read from /proc/<pid>/schedstat, which counts every process in it
while it runs, and from /proc/<pid>/stat, where the children's times arrive once they are reaped.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from autograder.cage import starting
from autograder.cage.cage_limits import CageLimits
from autograder.grading import hand_in
from autograder.hand_in.loading import load
from autograder.kit_root import KIT_ROOT
from autograder.testing import runner, suites
from autograder.testing.grader import Grader

sys.path.insert(0, str(Path(__file__).parent))
from batch_throughput import in_process_seconds, tree_total
from figures import Figures, add_option

FIGURES = Figures("hand_in_cpu")

WARM_UP = 3  # hand-ins graded first: the suite collected, Part 5's recount timed, the plans of the replays made


def tree_cpu_ms(root: int) -> float:
    """CPU milliseconds of ``root`` and all its descendants so far: each live process's own, from
    /proc/<pid>/schedstat, and that of the children it has reaped (the worker's test processes, one a test),
    from the children's fields of /proc/<pid>/stat (in clock ticks)."""
    tick_ms = 1000 / os.sysconf("SC_CLK_TCK")

    def own_and_reaped(folder: Path, fields: list[str]) -> float:
        own = int((folder / "schedstat").read_text().split()[0]) / 1e6  # ns
        return own + (int(fields[13]) + int(fields[14])) * tick_ms  # cutime, cstime

    return tree_total(root, own_and_reaped)


class Sampler:
    """Reads a worker tree's CPU where the grader takes a spare and where it discards a worker."""

    def __init__(self) -> None:
        self.spare_boots: list[float] = []
        self.worker_trees: list[float] = []
        self.on = False
        take, discard = starting._take_spare, runner.discard

        def take_spare(grader: Grader, *args: Any) -> Any:
            spare = grader.spare
            if self.on and spare is not None and spare.worker.process is not None:
                self.spare_boots.append(tree_cpu_ms(spare.worker.process.pid))
            return take(grader, *args)

        def discard_worker(worker: Any) -> None:
            if self.on and worker.process is not None and worker.process.poll() is None:
                self.worker_trees.append(tree_cpu_ms(worker.process.pid))
            discard(worker)

        starting._take_spare = take_spare  # type: ignore[assignment]
        runner.discard = discard_worker


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hand-ins", type=int, default=20)
    parser.add_argument("--part", action="append", default=[], help="grade this part only (repeat for more)")
    add_option(parser)
    arguments = parser.parse_args()
    if arguments.docs and arguments.part:
        parser.error("--docs records the whole kit's figure: leave out --part")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})  # as a batch's grader keeps to one CPU
    suite, limits = suites.resolve("hidden"), CageLimits()
    only = tuple(suite / part for part in arguments.part)
    reference = KIT_ROOT / "solutions"
    sampler = Sampler()
    graders = []
    with Grader(spares=True) as grader:  # as a batch's grader process keeps one
        for _ in range(WARM_UP):
            hand_in.grade_loaded(load(reference), suite, limits=limits, grader=grader, only=only)
        sampler.on = True
        for _ in range(arguments.hand_ins):
            loaded = load(reference)
            started = time.process_time()
            hand_in.grade_loaded(loaded, suite, limits=limits, grader=grader, only=only)
            graders.append((time.process_time() - started) * 1000)
        sampler.on = False
    limit = in_process_seconds(arguments.hand_ins, clock=time.process_time, only=only) * 1000
    own, tree = statistics.mean(graders), statistics.mean(sampler.worker_trees)
    parts = f" (parts {', '.join(arguments.part)})" if arguments.part else ""
    FIGURES.say(f"a correct hand-in in a batch's grader{parts}, mean of {arguments.hand_ins}, CPU:")
    FIGURES.say(f"  grader process  {own:6.1f} ms")
    if sampler.spare_boots:
        boot = statistics.mean(sampler.spare_boots)
        FIGURES.say(f"  worker tree     {tree:6.1f} ms, of which {boot:.1f} ms booting as a spare")
    else:
        FIGURES.say(f"  worker tree     {tree:6.1f} ms (no spare workers: the process cage keeps none)")
    FIGURES.say(f"  together        {own + tree:6.1f} ms")
    FIGURES.say(f"the limit (the hidden tests in-process on the reference, warm, no cage), CPU: {limit:.1f} ms")
    FIGURES.say(f"ratio: {(own + tree) / limit:.2f}x the limit")
    if arguments.docs:
        FIGURES.write()


if __name__ == "__main__":
    main()
