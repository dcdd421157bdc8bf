"""The worker's seccomp filter: default deny, Docker's allow-list less what a worker never needs.

The allow-list is data (``syscall_allow_list.json``, written by
``tools/seccomp_allow_list.py`` from moby's ``profiles/seccomp/default.json``),
and so are the call numbers (``syscall_numbers.json``, written by
``tools/syscall_numbers.py`` from the kernel's headers). For each system call
the filter answers one of four ways:

- allowed: a call of an allowed group; ``clone`` only without a namespace flag
  (Docker's rule: the flags are its first argument, which seccomp can read);
- EPERM: a call the table knows that no allowed group names (sockets,
  keyrings, System V IPC, message queues, ptrace, mounts, ...), and clone
  with a namespace flag;
- ENOSYS: a number the table does not know (a call newer than the headers,
  or none at all), and ``clone3``, whose flags sit in memory seccomp cannot
  read: the C library falls back to ``clone`` on ENOSYS only;
- the process is killed: a call made for another architecture (i386's
  ``int 0x80``), whose numbers mean other calls. x86-64's x32 numbers are
  refused whole.

The program is classic BPF, built here rather than through libseccomp (its
Python bindings are not on PyPI as wheels): a binary search over the ranges
of numbers that share an answer, each leaf returning at once, so that no
conditional jump (8 bits of offset) has far to go. The same bytes are given
to bubblewrap (``--seccomp``, in the sandbox) or installed between fork and
exec by the worker's child (``Filter.install``, in the container and process
cages); either way before the interpreter that runs student code starts.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import functools
import json
import os
import platform
import struct
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ALLOW_LIST = Path(__file__).with_name("syscall_allow_list.json")
NUMBERS = Path(__file__).with_name("syscall_numbers.json")

# From linux/audit.h: the architecture a system call was made for, as seccomp_data.arch holds it.
AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
# x86-64's x32 ABI numbers its calls from here: refused whole, so that no call comes in through it.
X32_SYSCALL_BIT = 0x40000000

# Classic BPF, as linux/filter.h and linux/seccomp.h spell it.
LOAD_WORD = 0x20  # BPF_LD | BPF_W | BPF_ABS
JUMP_IF_EQUAL = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
JUMP_IF_AT_LEAST = 0x35  # BPF_JMP | BPF_JGE | BPF_K
JUMP_IF_ANY_BIT = 0x45  # BPF_JMP | BPF_JSET | BPF_K
RETURN = 0x06  # BPF_RET | BPF_K
NUMBER_OFFSET, ARCH_OFFSET = 0, 4  # in struct seccomp_data
ARGUMENTS_OFFSET = 16  # seccomp_data.args, 8 bytes each: the low half first on these little-endian machines
MAX_JUMP = 255  # a conditional jump's offsets are one byte each

ALLOW = 0x7FFF0000  # SECCOMP_RET_ALLOW
ERRNO = 0x00050000  # SECCOMP_RET_ERRNO: the call fails with the errno in the low bits, the process goes on
REFUSE = ERRNO | errno.EPERM
UNKNOWN = ERRNO | errno.ENOSYS
KILL_PROCESS = 0x80000000  # SECCOMP_RET_KILL_PROCESS
CLONE = -1  # an answer that is not a return value: look at clone's flags first

PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2


@dataclass(frozen=True)
class Architecture:
    """One architecture's answers: ``audit`` is its AUDIT_ARCH value, ``answers`` each known number's."""

    name: str
    audit: int
    answers: dict[int, int]  # number -> ALLOW, REFUSE, UNKNOWN or CLONE
    clone_argument: int
    clone_refused_flags: int
    x32: bool = False


def allow_list() -> dict[str, Any]:
    """The allow-list's data: groups allowed and refused, each with its reason and calls."""
    data: dict[str, Any] = json.loads(ALLOW_LIST.read_text(encoding="utf-8"))
    return data


def call_numbers() -> dict[str, dict[str, int]]:
    """``{architecture: {call name: number}}``, as the kernel's headers give them."""
    data: dict[str, dict[str, int]] = json.loads(NUMBERS.read_text(encoding="utf-8"))["architectures"]
    return data


def allowed_calls() -> set[str]:
    """Every call name an allowed group names (clone among them, with its rule on flags)."""
    return {call for group in allow_list()["allowed"] for call in group["calls"]}


def architecture(name: str) -> Architecture:
    """The answers for architecture ``name`` ("x86_64", "aarch64"), from the two tables."""
    listed = allow_list()
    allowed = allowed_calls()
    unknown = set(listed["enosys"]["calls"])
    answers: dict[int, int] = {}
    for call, number in call_numbers()[name].items():
        if call == "clone":
            answers[number] = CLONE
        elif call in unknown:
            answers[number] = UNKNOWN
        else:
            answers[number] = ALLOW if call in allowed else REFUSE
    clone = listed["clone"]
    return Architecture(
        name,
        AUDIT_ARCH[name],
        answers,
        clone_argument=clone["argument"],
        clone_refused_flags=clone["refused_flags"],
        x32=name == "x86_64",
    )


def _instruction(code: int, jump_true: int, jump_false: int, value: int) -> bytes:
    return struct.pack("HBBI", code, jump_true, jump_false, value)


def _ranges(answers: dict[int, int]) -> list[tuple[int, int]]:
    """``(first number, answer)`` for each run of numbers that share an answer, from 0 up; past the last
    known number (and in every gap) the answer is UNKNOWN."""
    ranges: list[tuple[int, int]] = []
    for number in range(max(answers) + 2):
        answer = answers.get(number, UNKNOWN)
        if not ranges or ranges[-1][1] != answer:
            ranges.append((number, answer))
    return ranges


def _leaf(answer: int, architecture: Architecture) -> list[bytes]:
    if answer != CLONE:
        return [_instruction(RETURN, 0, 0, answer)]
    # Docker's rule: clone is allowed when no namespace flag is set. The flags are an unsigned long; every
    # namespace flag sits in its low half, which is the word at the argument's offset.
    offset = ARGUMENTS_OFFSET + 8 * architecture.clone_argument
    if architecture.clone_refused_flags >> 32:
        raise ValueError("clone's refused flags reach past the argument's low half: the filter cannot read them")
    return [
        _instruction(LOAD_WORD, 0, 0, offset),
        _instruction(JUMP_IF_ANY_BIT, 0, 1, architecture.clone_refused_flags),
        _instruction(RETURN, 0, 0, REFUSE),
        _instruction(RETURN, 0, 0, ALLOW),
    ]


def _search(ranges: list[tuple[int, int]], architecture: Architecture) -> list[bytes]:
    """A binary search over ``ranges`` (the call number in the accumulator): below the middle range's first
    number, fall through to the lower half; at or above it, jump past the lower half to the upper one."""
    if len(ranges) == 1:
        return _leaf(ranges[0][1], architecture)
    middle = len(ranges) // 2
    lower = _search(ranges[:middle], architecture)
    upper = _search(ranges[middle:], architecture)
    if len(lower) > MAX_JUMP:
        raise ValueError(f"a branch of {len(lower)} instructions is past a conditional jump's reach")
    return [_instruction(JUMP_IF_AT_LEAST, len(lower), 0, ranges[middle][0]), *lower, *upper]


def program(architecture: Architecture) -> bytes:
    """The filter's instructions, as the kernel reads them (struct sock_filter, one after another)."""
    body = _search(_ranges(architecture.answers), architecture)
    x32 = [_instruction(JUMP_IF_AT_LEAST, 0, 1, X32_SYSCALL_BIT), _instruction(RETURN, 0, 0, REFUSE)]
    checks = [*(x32 if architecture.x32 else []), *body]
    head = [
        _instruction(LOAD_WORD, 0, 0, ARCH_OFFSET),
        # Another architecture's call: its numbers mean other calls, so it is never let through.
        _instruction(JUMP_IF_EQUAL, 1, 0, architecture.audit),
        _instruction(RETURN, 0, 0, KILL_PROCESS),
        _instruction(LOAD_WORD, 0, 0, NUMBER_OFFSET),
    ]
    return b"".join(head + checks)


class Filter:
    """The filter for this machine, built in the grader once: ``install`` is what a worker's child calls
    between fork and exec, where it may only make system calls; ``descriptor`` is what bubblewrap reads."""

    def __init__(self, architecture: Architecture) -> None:
        self.architecture = architecture
        self.code = program(architecture)
        self._instructions = ctypes.create_string_buffer(self.code, len(self.code))

        class Program(ctypes.Structure):
            _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

        self._program = Program(len(self.code) // 8, ctypes.addressof(self._instructions))
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

    def descriptor_for_start(self) -> int:
        """A pipe's reading end holding the program, its writing end closed: bubblewrap's ``--seccomp``
        reads it to the end. A new one for each start (it is read once); the caller closes it."""
        reading, writing = os.pipe()
        try:
            os.write(writing, self.code)  # a few kilobytes: far inside a pipe's buffer
        finally:
            os.close(writing)
        return reading

    @contextlib.contextmanager
    def descriptor(self) -> Iterator[int]:
        """``descriptor_for_start``'s pipe, closed when the block ends."""
        reading = self.descriptor_for_start()
        try:
            yield reading
        finally:
            with contextlib.suppress(OSError):
                os.close(reading)


@functools.cache
def worker_filter() -> Filter | None:
    """The filter for this machine's architecture, or None where the kit does not know its call numbers
    (or it is not Linux): built once per grader, since every worker it starts installs the same."""
    name = platform.machine()
    if not sys.platform.startswith("linux") or name not in AUDIT_ARCH:
        return None
    return Filter(architecture(name))
