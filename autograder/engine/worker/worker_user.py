"""A user of its own for each worker: how the container cage keeps student code from being root.

A grader that is root but cannot make namespaces (Docker, Gradescope, a
Kubernetes pod) shares with its workers everything that namespaces would
have hidden. Each worker therefore becomes a uid that no one else uses:
``kill(-1)``, ``ptrace`` and the per-user process limit then reach only its
own processes, and the files it may read are what the world may read. The
uid is set between fork and exec, with no supplementary groups, no new
privileges (setuid programs in the image cannot give root back) and the
seccomp filter that takes sockets away; the interpreter it then runs must
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
from collections.abc import Callable
from typing import Any

from autograder.engine.worker import seccomp

# Far above any uid a system gives its people or its services, below the 32-bit limit, and a block per
# grader process: base + pid * PER_GRADER + n. Two hand-ins never share one while both run.
UID_BASE = 1_800_000_000
PER_GRADER = 256
# Where every user may write on the common Linux images: what a worker leaves there is removed after it.
SHARED_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/dev/mqueue", "/var/crash")

_counter = itertools.count()
_counting = threading.Lock()


def new_uid() -> int:
    """A uid for one worker. One grader reuses its block's uids in turn; each is emptied of processes
    (``end_processes``) before its worker's cage is removed, so never two hand-ins' at once."""
    with _counting:
        serial = next(_counter) % PER_GRADER
    return UID_BASE + (os.getpid() % 4_000_000) * PER_GRADER + serial


def spawn_options(uid: int) -> dict[str, Any]:
    """What ``subprocess.Popen`` needs to start a worker as ``uid``: Python sets the uid, gid and groups
    in the child, then runs ``preexec_fn``: no new privileges, the socket filter, and the parent-death
    signal (which a change of uid clears, so it is asked for after)."""
    no_sockets = seccomp.no_sockets()
    if no_sockets is None:
        raise OSError(f"the kit cannot keep sockets from a worker on {os.uname().machine}: no seccomp filter")
    parent_death = _parent_death()

    def confine() -> None:
        no_sockets.install()
        if parent_death is not None:
            parent_death()

    return {"user": uid, "group": uid, "extra_groups": [], "preexec_fn": confine}


def _parent_death() -> Callable[[], None] | None:
    import ctypes

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None

    def set_signal() -> None:
        prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG

    return set_signal


def end_processes(uid: int) -> None:
    """Kill every process of ``uid``, wherever it went; never raises.

    A child of the grader's becomes ``uid`` and, before it execs, sends SIGKILL to all it may signal: that
    uid's processes and none else (it is not root), itself spared. Done between fork and exec so that it
    needs no interpreter the uid may run, only a program that does nothing.
    """
    if not sys.platform.startswith("linux") or uid < UID_BASE:
        return

    def kill_all() -> None:
        with contextlib.suppress(OSError):
            os.kill(-1, signal.SIGKILL)

    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(
            [shutil.which("true") or "/bin/true"],
            user=uid,
            group=uid,
            extra_groups=[],
            preexec_fn=kill_all,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=30,
            env={},
            cwd="/",
        )


def remove_leftovers(uid: int) -> None:
    """Remove what ``uid`` left in the folders every user may write; never raises.

    Done by a child of the grader's that has become ``uid`` (after every process of it has ended), so that
    it can remove nothing that user could not: a classmate's worker still running cannot swap a folder on
    the way for a link to something of root's and have the grader remove it. It walks by descriptors and
    never follows a link.
    """
    if not sys.platform.startswith("linux") or uid < UID_BASE:
        return

    def remove_own() -> None:
        for top in SHARED_FOLDERS:
            with contextlib.suppress(OSError):
                _remove_owned(os.open(top, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW), uid, depth=0)

    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(
            [shutil.which("true") or "/bin/true"],
            user=uid,
            group=uid,
            extra_groups=[],
            preexec_fn=remove_own,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=120,
            env={},
            cwd="/",
        )


# How deep the walk for leftovers goes into folders that are not the worker's own (its own go whole).
LEFTOVER_DEPTH = 8


def _remove_owned(folder: int, uid: int, *, depth: int) -> None:
    """Below the open folder ``folder`` (closed here): remove each entry ``uid`` owns, look inside the others."""
    try:
        device = os.fstat(folder).st_dev
        for name in os.listdir(folder):
            with contextlib.suppress(OSError):
                info = os.stat(name, dir_fd=folder, follow_symlinks=False)
                if info.st_dev != device:
                    continue
                if info.st_uid == uid:
                    if stat.S_ISDIR(info.st_mode):
                        shutil.rmtree(name, dir_fd=folder, ignore_errors=True)
                    else:
                        os.unlink(name, dir_fd=folder)
                elif stat.S_ISDIR(info.st_mode) and depth < LEFTOVER_DEPTH:
                    inner = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=folder)
                    _remove_owned(inner, uid, depth=depth + 1)
    finally:
        os.close(folder)


def can_start(executable: str, uid: int) -> str:
    """Why ``executable`` cannot start as ``uid`` in the container cage, or "" when it can."""
    try:
        options = spawn_options(uid)
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
