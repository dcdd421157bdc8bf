"""What splitting a class into shards costs on one machine: one batch against its shards and the merge.

Builds a class (default 200, as batch_throughput.py builds it) and grades it with the real CLI, on the
same cores, ``--runs`` times each way, the ways alternated so that the machine's drift falls on both:

- one batch, ``grade batch --jobs 2``;
- two shards of ``--jobs 1`` started side by side (``--shard 0/2`` and ``--shard 1/2``), then the merge
  (``--merge``) once both have ended: the time from the shards' start to the merge's end.

It prints each run, then the medians: the shards and the merge against the one batch, and the merge
alone (it grades nothing; it reads every hand-in and result, runs the similarity measure over the class
and writes every report). Each figure is the wall clock's and, beside it, the CPU of every process the
way ran (on a machine others share, the steadier of the two). Both ways are a course's first batch: each
run draws the hidden examples into an empty store of its own. Every run's gradebook must be the one batch's.

    python benchmarks/shard_cost.py [--size 200] [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from batch_throughput import batch_command, grade_class, write_mixed_class
from figures import Figures, add_option, children_cpu, load_now

from autograder.testing.example_store import STORE_VARIABLE

FIGURES = Figures("shard_cost")

SHARDS = 2
TARGET_SHARD_COST = 0.05  # the shards and the merge, over one batch on the same cores
TARGET_MERGE_SECONDS_200 = 2.0


class Took(NamedTuple):
    """What one way of grading the class took: wall seconds, and the CPU seconds of every process it ran."""

    wall: float
    cpu: float


def one_batch(submissions: Path, out: Path) -> Took:
    cpu = children_cpu()
    seconds, _ = grade_class(submissions, out, 2)
    return Took(seconds, children_cpu() - cpu)


def in_shards(submissions: Path, out: Path) -> tuple[Took, Took]:
    """The shards side by side then the merge, and the merge alone."""
    # A course's first batch, as one_batch's (grade_class): the shards draw the examples into one empty store.
    environment = {**os.environ, STORE_VARIABLE: str(out.with_name(out.name + "-examples"))}
    started, cpu = time.perf_counter(), children_cpu()
    shards = [
        subprocess.Popen(
            batch_command(submissions, out, "--jobs", "1", "--shard", f"{index}/{SHARDS}"),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=environment,
        )
        for index in range(SHARDS)
    ]
    for index, shard in enumerate(shards):
        _, errors = shard.communicate()
        if shard.returncode != 0:
            raise SystemExit(f"shard {index}/{SHARDS} failed ({shard.returncode}): {errors.decode()[-2000:]}")
    merge_started, merge_cpu = time.perf_counter(), children_cpu()
    merged = subprocess.run(batch_command(submissions, out, "--merge"), capture_output=True, text=True, env=environment)
    ended, ended_cpu = time.perf_counter(), children_cpu()
    if merged.returncode != 0:
        raise SystemExit(f"the merge failed ({merged.returncode}): {merged.stderr[-2000:]}")
    return Took(ended - started, ended_cpu - cpu), Took(ended - merge_started, ended_cpu - merge_cpu)


def median(taken: list[Took]) -> Took:
    return Took(statistics.median(took.wall for took in taken), statistics.median(took.cpu for took in taken))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    add_option(parser)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        submissions = Path(scratch) / "submissions"
        FIGURES.say(write_mixed_class(submissions, arguments.size))
        batches: list[Took] = []
        sharded: list[Took] = []
        merges: list[Took] = []
        gradebooks: set[bytes] = set()
        for run in range(arguments.runs):
            # Alternated: the one batch first in even runs, the shards first in odd ones.
            for way in ("one", "shards") if run % 2 == 0 else ("shards", "one"):
                out = Path(scratch) / f"out-{way}-{run}"
                if way == "one":
                    took = one_batch(submissions, out)
                    batches.append(took)
                    FIGURES.say(
                        f"run {run + 1}: one batch --jobs 2: {took.wall:.1f} s, CPU {took.cpu:.1f} s ({load_now()})"
                    )
                else:
                    took, merge = in_shards(submissions, out)
                    sharded.append(took)
                    merges.append(merge)
                    FIGURES.say(
                        f"run {run + 1}: {SHARDS} shards --jobs 1 side by side, then the merge: {took.wall:.1f} s, "
                        f"CPU {took.cpu:.1f} s; the merge {merge.wall:.2f} s, CPU {merge.cpu:.2f} s ({load_now()})"
                    )
                gradebooks.add((out / "gradebook.csv").read_bytes())
                shutil.rmtree(out)
        if len(gradebooks) != 1:
            FIGURES.say("WARNING: the gradebooks differ between the one batch and the shards")
        single, split, merge = median(batches), median(sharded), median(merges)
        FIGURES.say(f"medians of {arguments.runs} (wall; CPU of every process):")
        FIGURES.say(f"  one batch --jobs 2                       {single.wall:6.1f} s; CPU {single.cpu:6.1f} s")
        FIGURES.say(
            f"  {SHARDS} shards --jobs 1 side by side + merge    {split.wall:6.1f} s; CPU {split.cpu:6.1f} s: "
            f"{split.wall / single.wall - 1:+.1%} wall, {split.cpu / single.cpu - 1:+.1%} CPU "
            f"(target <= +{TARGET_SHARD_COST:.0%})"
        )
        FIGURES.say(
            f"  the merge alone, {arguments.size} hand-ins               {merge.wall:6.2f} s; CPU {merge.cpu:6.2f} s "
            f"(target < {TARGET_MERGE_SECONDS_200:.0f} s for 200, similarity included)"
        )
    if arguments.docs:
        FIGURES.write()


if __name__ == "__main__":
    main()
