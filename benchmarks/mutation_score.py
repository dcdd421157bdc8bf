"""How sharp the hidden suite is: the share of single-point mutants of the solutions that it kills.

Makes every mutant of each part's solution regions (``autograder/authoring/mutants.py``),
grades each as a hand-in of that one module with the part's hidden tests (``grade
batch --part``), and prints per module: mutants, killed (graded below the reference's
score), equivalent (listed with a reason in ``tests/kit/support/equivalent_mutants.txt``) and
survivors. A survivor that is not listed is printed whole: either the tests miss a
behaviour, or it belongs in the list with its reason. Target: at least 99% of the
non-equivalent mutants killed in every part.

    python benchmarks/mutation_score.py [--part bpe] [--jobs 2]
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from figures import Figures, add_option

from autograder.authoring.mutants import mutants_of
from autograder.kit_root import KIT_ROOT
from autograder.parts import PARTS

FIGURES = Figures("mutation_score")

EQUIVALENTS = KIT_ROOT / "tests" / "kit" / "support" / "equivalent_mutants.txt"
TARGET = 99.0


def equivalents() -> dict[str, str]:
    """Listed equivalent mutants: "module | label | reason" a line; # starts a comment."""
    listed = {}
    for line in EQUIVALENTS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            module, label, reason = (part.strip() for part in line.split(" | ", 2))
            listed[f"{module} | {label}"] = reason
    return listed


def reference_score(module: str) -> float:
    graded = subprocess.run(
        [
            sys.executable,
            "-m",
            "autograder.cli",
            str(KIT_ROOT / "solutions"),
            "--part",
            module,
            "--format",
            "json",
            "--no-cache",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(json.loads(graded.stdout)["score"])


def score_module(module: str, jobs: int, listed: dict[str, str]) -> tuple[int, int, int, list[str]]:
    """(mutants, killed, equivalent, unlisted survivors) for one part's module."""
    mutants = mutants_of((KIT_ROOT / "solutions" / f"{module}.py").read_text(encoding="utf-8"))
    if not mutants:
        return 0, 0, 0, []
    full = reference_score(module)
    with tempfile.TemporaryDirectory() as scratch:
        hand_ins = Path(scratch) / "mutants"
        for index, mutant in enumerate(mutants):
            folder = hand_ins / f"m{index:04d}"
            folder.mkdir(parents=True)
            (folder / f"{module}.py").write_text(mutant.source, encoding="utf-8")
        out = Path(scratch) / "graded"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "autograder.cli",
                "batch",
                str(hand_ins),
                "-o",
                str(out),
                "--part",
                module,
                "--jobs",
                str(jobs),
                "--quiet",
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        with (out / "gradebook.csv").open(encoding="utf-8", newline="") as stream:
            totals = {row["id"]: float(row["total"] or 0) for row in csv.DictReader(stream)}
    killed = equivalent = 0
    survivors = []
    for index, mutant in enumerate(mutants):
        key = f"{module} | {mutant.label}"
        if totals[f"m{index:04d}"] < full - 1e-9:
            killed += 1
        elif key in listed:
            equivalent += 1
        else:
            survivors.append(key)
    return len(mutants), killed, equivalent, survivors


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--part", action="append", choices=[part.module for part in PARTS])
    parser.add_argument("--jobs", type=int, default=2)
    add_option(parser)
    options = parser.parse_args()
    listed = equivalents()
    started = time.monotonic()
    unlisted: list[str] = []
    below_target = []
    for part in PARTS:
        if options.part and part.module not in options.part:
            continue
        total, killed, equivalent, survivors = score_module(part.module, options.jobs, listed)
        judged = total - equivalent
        share = 100.0 * killed / judged if judged else 100.0
        FIGURES.say(
            f"{part.module}: {total} mutants, {killed} killed, {equivalent} equivalent, "
            f"{len(survivors)} survivors: {share:.1f}% of the non-equivalent killed (target >= {TARGET:g}%)"
        )
        unlisted += survivors
        if share < TARGET:
            below_target.append(part.module)
    for survivor in unlisted:
        FIGURES.say(f"  survivor, not listed as equivalent: {survivor}")
    FIGURES.say(f"in {time.monotonic() - started:.0f} s")
    if options.docs:
        FIGURES.write()
    if below_target or unlisted:
        sys.exit(1)


if __name__ == "__main__":
    main()
