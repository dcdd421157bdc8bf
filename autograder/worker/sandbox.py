"""Linux-only hardening the worker applies to itself before it reads student code.

Runs inside the fresh mount, PID and network namespaces that ``unshare``
made for the worker, as root, and leaves the process unable to undo any of
it: every mount read-only, the kit and the submissions' folder covered by
empty read-only file systems, only the cage writable, and every capability
dropped, for good, from this process and from anything it starts.

Standard library only: this file is copied into the cage.
"""

from __future__ import annotations

import ctypes
import os

_MS_RDONLY = 0x1
_MS_NOSUID = 0x2
_MS_NODEV = 0x4
_MS_REMOUNT = 0x20
_MS_BIND = 0x1000
_MS_REC = 0x4000
_AT_FDCWD = -100
_AT_RECURSIVE = 0x8000
_MOUNT_ATTR_RDONLY = 0x1
_SYS_MOUNT_SETATTR = 442  # the same number on x86_64 and aarch64
_PR_CAPBSET_DROP = 24
_PR_SET_NO_NEW_PRIVS = 38
_CAPABILITY_VERSION_3 = 0x20080522


class _MountAttr(ctypes.Structure):
    _fields_ = [
        ("attr_set", ctypes.c_uint64),
        ("attr_clr", ctypes.c_uint64),
        ("propagation", ctypes.c_uint64),
        ("userns_fd", ctypes.c_uint64),
    ]


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


def enter(*, writable: list[str], hidden: list[str]) -> None:
    """Make the file system read-only but for ``writable``; hide ``hidden``."""
    libc = ctypes.CDLL(None, use_errno=True)

    def check(result: int, what: str) -> None:
        if result != 0:
            errno = ctypes.get_errno()
            raise OSError(errno, f"{what}: {os.strerror(errno)}")

    def mount(source: str, target: str, fstype: str | None, flags: int, data: str = "") -> None:
        check(
            libc.mount(
                source.encode(),
                target.encode(),
                fstype.encode() if fstype else None,
                ctypes.c_ulong(flags),
                data.encode() if data else None,
            ),
            f"mount {target}",
        )

    attributes = _MountAttr(_MOUNT_ATTR_RDONLY, 0, 0, 0)
    check(
        libc.syscall(
            _SYS_MOUNT_SETATTR,
            _AT_FDCWD,
            b"/",
            _AT_RECURSIVE,
            ctypes.byref(attributes),
            ctypes.sizeof(attributes),
        ),
        "read-only root",
    )
    for path in hidden:
        if os.path.isdir(path):
            mount("none", path, "tmpfs", _MS_RDONLY | _MS_NOSUID | _MS_NODEV, "size=4k,mode=0555")
    for path in writable:
        mount(path, path, None, _MS_BIND | _MS_REC)
        mount(path, path, None, _MS_BIND | _MS_REMOUNT | _MS_NOSUID | _MS_NODEV)

    # Root without capabilities cannot remount, unmount, trace, or regain
    # them through exec: the bounding set is emptied and no_new_privs set.
    with open("/proc/sys/kernel/cap_last_cap") as last_cap_file:
        last_cap = int(last_cap_file.read())
    for capability in range(last_cap + 1):
        check(libc.prctl(_PR_CAPBSET_DROP, capability, 0, 0, 0), "drop capability")
    check(libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    header = _CapHeader(_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()
    check(libc.capset(ctypes.byref(header), data), "drop capabilities")
