"""The benchmarks' measuring parts still measure what they say (the suite does not run the benchmarks)."""

from __future__ import annotations

import subprocess
import sys

from autograder.engine.suites import KIT_ROOT


def test_the_throughput_limit_is_a_full_marks_grading_of_the_reference():
    """batch_throughput's limit stands an in-process worker in for the cage: it must give the reference
    full marks (it stops the benchmark otherwise), whatever the grading session asks of its worker."""
    script = (
        "import sys\n"
        f"sys.path.insert(0, {str(KIT_ROOT / 'benchmarks')!r})\n"
        "import batch_throughput\n"
        "print(batch_throughput.in_process_seconds(rounds=1) > 0)\n"
    )
    process = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert process.returncode == 0, process.stderr[-2000:]
    assert process.stdout.strip() == "True"
