"""What one caged worker costs to start: the cage built, the interpreter up, a first call answered, all removed.

Times it (median of ``--runs``) in the cage this machine builds (bubblewrap where it can) and in the
process cage (no sandbox; what a machine without bubblewrap gets), each in a fresh process since the
cage is chosen once per process, and prints both and their difference. A batch starts one worker
per hand-in (more after a timeout or a crash). Figures are from one run on this machine: compare them
with each other, not with another machine's.

    python benchmarks/worker_start.py [--runs 30]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from figures import Figures, add_option

from autograder.cage.cage import Cage
from autograder.cage.cage_limits import CageLimits
from autograder.cage.client import Worker
from autograder.cage.inside import codec, protocol
from autograder.cage.isolation import FORCE_PROCESS_CAGE, FORCE_VARIABLE, Isolation, isolation
from autograder.hand_in.loading import load
from autograder.kit_root import KIT_ROOT

FIGURES = Figures("worker_start")


def start_times(runs: int) -> list[float]:
    """Milliseconds for each of ``runs`` workers, in this process's cage."""
    limits = CageLimits()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "student"
        folder.mkdir()
        (folder / "bpe.py").write_bytes((KIT_ROOT / "solutions" / "bpe.py").read_bytes())
        submission = load(folder)
        call = {
            "op": protocol.CALL,
            "module": "bpe",
            "function": "merge_pair",
            "payload": codec.call_payload([["a", "b"], ("a", "b")], {}),
        }
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            cage = Cage.create(submission.files, limits=limits)
            worker = Worker(cage, limits, submission.worker_script())
            try:
                worker.start()
                reply = worker.request(call, timeout=30)
                if not reply.ok or codec.from_plain(reply.message["value"]) != ["ab"]:
                    raise RuntimeError(f"merge_pair answered wrongly, so its time means nothing: {reply.message}")
            finally:
                worker.stop()
                cage.remove()
            times.append((time.perf_counter() - started) * 1000)
    return times


def measure_in_child(runs: int, *, process_cage: bool) -> tuple[str, list[float]]:
    environment = dict(os.environ)
    if process_cage:
        environment[FORCE_VARIABLE] = FORCE_PROCESS_CAGE
    finished = subprocess.run(
        [sys.executable, __file__, "--runs", str(runs), "--child"],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    answer = json.loads(finished.stdout)
    return answer["cage"], answer["times"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    add_option(parser)
    arguments = parser.parse_args()
    if arguments.child:
        level = isolation()
        times = start_times(arguments.runs) if level is not Isolation.NONE else []
        print(json.dumps({"cage": level.value, "times": times}))
        return
    medians = {}
    for process_cage in (False, True):
        cage, times = measure_in_child(arguments.runs, process_cage=process_cage)
        if not times:  # root without a cage that drops root: no student code runs, so nothing to time
            FIGURES.say(f"{cage}: no worker starts here (the process cage runs no student code as root)")
            continue
        medians[process_cage] = statistics.median(times)
        FIGURES.say(
            f"{cage}: median {medians[process_cage]:.0f} ms to start a worker and answer a first call "
            f"(fastest {min(times):.0f} ms, slowest {max(times):.0f} ms, {len(times)} runs)"
        )
    if len(medians) == 2 and medians[False] != medians[True]:
        FIGURES.say(
            f"the sandbox adds {medians[False] - medians[True]:+.0f} ms a worker "
            f"({medians[False] / medians[True]:.2f}x the process cage)"
        )
    if arguments.docs:
        FIGURES.write()


if __name__ == "__main__":
    main()
