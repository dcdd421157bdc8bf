"""Where root's cages go: a temporary folder that every worker's user can pass through, whatever TMPDIR is.

A worker that is a user of its own starts its interpreter on the cage's ``runtime/bootstrap.pyc`` by its
path, so each folder on that path must let other users pass (``o+x``). Harnesses often give each run a
private TMPDIR (mode 0700, root's): cages made there could never start, and every test of an honest
hand-in would be a grader error. The grader then makes its cages in the first of the usual temporary
folders that others may pass through, or refuses before grading anything, naming the folder and the fix.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

# Tried after TMPDIR, in this order: the folders every Linux image has for temporary files.
FALLBACKS = (Path("/tmp"), Path("/var/tmp"), Path("/dev/shm"))


# How the refusal begins: the probe keeps it as a string (isolation.Probe), and the notice and the doctor
# know it by this.
SAID = "the workers' users cannot pass through"


class CagesUnreachable(Exception):
    """No temporary folder here lets the workers' users reach their cages; the message names it and the fix."""


def closed_on_the_way(folder: Path) -> Path | None:
    """The first folder on the way to ``folder`` (itself included) that other users may not pass through,
    or None when they may pass through all; a folder that cannot be looked at counts as closed."""
    resolved = Path(os.path.realpath(folder))
    for step in [*reversed(resolved.parents), resolved]:
        try:
            mode = os.stat(step).st_mode
        except OSError:
            return step
        if not stat.S_ISDIR(mode) or not mode & stat.S_IXOTH:
            return step
    return None


def reachable_temp() -> Path:
    """The temporary folder root's cages go in: TMPDIR's, when others may pass through it, else the first
    of ``FALLBACKS`` that they may. ``CagesUnreachable`` when none is."""
    temp = Path(tempfile.gettempdir())
    closed = closed_on_the_way(temp)
    if closed is None:
        return temp
    for fallback in FALLBACKS:
        if closed_on_the_way(fallback) is None:
            return fallback
    mode = _mode(closed)
    raise CagesUnreachable(
        f"{SAID} {closed} (mode {mode}) to reach their cages in {temp}, and no "
        f"other temporary folder lets them: set TMPDIR to a folder every user may pass through "
        f"(chmod o+x {closed}, or TMPDIR=/tmp)"
    )


def _mode(folder: Path) -> str:
    try:
        return f"{stat.S_IMODE(os.stat(folder).st_mode):o}"
    except OSError:
        return "unknown: it cannot be looked at"
