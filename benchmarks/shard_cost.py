"""What splitting a class into shards costs on one machine: one batch against its shards and the merge.

Builds a class (default 200, as batch_throughput.py builds it) and grades it with the real CLI, on the
same cores, ``--runs`` times each way, the ways alternated so that the machine's drift falls on both:

- one batch, ``grade batch --jobs 2``;
- two shards of ``--jobs 1`` started side by side (``--shard 0/2`` and ``--shard 1/2``), then the merge
  (``--merge``) once both have ended: the time from the shards' start to the merge's end.

It prints each run, then the medians: the shards and the merge against the one batch, and the merge
alone (it grades nothing; it reads every hand-in and result, runs the similarity measure over the class
and writes every report). Every run's gradebook must be the one batch's.

    python benchmarks/shard_cost.py [--size 200] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from batch_throughput import batch_command, grade_class, write_mixed_class
from figures import Figures, add_option, load_now

FIGURES = Figures("shard_cost")

SHARDS = 2
TARGET_SHARD_COST = 0.05  # the shards and the merge, over one batch on the same cores
TARGET_MERGE_SECONDS_200 = 2.0


def grade_in_shards(submissions: Path, out: Path) -> tuple[float, float]:
    """Wall seconds of the shards side by side then the merge, and of the merge alone."""
    started = time.perf_counter()
    shards = [
        subprocess.Popen(
            batch_command(submissions, out, "--jobs", "1", "--shard", f"{index}/{SHARDS}"),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for index in range(SHARDS)
    ]
    for index, shard in enumerate(shards):
        _, errors = shard.communicate()
        if shard.returncode != 0:
            raise SystemExit(f"shard {index}/{SHARDS} failed ({shard.returncode}): {errors.decode()[-2000:]}")
    merge_started = time.perf_counter()
    merged = subprocess.run(batch_command(submissions, out, "--merge"), capture_output=True, text=True)
    ended = time.perf_counter()
    if merged.returncode != 0:
        raise SystemExit(f"the merge failed ({merged.returncode}): {merged.stderr[-2000:]}")
    return ended - started, ended - merge_started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    add_option(parser)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        submissions = Path(scratch) / "submissions"
        FIGURES.say(write_mixed_class(submissions, arguments.size))
        one_batch: list[float] = []
        sharded: list[float] = []
        merges: list[float] = []
        gradebooks: set[bytes] = set()
        for run in range(arguments.runs):
            # Alternated: the one batch first in even runs, the shards first in odd ones.
            for way in ("one", "shards") if run % 2 == 0 else ("shards", "one"):
                out = Path(scratch) / f"out-{way}-{run}"
                if way == "one":
                    seconds, _ = grade_class(submissions, out, 2)
                    one_batch.append(seconds)
                    FIGURES.say(f"run {run + 1}: one batch --jobs 2: {seconds:.1f} s ({load_now()})")
                else:
                    seconds, merge = grade_in_shards(submissions, out)
                    sharded.append(seconds)
                    merges.append(merge)
                    FIGURES.say(
                        f"run {run + 1}: {SHARDS} shards --jobs 1 side by side, then the merge: {seconds:.1f} s, "
                        f"of which the merge {merge:.2f} s ({load_now()})"
                    )
                gradebooks.add((out / "gradebook.csv").read_bytes())
        if len(gradebooks) != 1:
            FIGURES.say("WARNING: the gradebooks differ between the one batch and the shards")
        single, split, merge = statistics.median(one_batch), statistics.median(sharded), statistics.median(merges)
        FIGURES.say(f"medians of {arguments.runs}:")
        FIGURES.say(f"  one batch --jobs 2                     {single:6.1f} s")
        FIGURES.say(
            f"  {SHARDS} shards --jobs 1 side by side + merge  {split:6.1f} s = {split / single - 1:+.1%} "
            f"(target <= +{TARGET_SHARD_COST:.0%})"
        )
        FIGURES.say(
            f"  the merge alone, {arguments.size} hand-ins             {merge:6.2f} s "
            f"(target < {TARGET_MERGE_SECONDS_200:.0f} s for 200, similarity included)"
        )
    if arguments.docs:
        FIGURES.write()


if __name__ == "__main__":
    main()
