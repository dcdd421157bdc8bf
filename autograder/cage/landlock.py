"""Keep a container cage's worker from writing anywhere but its own folders, with Linux's Landlock.

Without namespaces, every folder that any user may write (/tmp, /var/tmp, /dev/shm) is the worker's to
fill too, and a file limit bounds each file, not their total. Landlock lets an unprivileged process give
up rights for itself and everything it starts, and needs no capability and no namespace: the worker gives
up every way to make, write, truncate or remove a file except below its own two folders (``work/`` and
``tmp/`` of its cage), and writing to /dev/null. What it may write is then all in folders the grader
watches and removes (``disk_watch``). Reading is left as it was: the shield and the worker's own check
keep the kit's folders closed to it.

Built on the kernel's ABI (linux/landlock.h) through ``syscall``: the C library has no wrappers.
"""

from __future__ import annotations

import ctypes
import os
import platform
import sys
from collections.abc import Callable, Sequence

# linux/landlock.h: the rights over files and folders, by ABI version.
WRITE_FILE = 1 << 1
REMOVE_DIR, REMOVE_FILE = 1 << 4, 1 << 5
MAKE_CHAR, MAKE_DIR, MAKE_REG, MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM = (1 << bit for bit in range(6, 13))
REFER = 1 << 13  # ABI 2: moving and linking across folders
TRUNCATE = 1 << 14  # ABI 3
WRITING_V1 = WRITE_FILE | REMOVE_DIR | REMOVE_FILE | MAKE_CHAR | MAKE_DIR | MAKE_REG | MAKE_SOCK | MAKE_FIFO
WRITING_V1 |= MAKE_BLOCK | MAKE_SYM
RULE_PATH_BENEATH = 1
CREATE_RULESET_VERSION = 1
# The same numbers on every architecture the kit filters (the generic table): x86-64's and arm64's.
CALLS = {"x86_64": (444, 445, 446), "aarch64": (444, 445, 446)}
WRITABLE_DEVICES = ("/dev/null",)


class LandlockUnavailable(Exception):
    """This kernel (or the container's seccomp profile) gives no Landlock: writes are bounded per file only."""


def restrictor(folders: Sequence[str]) -> Callable[[], None]:
    """A function to run between fork and exec (after no_new_privs is set) that lets the process write only
    below ``folders`` and to /dev/null, for good. Looked up here, before the fork: the child only calls.
    ``LandlockUnavailable`` where the kernel has none."""
    numbers = CALLS.get(platform.machine())
    if numbers is None:
        raise LandlockUnavailable(f"the kit knows Landlock's calls on x86-64 and arm64, not {platform.machine()}")
    create, add_rule, restrict = numbers
    libc = ctypes.CDLL(None, use_errno=True)
    syscall = libc.syscall
    syscall.restype = ctypes.c_long
    abi = syscall(ctypes.c_long(create), None, ctypes.c_size_t(0), ctypes.c_uint32(CREATE_RULESET_VERSION))
    if abi < 1:
        raise LandlockUnavailable(f"this kernel gives no Landlock (errno {ctypes.get_errno()})")
    handled = WRITING_V1 | (REFER if abi >= 2 else 0) | (TRUNCATE if abi >= 3 else 0)
    ruleset = ctypes.c_uint64(handled)  # struct landlock_ruleset_attr's first field: all ABI 1 reads
    on_files = WRITE_FILE | (TRUNCATE if abi >= 3 else 0)
    rules = [(folder, handled) for folder in folders] + [(device, on_files) for device in WRITABLE_DEVICES]

    def restrict_self() -> None:
        descriptor = syscall(ctypes.c_long(create), ctypes.byref(ruleset), ctypes.c_size_t(8), ctypes.c_uint32(0))
        if descriptor < 0:
            raise OSError(ctypes.get_errno(), "landlock_create_ruleset failed")
        try:
            for path, allowed in rules:
                beneath = os.open(path, os.O_PATH | os.O_CLOEXEC)
                try:
                    # struct landlock_path_beneath_attr, packed: the rights (u64), then the folder (s32).
                    packed = allowed.to_bytes(8, sys.byteorder) + beneath.to_bytes(4, sys.byteorder)
                    attribute = ctypes.create_string_buffer(packed, len(packed))
                    if syscall(ctypes.c_long(add_rule), descriptor, RULE_PATH_BENEATH, attribute, 0) != 0:
                        raise OSError(ctypes.get_errno(), f"landlock_add_rule failed for {path}")
                finally:
                    os.close(beneath)
            if syscall(ctypes.c_long(restrict), descriptor, 0) != 0:
                raise OSError(ctypes.get_errno(), "landlock_restrict_self failed")
        finally:
            os.close(descriptor)

    return restrict_self
