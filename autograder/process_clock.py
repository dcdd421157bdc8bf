"""How long this process has run: the wall time a command reports is the user's wait, from its very start."""

from __future__ import annotations

import os
import time
from pathlib import Path

# Where the process's start cannot be read, the clock starts when the kit is first imported: later than the
# user's keypress by the interpreter's start alone.
_IMPORTED = time.monotonic()


def seconds_since_start() -> float:
    """Wall seconds since this process started: on Linux from its start time in /proc (the interpreter's start
    and every import included), elsewhere since the kit was imported."""
    try:
        fields = Path("/proc/self/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22, counted after the name's ")"
        return max(time.clock_gettime(time.CLOCK_BOOTTIME) - started, 0.0)
    except (OSError, ValueError, IndexError, AttributeError):
        return time.monotonic() - _IMPORTED
