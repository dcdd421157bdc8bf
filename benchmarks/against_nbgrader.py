"""The same class of notebook hand-ins graded by ``nbgrader autograde`` and by ``grade batch``, on this machine.

Builds the kit's nbgrader course (exercises/nbgrader) with ``--students`` hand-ins in ``submitted/``, as
nbgrader collects them: each student hands in the course's notebooks (one a part), solved; half leave them so
(correct), ``--slow`` hand in Part 5's trainer as the naive recount (right, but slow), the rest one
mistake each from the kit's bug corpus, in the cell that defines the function (buggy). Then, ``--runs``
times and the two alternated, on a fresh copy of the course each time:

- ``nbgrader autograde bpe``: each notebook run top to bottom in a kernel, its test cells calling the
  kit's ``check`` with the hidden tests in the kernel, one notebook at a time;
- ``grade batch COURSE --jobs 2``: the same ``submitted/`` folder, each hand-in graded in the cage.

It prints each run (the wall clock, and the CPU of every process it ran: on a machine others share, the
steadier figure), the medians, each side's hand-ins per second and the ratio, and then a correct
hand-in's cost in a batch's grader against the in-process limit (benchmarks/hand_in_cpu.py, whose lines
it shows as they come).

    python benchmarks/against_nbgrader.py [--students 20] [--slow 2] [--runs 5] [--jobs 2]

nbgrader comes with the kit's dev extra; its kernel is Jupyter's ``python3``, which must import the kit.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from batch_throughput import batch_command
from figures import Figures, add_option, children_cpu, load_now

from autograder.authoring.notebooks import NBGRADER_ASSIGNMENT, NBGRADER_COURSE
from autograder.kit_root import KIT_ROOT

sys.path.insert(0, str(KIT_ROOT / "tests" / "kit" / "support"))
from bug_corpus import BUGS

FIGURES = Figures("against_nbgrader")

TARGET_RATIO = 25.0  # grade batch's hand-ins per second over nbgrader's, on the same machine
TARGET_OVER_LIMIT = 1.3  # a correct hand-in's CPU in a batch's grader over the in-process limit
SLOW = BUGS["fast trainer is the naive recount (right, but slow)"]


def with_change(notebook: dict, function: str, code: str) -> dict:
    """``notebook`` with ``code`` appended to the cell that defines ``function`` (its solution cell), as a
    student who rewrote it there: the later ``def`` is the one that counts."""
    for cell in notebook["cells"]:
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == function:
            source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            cell["source"] = source + "\n\n" + code.strip() + "\n"
            return notebook
    raise SystemExit(f"no cell defines {function}: the course's notebooks changed, and so must this benchmark")


def write_class(course: Path, students: int, slow: int) -> dict[str, str]:
    """The course folder with ``students`` hand-ins in submitted/: each student's kind, by id."""
    shutil.copytree(NBGRADER_COURSE, course)
    source = course / "source" / NBGRADER_ASSIGNMENT
    # Kept out of the hand-ins' changes: a bug in Part 5 would be a slow hand-in of another kind.
    bugs = itertools.cycle(sorted((name, bug) for name, bug in BUGS.items() if bug[0] != "fast_bpe"))
    kinds: dict[str, str] = {}
    for number in range(students):
        student = f"s{number + 1:03d}"
        handed_in = course / "submitted" / student / NBGRADER_ASSIGNMENT
        shutil.copytree(source, handed_in)
        if number < slow:
            kinds[student], change = "slow", SLOW
        elif number < slow + (students - slow) // 2:
            kinds[student], change = "buggy", next(bugs)[1]
        else:
            kinds[student], change = "correct", None
        if change is not None:
            module, function, code = change
            path = handed_in / f"{module}.ipynb"
            notebook = with_change(json.loads(path.read_text(encoding="utf-8")), function, code)
            path.write_text(json.dumps(notebook, indent=1) + "\n", encoding="utf-8")
    return kinds


def timed(command: list[str], cwd: Path) -> tuple[float, float]:
    """Wall seconds of ``command``, and CPU seconds of every process it ran."""
    # nbgrader runs programs of its environment (alembic, for its gradebook) as if it were the active one.
    environment = os.environ | {"PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])}
    started, cpu = time.perf_counter(), children_cpu()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=environment)
    seconds, cpu = time.perf_counter() - started, children_cpu() - cpu
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[:4])} failed ({done.returncode}): {done.stderr[-3000:]}")
    return seconds, cpu


def nbgrader(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "nbgrader", *arguments]


def correct_totals(out: Path, kinds: dict[str, str]) -> set[str]:
    """The totals the batch gave the correct hand-ins: one value, full marks with every bonus, if it graded
    them as the course's tests do."""
    with (out / "gradebook.csv").open(encoding="utf-8", newline="") as stream:
        return {row["total"] for row in csv.DictReader(stream) if kinds.get(row["id"]) == "correct"}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--students", type=int, default=20)
    parser.add_argument("--slow", type=int, default=2, help="hand-ins whose Part 5 trainer is the naive recount")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    add_option(parser)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        built = Path(scratch) / "course"
        kinds = write_class(built, arguments.students, arguments.slow)
        counted = {kind: list(kinds.values()).count(kind) for kind in sorted(set(kinds.values()))}
        notebooks = len(list((built / "source" / NBGRADER_ASSIGNMENT).glob("*.ipynb")))
        FIGURES.say(
            f"class of {arguments.students} notebook hand-ins ({notebooks} notebooks each), nbgrader layout: "
            + ", ".join(f"{count} {kind}" for kind, count in counted.items())
        )
        # nbgrader's gradebook holds the assignment once it is generated: not timed, as an instructor does it once.
        timed(nbgrader("generate_assignment", NBGRADER_ASSIGNMENT, "--force"), built)
        seconds: dict[str, list[float]] = {"nbgrader": [], "batch": []}
        cpus: dict[str, list[float]] = {"nbgrader": [], "batch": []}
        for run in range(arguments.runs):
            for way in ("nbgrader", "batch") if run % 2 == 0 else ("batch", "nbgrader"):
                course = Path(scratch) / f"{way}-{run}"
                shutil.copytree(built, course)
                if way == "nbgrader":
                    took, cpu = timed(nbgrader("autograde", NBGRADER_ASSIGNMENT), course)
                else:
                    out = Path(scratch) / f"graded-{run}"
                    took, cpu = timed(batch_command(course, out, "--jobs", str(arguments.jobs)), Path(scratch))
                    totals = correct_totals(out, kinds)
                    if len(totals) != 1:
                        FIGURES.say(f"WARNING: the correct hand-ins got different totals: {sorted(totals)}")
                    shutil.rmtree(out)
                seconds[way].append(took)
                cpus[way].append(cpu)
                shutil.rmtree(course)
                label = "nbgrader autograde" if way == "nbgrader" else f"grade batch --jobs {arguments.jobs}"
                FIGURES.say(f"run {run + 1}: {label}: {took:.1f} s, CPU {cpu:.1f} s ({load_now()})")
        theirs, ours = statistics.median(seconds["nbgrader"]), statistics.median(seconds["batch"])
        their_cpu, our_cpu = statistics.median(cpus["nbgrader"]), statistics.median(cpus["batch"])
        rate_theirs, rate_ours = arguments.students / theirs, arguments.students / ours
        FIGURES.say(f"medians of {arguments.runs} (wall; CPU of every process):")
        FIGURES.say(
            f"  nbgrader autograde       {theirs:7.1f} s, {rate_theirs:6.3f} hand-ins/s; CPU {their_cpu:7.1f} s"
        )
        FIGURES.say(
            f"  grade batch --jobs {arguments.jobs}    {ours:7.1f} s, {rate_ours:6.3f} hand-ins/s; CPU {our_cpu:7.1f} s"
        )
        FIGURES.say(
            f"  grade batch's rate over nbgrader's: {rate_ours / rate_theirs:.1f}x (target >= {TARGET_RATIO:g}x); "
            f"CPU a hand-in: nbgrader's {their_cpu / our_cpu:.1f}x grade batch's"
        )
    # A correct hand-in's cost against the in-process limit, as hand_in_cpu.py measures it.
    limit = subprocess.run(
        [sys.executable, str(Path(__file__).parent / "hand_in_cpu.py"), "--hand-ins", "20"],
        capture_output=True,
        text=True,
    )
    if limit.returncode != 0:
        raise SystemExit(f"hand_in_cpu.py failed: {limit.stderr[-2000:]}")
    for line in limit.stdout.splitlines():
        FIGURES.say(line + (f" (target <= {TARGET_OVER_LIMIT}x)" if line.startswith("ratio:") else ""))
    if arguments.docs:
        FIGURES.write()


if __name__ == "__main__":
    main()
