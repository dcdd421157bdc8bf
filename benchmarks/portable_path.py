"""What the portable path costs: `grade` of the reference through the fork path and through the portable path
(BPE_KIT_CAGE=portable: each part's process a fresh interpreter, as on Windows), side by side.

The runs alternate, fork then portable, so the machine's other work weighs on both alike; each figure is the
median of the runs, with the CPU seconds of the graders and their workers beside it (the steady figure on a
machine others share). The public suite by default, the hidden one with ``--suite hidden``.

    python benchmarks/portable_path.py [--runs 5] [--suite public] [--docs]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from figures import Figures, add_option, children_cpu, load_now

from autograder.cage.isolation import FORCE_PORTABLE, FORCE_VARIABLE
from autograder.kit_root import KIT_ROOT as KIT

FIGURES = Figures("portable_path")
PATHS = {"fork path": None, "portable path": FORCE_PORTABLE}


def grade_once(suite: str, forced: str | None, folder: Path) -> tuple[float, float, str]:
    """One `grade` of the reference: its wall seconds, its CPU seconds and its summary line."""
    environment = {key: value for key, value in os.environ.items() if key != FORCE_VARIABLE}
    if forced:
        environment[FORCE_VARIABLE] = forced
    environment["COLUMNS"] = "400"
    cpu, started = children_cpu(), time.monotonic()
    process = subprocess.run(
        [sys.executable, "-m", "autograder.cli", str(KIT / "solutions"), "--suite", suite, "--no-cache"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=folder,
        env=environment,
        timeout=1800,
    )
    seconds, cpu = time.monotonic() - started, children_cpu() - cpu
    if process.returncode != 0:
        raise SystemExit(f"grade through the {forced or 'fork'} path failed: {process.stderr.strip()[-500:]}")
    summary = next((line for line in process.stdout.splitlines() if " checks: " in line or "Score" in line), "")
    return seconds, cpu, summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each path, alternated (default 5)")
    parser.add_argument("--suite", choices=["public", "hidden"], default="public")
    add_option(parser)
    options = parser.parse_args()
    timed: dict[str, list[tuple[float, float]]] = {name: [] for name in PATHS}
    summaries: dict[str, list[str]] = {name: [] for name in PATHS}
    FIGURES.say(f"grade of the reference with the {options.suite} suite, {options.runs} runs of each path, alternated")
    with tempfile.TemporaryDirectory(prefix="bpe-kit-portable-") as folder:
        for run in range(options.runs):
            for name, forced in PATHS.items():
                seconds, cpu, summary = grade_once(options.suite, forced, Path(folder))
                timed[name].append((seconds, cpu))
                summaries[name].append(summary.split(" Took ")[0].split(";")[0])
                print(f"  run {run + 1}, {name}: {seconds:.1f} s ({load_now()})", flush=True)
    medians = {name: statistics.median(seconds for seconds, _ in runs) for name, runs in timed.items()}
    for name, runs in timed.items():
        cpu = statistics.median(cpu for _, cpu in runs)
        FIGURES.say(f"{name:>14}: median {medians[name]:.1f} s, {cpu:.1f} s of CPU (fastest {min(runs)[0]:.1f} s)")
    ratio = medians["portable path"] / medians["fork path"]
    FIGURES.say(f"portable path / fork path: {ratio:.2f}x the wall time")
    # A timed bonus test can miss under load on either path: each path's scores, as often as each came.
    for name, seen in summaries.items():
        for summary in sorted(set(seen)):
            FIGURES.say(f"{name:>14}: {seen.count(summary)} of {len(seen)} runs: {summary}")
    if options.docs:
        FIGURES.write()


if __name__ == "__main__":
    main()
