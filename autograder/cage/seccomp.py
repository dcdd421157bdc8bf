"""A seccomp filter that takes sockets away from a worker, for a cage without a network namespace.

In a container the worker shares the grader's network: Gradescope's has one,
and even without it the abstract Unix sockets of the grader and of other
services are reachable. seccomp cannot read a socket's address, so the
filter refuses to make any socket at all: ``socket`` and ``socketpair`` for
every family, and io_uring, whose requests can open sockets without either
call. The worker's channel to the grader is a pair of pipes opened before
the filter is set, so it needs none.

The filter is eight instructions of classic BPF, written here rather than
through libseccomp: its Python bindings are not on PyPI as wheels, and this
is the whole of what is needed. It is installed between fork and exec, where
the child may only make system calls, so it is built in full beforehand.
"""

from __future__ import annotations

import ctypes
import errno
import functools
import platform
import struct
from dataclasses import dataclass

# From linux/audit.h: the architecture a system call was made for, as seccomp_data.arch holds it.
AUDIT_ARCH_X86_64 = 0xC000003E
AUDIT_ARCH_AARCH64 = 0xC00000B7
# x86-64's x32 ABI numbers its calls from here: refused whole, so socket cannot come in through it.
X32_SYSCALL_BIT = 0x40000000


@dataclass(frozen=True)
class Architecture:
    audit: int
    refused_calls: tuple[int, ...]  # socket, socketpair, io_uring_setup, io_uring_enter, io_uring_register
    x32: bool = False


ARCHITECTURES = {
    "x86_64": Architecture(AUDIT_ARCH_X86_64, (41, 53, 425, 426, 427), x32=True),
    "aarch64": Architecture(AUDIT_ARCH_AARCH64, (198, 199, 425, 426, 427)),
}

# Classic BPF, as linux/filter.h and linux/seccomp.h spell it.
LOAD_WORD = 0x20  # BPF_LD | BPF_W | BPF_ABS
JUMP_IF_EQUAL = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
JUMP_IF_AT_LEAST = 0x35  # BPF_JMP | BPF_JGE | BPF_K
RETURN = 0x06  # BPF_RET | BPF_K
NUMBER_OFFSET, ARCH_OFFSET = 0, 4  # in struct seccomp_data
ALLOW = 0x7FFF0000
REFUSE = 0x00050000 | errno.EACCES  # SECCOMP_RET_ERRNO: the call fails as if forbidden, the process goes on
KILL_PROCESS = 0x80000000  # a call made for another architecture (i386's socketcall through int 0x80)

PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2


def _instruction(code: int, jump_true: int, jump_false: int, value: int) -> bytes:
    return struct.pack("HBBI", code, jump_true, jump_false, value)


def program(architecture: Architecture) -> bytes:
    """The filter's instructions, as the kernel reads them (struct sock_filter, one after another)."""
    refused = architecture.refused_calls
    # Each check jumps to the refusal when the call is one of those, falls through to the next otherwise.
    checks = [_instruction(JUMP_IF_EQUAL, len(refused) - index, 0, number) for index, number in enumerate(refused)]
    x32 = [_instruction(JUMP_IF_AT_LEAST, len(refused) + 1, 0, X32_SYSCALL_BIT)] if architecture.x32 else []
    head = [
        _instruction(LOAD_WORD, 0, 0, ARCH_OFFSET),
        # On the right architecture skip the kill at the very end: every instruction between them is jumped.
        _instruction(JUMP_IF_EQUAL, 0, len(x32) + len(checks) + 3, architecture.audit),
        _instruction(LOAD_WORD, 0, 0, NUMBER_OFFSET),
    ]
    tail = [
        _instruction(RETURN, 0, 0, ALLOW),
        _instruction(RETURN, 0, 0, REFUSE),
        _instruction(RETURN, 0, 0, KILL_PROCESS),
    ]
    return b"".join(head + x32 + checks + tail)


class Filter:
    """The filter for this machine, built in the grader; ``install`` is what the worker's child calls."""

    def __init__(self, architecture: Architecture) -> None:
        code = program(architecture)
        self._instructions = ctypes.create_string_buffer(code, len(code))

        class Program(ctypes.Structure):
            _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

        self._program = Program(len(code) // 8, ctypes.addressof(self._instructions))
        self._prctl = ctypes.CDLL(None, use_errno=True).prctl
        self._prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]
        self._address = ctypes.addressof(self._program)

    def install(self) -> None:
        """No new privileges, then the filter: from here on, for this process and all it starts.

        Raises OSError where the kernel refuses, so a worker that could not be filtered never runs.
        """
        if self._prctl(PR_SET_NO_NEW_PRIVS, 1, None, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
        if self._prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, self._address, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP) failed")


@functools.cache
def no_sockets() -> Filter | None:
    """The filter for this machine's architecture, or None where the kit does not know its call numbers:
    built once per grader, since every worker it starts installs the same."""
    architecture = ARCHITECTURES.get(platform.machine())
    return Filter(architecture) if architecture is not None else None
