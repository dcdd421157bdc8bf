"""Sweep a worker's uid of the kernel objects that outlive a process: keys, and System V IPC.

The seccomp filter refuses ``add_key``, ``keyctl`` and the System V calls,
so a worker makes none; this sweep is the second lock, for what an earlier
kit (or a kernel where the filter could not be set) let a uid leave. A key
lives in its uid's user keyring, which the kernel keeps after the uid's last
process ends; a System V queue, semaphore set or shared memory segment lives
in its IPC namespace (the container cage's is the machine's). Either is a
channel to whoever is graded next, and outlives even the container.

The sweep runs in a child of the grader's that has become the uid (as
worker_user does for files): it can remove only what that uid may remove,
and needs no capability (root in a container has no CAP_SYS_ADMIN to remove
another user's IPC objects). POSIX message queues are files of /dev/mqueue,
which the container cage's file sweep removes; in the sandbox, its IPC
namespace ends with it.
"""

from __future__ import annotations

import contextlib
import ctypes
import sys
from collections.abc import Callable
from pathlib import Path

from autograder.cage import worker_user

# linux/keyctl.h
KEYCTL_CLEAR, KEYCTL_INVALIDATE, KEYCTL_GET_PERSISTENT = 7, 21, 22
KEY_SPEC_USER_KEYRING, KEY_SPEC_USER_SESSION_KEYRING = -4, -5
IPC_RMID = 0
SYSTEM_V = {"msg": "msqid", "sem": "semid", "shm": "shmid"}  # /proc/sysvipc/<file>: the column of ids


def sweep(uid: int) -> None:
    """Remove every key and System V IPC object of ``uid``; never raises, never takes long."""
    if not sys.platform.startswith("linux"):
        return
    ipc = _ipc_of(uid)  # read by the grader: /proc/sysvipc lists every object, whoever reads it
    if not ipc and not _has_keys(uid):
        return  # the common case, told by two reads: no child started (a fork of the whole grader)
    try:
        remove = _removers()
    except (OSError, AttributeError):
        return

    def as_the_user() -> None:
        _clear_keys(remove, uid)
        for kind, number in ipc:
            with contextlib.suppress(Exception):
                remove[kind](number)

    worker_user.as_user(uid, as_the_user, timeout=30)


def _removers() -> dict[str, Callable[..., int]]:
    """The C library's calls, looked up before the fork: the child between fork and exec only calls them."""
    libc = ctypes.CDLL(None, use_errno=True)
    keyctl = libc.syscall
    keyctl.restype = ctypes.c_long
    number = _keyctl_number()

    def key(*arguments: int) -> int:
        return int(keyctl(ctypes.c_long(number), *(ctypes.c_long(argument) for argument in arguments)))

    return {
        "key": key,
        "msg": lambda identifier: int(libc.msgctl(identifier, IPC_RMID, None)),
        "sem": lambda identifier: int(libc.semctl(identifier, 0, IPC_RMID)),
        "shm": lambda identifier: int(libc.shmctl(identifier, IPC_RMID, None)),
    }


def _keyctl_number() -> int:
    from autograder.cage import seccomp

    worker_filter = seccomp.worker_filter()
    if worker_filter is None:
        raise OSError("no call number for keyctl on this machine")
    return seccomp.call_numbers()[worker_filter.architecture.name]["keyctl"]


def _clear_keys(remove: dict[str, Callable[..., int]], uid: int) -> None:
    """As ``uid``: empty its persistent, user and user-session keyrings (a key no keyring holds is then
    collected), and invalidate every key of its that /proc/keys shows it, wherever it is linked."""
    key = remove["key"]
    persistent = key(KEYCTL_GET_PERSISTENT, -1, KEY_SPEC_USER_KEYRING)
    if persistent > 0:
        key(KEYCTL_CLEAR, persistent)
    key(KEYCTL_CLEAR, KEY_SPEC_USER_KEYRING)
    key(KEYCTL_CLEAR, KEY_SPEC_USER_SESSION_KEYRING)
    with contextlib.suppress(OSError, ValueError), open("/proc/keys", encoding="ascii", errors="replace") as listed:
        for line in listed:
            fields = line.split()
            if len(fields) > 5 and fields[5] == str(uid):
                key(KEYCTL_INVALIDATE, int(fields[0], 16))


def _has_keys(uid: int) -> bool:
    """Whether ``uid`` has keys charged to its quota (what add_key makes), from /proc/key-users, which
    lists every user with keys to root: ``<uid>: <usage> <keys>/<instantiated> <quota keys>/<max> ...``."""
    try:
        lines = Path("/proc/key-users").read_text(encoding="ascii").splitlines()
    except OSError:
        return True  # cannot tell: sweep
    for line in lines:
        fields = line.replace(":", " ").split()
        if len(fields) >= 4 and fields[0] == str(uid):
            return fields[3].split("/")[0] != "0"
    return False


def _ipc_of(uid: int) -> list[tuple[str, int]]:
    """The System V objects ``uid`` owns or made, as (kind, id), from /proc/sysvipc."""
    found: list[tuple[str, int]] = []
    for kind, id_column in SYSTEM_V.items():
        try:
            lines = Path("/proc/sysvipc", kind).read_text(encoding="ascii").splitlines()
        except OSError:
            continue
        if not lines:
            continue
        header = lines[0].split()
        try:
            at_id, at_uid, at_creator = header.index(id_column), header.index("uid"), header.index("cuid")
        except ValueError:
            continue
        for line in lines[1:]:
            fields = line.split()
            if len(fields) == len(header) and str(uid) in (fields[at_uid], fields[at_creator]):
                found.append((kind, int(fields[at_id])))
    return found
