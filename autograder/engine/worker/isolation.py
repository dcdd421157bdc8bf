"""How well this machine can cage a worker, decided once per grader process.

Three levels, best first:

- ``SANDBOX_AS_ROOT``: the grader is root and bubblewrap is installed. The
  worker gets a file system built from an allow-list, its own PID, network,
  IPC and UTS namespaces, no capabilities, an unprivileged user id of its
  own, and control groups that cap memory and processes for its whole tree.
- ``SANDBOX_USER_NS``: bubblewrap through unprivileged user namespaces (a
  laptop, a shared server). The same view and namespaces; the worker keeps
  the grader's user id outside the namespace, and only rlimits cap it.
- ``PROCESS``: a separate interpreter with rlimits, and nothing else: it can
  read what the grader's user can. Fine for a student grading their own
  work; ``grade batch`` and the Gradescope runner refuse it unless told.
"""

from __future__ import annotations

import enum
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path


class Isolation(enum.Enum):
    SANDBOX_AS_ROOT = "sandbox as root"
    SANDBOX_USER_NS = "sandbox in a user namespace"
    PROCESS = "process only"

    @property
    def full(self) -> bool:
        return self is not Isolation.PROCESS


# Set by the grader's --run-student-code-uncaged flag (and only by it): the process cage is then accepted.
UNCAGED_FLAG = "--run-student-code-uncaged"
# In a Gradescope package built with that flag: its runner grades without the sandbox too.
UNCAGED_MARKER = ".run-student-code-uncaged"


# Only ever a step down, for benchmarks and debugging: `grade batch` and Gradescope then refuse to grade
# without UNCAGED_FLAG, as on a machine without bubblewrap.
FORCE_VARIABLE = "BPE_KIT_CAGE"
FORCE_PROCESS_CAGE = "process"


def forced_process_cage() -> bool:
    return os.environ.get(FORCE_VARIABLE) == FORCE_PROCESS_CAGE


def bubblewrap() -> str | None:
    return shutil.which("bwrap") if sys.platform.startswith("linux") else None


_probed: list[Isolation] = []  # the answer, once known
_probing = threading.Lock()


def isolation() -> Isolation:
    """The best cage this machine can build, probed once per process (see ``_probe``).

    ``grade`` starts the probe in a thread while it reads the hand-in; a caller that comes while it runs
    waits for that answer instead of probing a second time.
    """
    with _probing:
        if not _probed:
            _probed.append(_probe())
        return _probed[0]


def _probe() -> Isolation:
    """Build the worker's own cage around ``python -c pass``.

    The probe is the real command, so whatever stops it here (user namespaces switched off, an AppArmor
    rule against them, a missing interpreter folder) would have stopped the worker too.
    """
    from autograder.engine.worker import bubblewrap as sandbox

    bwrap = bubblewrap()
    if bwrap is None or forced_process_cage():
        return Isolation.PROCESS
    as_root = os.geteuid() == 0
    try:
        with tempfile.TemporaryDirectory(prefix="bpe-kit-probe-") as empty:
            probe = sandbox.command(
                bwrap,
                runtime=Path(empty),
                submission=Path(empty),
                scratch_bytes=1 << 20,
                as_root=as_root,
                environment={},
                python_arguments=["-c", "pass"],
            )
            finished = subprocess.run(probe, capture_output=True, timeout=20, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return Isolation.PROCESS
    if finished.returncode != 0:
        return Isolation.PROCESS
    return Isolation.SANDBOX_AS_ROOT if as_root else Isolation.SANDBOX_USER_NS


def isolation_notice() -> str | None:
    """One line on what this platform cannot isolate, or None when the full cage is in place."""
    level = isolation()
    if level.full:
        return None
    if not sys.platform.startswith("linux"):
        why = "this is not Linux"
    elif bubblewrap() is None:
        why = "bubblewrap is not installed (apt-get install bubblewrap)"
    elif forced_process_cage():
        why = f"{FORCE_VARIABLE}={FORCE_PROCESS_CAGE} is set"
    else:
        why = "this kernel does not let bubblewrap make namespaces"
    return (
        f"note: student code runs in a separate interpreter with resource limits but no sandbox ({why}): "
        "it can read the files your user can read"
    )


class CageRequired(Exception):
    """Other people's code would run without the full cage, and the instructor did not accept that."""


def require_full_cage(*, uncaged_accepted: bool) -> None:
    """Refuse to grade other people's code without the sandbox, unless the instructor said so."""
    if isolation().full or uncaged_accepted:
        return
    raise CageRequired(
        f"{isolation_notice()}. Grading other people's code this way lets each of them read the hidden tests, "
        f"the solutions and each other's work: install bubblewrap, or pass {UNCAGED_FLAG} to accept that risk"
    )
