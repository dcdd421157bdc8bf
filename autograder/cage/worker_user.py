"""A user of its own for each worker: how the container cage keeps student code from being root.

A grader that is root but cannot make namespaces (Docker, Gradescope, a
Kubernetes pod) shares with its workers everything that namespaces would
have hidden. Each worker therefore becomes a uid that no one else uses:
``kill(-1)``, ``ptrace`` and the per-user process limit then reach only its
own processes, and the files it may read are what the world may read. The
uid is set between fork and exec, with no supplementary groups, no new
privileges (setuid programs in the image cannot give root back) and the
worker's seccomp filter (sockets, keyrings and IPC among what it refuses); the interpreter it then runs must
be one that any user may run (``grade doctor`` says where it is not).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from autograder.cage import seccomp

# Far above any uid a system gives its people or its services, below the 32-bit limit, and a block per
# grader process: base + pid * PER_GRADER + n, for any pid Linux gives (at most 2**22). Two hand-ins never
# share one while both run.
UID_BASE = 1_800_000_000
PER_GRADER = 256
# Where every user may write on the common Linux images: what a worker leaves there is removed after it.
SHARED_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/dev/mqueue", "/var/crash")

_counter = itertools.count()
_counting = threading.Lock()


def new_uid() -> int:
    """A uid for one worker. One grader reuses its block's uids in turn; each is emptied of processes and
    files (``remove_leftovers``) as its worker's cage is removed, so never two hand-ins' at once. A uid the
    machine already gives someone (its password database names it) is passed over."""
    while True:
        with _counting:
            serial = next(_counter) % PER_GRADER
        uid = UID_BASE + os.getpid() * PER_GRADER + serial
        if not _named_user(uid):
            return uid


def _named_user(uid: int) -> bool:
    try:
        import pwd

        pwd.getpwuid(uid)
    except (ImportError, KeyError):
        return False
    return True


def spawn_options(
    uid: int, parent_death: Callable[[], None] | None, writes_only: Callable[[], None] | None = None
) -> dict[str, Any]:
    """What ``subprocess.Popen`` needs to start a worker as ``uid``: Python sets the uid, gid and groups
    in the child, then runs ``preexec_fn``: a check that the drop took, no new privileges, the worker's
    seccomp filter, ``writes_only`` (landlock.restrictor's: its own folders alone to write), and
    ``parent_death`` (client.parent_death_signal's, which a change of uid clears, so it is asked for after)."""
    worker_filter = seccomp.worker_filter()
    if worker_filter is None:
        raise OSError(f"the kit cannot keep sockets from a worker on {os.uname().machine}: no seccomp filter")

    def confine() -> None:
        check_dropped(uid)
        worker_filter.install()
        if writes_only is not None:
            writes_only()
        if parent_death is not None:
            parent_death()

    return {"user": uid, "group": uid, "extra_groups": [], "preexec_fn": confine}


def check_dropped(uid: int) -> None:
    """Raise unless this process is ``uid`` alone, every uid and gid of it, with no group and no capability
    left: run between fork and exec, where Python has just set them, so that a drop that failed in any way
    is a worker that does not start (``WorkerCouldNotStart``), never one that runs as root."""
    if os.getresuid() != (uid, uid, uid) or os.getresgid() != (uid, uid, uid) or os.getgroups():
        raise OSError(f"the worker could not become uid {uid}: it is {os.getresuid()}")
    with open("/proc/self/status", "rb") as status:
        for line in status:
            name, _, value = line.partition(b":")
            if name in (b"CapEff", b"CapPrm") and int(value.strip(), 16) != 0:
                held = f"{name.decode()} {value.strip().decode()}"
                raise OSError(f"the worker as uid {uid} still holds capabilities ({held})")


def end_processes(uid: int) -> None:
    """Kill every process of ``uid``, wherever it went; never raises, never takes long.

    Done by the grader itself, as root, never by a process of ``uid``: a process of that uid can signal
    another of it, and one stopped between fork and exec would hold up whoever waits for it for ever. Each
    process is held by a pidfd before its uid is read, so that a pid given again to someone else between the
    look and the kill is never signalled; all are stopped before any is killed, so that none forks on past
    the look, and the looks go on until one finds none (``KILL_ROUNDS`` at most).
    """
    if sys.platform.startswith("linux") and uid >= UID_BASE:
        for _ in range(KILL_ROUNDS):
            held = _hold_processes_of(uid)
            if not held:
                return
            for number in (signal.SIGSTOP, signal.SIGKILL):
                for descriptor in held:
                    with contextlib.suppress(OSError):
                        signal.pidfd_send_signal(descriptor, number)
            for descriptor in held:
                os.close(descriptor)


# A look finds a uid's processes; a process that forked between two looks is found by the next.
KILL_ROUNDS = 50


def _hold_processes_of(uid: int) -> list[int]:
    """A pidfd for each live process (zombies aside) whose real, effective, saved or file-system uid is ``uid``."""
    held = []
    with contextlib.suppress(OSError):
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                descriptor = os.pidfd_open(int(entry))
            except OSError:
                continue
            # Read after the pidfd is open, and trusted only if the process is still alive then: its pid was
            # not given to another process in between.
            if _uids_of(entry) & {uid} and _alive(descriptor):
                held.append(descriptor)
            else:
                os.close(descriptor)
    return held


def _uids_of(pid: str) -> set[int]:
    """A live process's uids (real, effective, saved, file system); none for a zombie, which runs nothing."""
    uids: set[int] = set()
    try:
        with open(f"/proc/{pid}/status", "rb") as status:
            for line in status:
                if line.startswith(b"State:") and line.split()[1:2] == [b"Z"]:
                    return set()
                if line.startswith(b"Uid:"):
                    uids = {int(field) for field in line.split()[1:]}
    except (OSError, ValueError):
        return set()
    return uids


def _alive(descriptor: int) -> bool:
    try:
        signal.pidfd_send_signal(descriptor, 0)
    except OSError:
        return False
    return True


def processes_of(uid: int) -> int:
    """How many live processes ``uid`` has now (zombies aside: they run nothing)."""
    held = _hold_processes_of(uid)
    for descriptor in held:
        os.close(descriptor)
    return len(held)


def remove_leftovers(uid: int) -> None:
    """Kill every process of ``uid`` (``end_processes``), then remove what it left in the folders every
    user may write; never raises, never takes long.

    The removal is done by one child of the grader's that has become ``uid``, so that it can remove nothing
    that user could not: a classmate's worker still running cannot swap a folder on the way for a link to something of
    root's and have the grader remove it. It walks by descriptors, never follows a link, makes the user's
    own read-only folders writable first, goes any depth without recursing, and stops after
    ``SWEEP_SECONDS`` (the child's time is the grader's: a timeout on it would start only once it is done).
    """
    if not sys.platform.startswith("linux") or uid < UID_BASE:
        return
    end_processes(uid)  # from root: once none is left, no process of the uid can stop the sweeper below

    def sweep() -> None:
        deadline = time.monotonic() + SWEEP_SECONDS
        for top in SHARED_FOLDERS:
            try:
                _sweep(os.open(top, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW), uid, deadline)
            except Exception:  # anything at all: the sweep is a courtesy, the grader goes on
                continue

    as_user(uid, sweep, timeout=SWEEP_SECONDS * 2)


def _do_nothing() -> str:
    """A program that does nothing, by its real path: a folder of links on PATH may be one the uid cannot enter."""
    return os.path.realpath(shutil.which("true") or "/bin/true")


def as_user(uid: int, action: Callable[[], None], *, timeout: float | None = None) -> None:
    """Run ``action`` in a child of the grader's that has become ``uid``, between fork and exec (then it
    execs a program that does nothing): no interpreter the uid may run is needed. Never raises; past
    ``timeout`` seconds (none by default) the child is given up."""
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(
            [_do_nothing()],
            user=uid,
            group=uid,
            extra_groups=[],
            preexec_fn=action,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={},
            cwd="/",
            timeout=timeout,
        )


# How long one worker's sweep may take, and how deep it looks into others' world-writable folders.
SWEEP_SECONDS = 5.0
LEFTOVER_DEPTH = 4


@dataclass
class _Open:
    """A folder the sweep is inside: its descriptor, the names still to look at, and how it got there."""

    descriptor: int
    names: Iterator[str]
    own: bool  # the user's: emptied, then removed
    depth: int
    name: str = ""  # in the folder above
    above: int = -1


def _sweep(top: int, uid: int, deadline: float) -> None:
    """Below the open folder ``top`` (closed here): remove whatever ``uid`` owns, whole, and look for more
    inside folders of others. A stack of open folders, not recursion: a tree of any depth is walked."""
    device = os.fstat(top).st_dev
    stack = [_Open(top, iter(os.listdir(top)), own=False, depth=0)]
    try:
        while stack and time.monotonic() < deadline:
            here = stack[-1]
            entry = next(here.names, None)
            if entry is None:
                stack.pop()
                if here.own and here.above >= 0:
                    with contextlib.suppress(OSError):
                        os.rmdir(here.name, dir_fd=here.above)
                os.close(here.descriptor)
                continue
            info = _lstat(entry, here.descriptor)
            if info is None or info.st_dev != device:
                continue
            mine = here.own or info.st_uid == uid
            if not stat.S_ISDIR(info.st_mode):
                if mine:
                    with contextlib.suppress(OSError):
                        os.unlink(entry, dir_fd=here.descriptor)
                continue
            # Someone else's folder can hold the user's files only where the user could write: every user may.
            if not mine and (here.depth >= LEFTOVER_DEPTH or not info.st_mode & stat.S_IWOTH):
                continue
            with contextlib.suppress(OSError):
                if mine:  # its own read-only folder: made writable, so that it can be emptied
                    os.chmod(entry, 0o700, dir_fd=here.descriptor)  # run as the user: a swapped link gains nothing
                inner = os.open(entry, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=here.descriptor)
                try:
                    names = iter(os.listdir(inner))
                except OSError:
                    os.close(inner)
                    continue
                stack.append(_Open(inner, names, own=mine, depth=here.depth + 1, name=entry, above=here.descriptor))
    finally:
        for left in stack:
            with contextlib.suppress(OSError):
                os.close(left.descriptor)


def _lstat(name: str, folder: int) -> os.stat_result | None:
    try:
        return os.stat(name, dir_fd=folder, follow_symlinks=False)
    except OSError:
        return None


def can_start(executable: str, uid: int) -> str:
    """Why ``executable`` cannot start as ``uid`` in the container cage, or "" when it can."""
    try:
        options = spawn_options(uid, None)  # a probe of a moment: no parent-death signal
        finished = subprocess.run(
            [executable, "-S", "-c", "pass"],
            capture_output=True,
            stdin=subprocess.DEVNULL,
            timeout=20,
            cwd="/",
            env={},
            **options,
        )
    except (OSError, subprocess.SubprocessError) as error:
        return str(error)
    finally:
        end_processes(uid)
    if finished.returncode != 0:
        said = finished.stderr.decode("utf-8", "replace").strip().splitlines()
        return said[-1] if said else f"it exited with code {finished.returncode}"
    return ""
