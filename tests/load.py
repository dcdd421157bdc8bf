"""Run a command with every core kept busy, as on a shared machine: ``python tests/load.py -- pytest``.

The kit's tests must pass on a loaded machine (they may assert limits and
outcomes, never the machine's speed). This spins one busy process per core
(or ``--cores N``) for as long as the command runs, then stops them, and
exits with the command's exit code.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

SPIN = "while True:\n    pass\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 1, help="busy processes (default: one a core)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command, after --")
    options = parser.parse_args()
    command = options.command[1:] if options.command[:1] == ["--"] else options.command
    if not command:
        parser.error("give the command to run after --")
    spinners = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(options.cores)]
    print(f"load: {options.cores} busy processes while `{' '.join(command)}` runs", file=sys.stderr, flush=True)
    try:
        return subprocess.call(command)
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


if __name__ == "__main__":
    sys.exit(main())
