"""The worker's seccomp filter: its program read back instruction by instruction for every call number, the
allow-list's data against Docker's and the kernel's, and the filter installed on a real process."""

from __future__ import annotations

import errno
import json
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.cage import isolation, seccomp
from autograder.kit_root import KIT_ROOT

ARCHITECTURES = sorted(seccomp.AUDIT_ARCH)
CLONE_NEWUSER, CLONE_NEWNET, CLONE_NEWNS = 0x10000000, 0x40000000, 0x00020000
# What glibc's fork and pthread_create pass to clone: no namespace among them.
FORK_FLAGS = 0x01200011  # CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | SIGCHLD
# CLONE_VM | FS | FILES | SIGHAND | THREAD | SYSVSEM | SETTLS | PARENT_SETTID | CHILD_CLEARTID
THREAD_FLAGS = 0x003D0F00


def run_filter(code: bytes, *, audit: int, number: int, arguments: tuple[int, ...] = ()) -> int:
    """What the kernel would answer: classic BPF evaluated over one struct seccomp_data, as the kernel
    reads it (the opcodes the kit's program uses; any other fails the test)."""
    values = (list(arguments) + [0] * 6)[:6]
    data = struct.pack("<iIQ6Q", number, audit, 0, *values)
    instructions = [struct.unpack("HBBI", code[at : at + 8]) for at in range(0, len(code), 8)]
    accumulator, counter = 0, 0
    for _ in range(len(instructions)):  # classic BPF only jumps forward: one pass is the longest run
        operation, jump_true, jump_false, value = instructions[counter]
        counter += 1
        if operation == seccomp.LOAD_WORD:
            (accumulator,) = struct.unpack_from("<I", data, value)
        elif operation == seccomp.RETURN:
            return value
        elif operation in (seccomp.JUMP_IF_EQUAL, seccomp.JUMP_IF_AT_LEAST, seccomp.JUMP_IF_ANY_BIT):
            taken = {
                seccomp.JUMP_IF_EQUAL: accumulator == value,
                seccomp.JUMP_IF_AT_LEAST: accumulator >= value,
                seccomp.JUMP_IF_ANY_BIT: bool(accumulator & value),
            }[operation]
            counter += jump_true if taken else jump_false
        else:
            raise AssertionError(f"opcode {operation:#x} at {counter - 1} is not one the filter should use")
    raise AssertionError("the program ran off its end without returning")


def expected_answer(name: str | None) -> int:
    """What the allow-list's data says a call gets, read from the data, not from the filter's code."""
    data = seccomp.allow_list()
    if name is None or name in data["enosys"]["calls"]:
        return seccomp.UNKNOWN
    return seccomp.ALLOW if name in seccomp.allowed_calls() else seccomp.REFUSE


@pytest.mark.unit
@pytest.mark.parametrize("name", ARCHITECTURES)
def test_the_filter_answers_every_call_number_as_the_data_says(name):
    """Every number up to past the table's last gets its group's answer; one the table lacks gets ENOSYS."""
    architecture = seccomp.architecture(name)
    code = seccomp.program(architecture)
    numbers = seccomp.call_numbers()[name]
    by_number = {number: call for call, number in numbers.items()}
    audit = seccomp.AUDIT_ARCH[name]
    for number in range(max(by_number) + 100):
        call = by_number.get(number)
        got = run_filter(code, audit=audit, number=number, arguments=(FORK_FLAGS,))
        assert got == expected_answer(call), f"{name} {number} ({call})"
    for number in (0x3FFFFFFF, 0xFFFFFFF, 2**31 - 1):
        assert run_filter(code, audit=audit, number=number) in (seccomp.UNKNOWN, seccomp.REFUSE)


@pytest.mark.unit
@pytest.mark.parametrize("name", ARCHITECTURES)
def test_clone_is_refused_with_a_namespace_flag_and_clone3_answers_enosys(name):
    """clone: a fork's or a thread's flags pass, any namespace flag is EPERM; clone3 is ENOSYS (glibc falls back)."""
    architecture = seccomp.architecture(name)
    code = seccomp.program(architecture)
    numbers = seccomp.call_numbers()[name]
    audit = seccomp.AUDIT_ARCH[name]
    for flags in (FORK_FLAGS, THREAD_FLAGS, 0x4111):  # 0x4111: posix_spawn's CLONE_VM | CLONE_VFORK | SIGCHLD
        assert run_filter(code, audit=audit, number=numbers["clone"], arguments=(flags,)) == seccomp.ALLOW
    for flag in (CLONE_NEWUSER, CLONE_NEWNET, CLONE_NEWNS):
        answer = run_filter(code, audit=audit, number=numbers["clone"], arguments=(FORK_FLAGS | flag,))
        assert answer == seccomp.REFUSE, hex(flag)
    assert run_filter(code, audit=audit, number=numbers["clone3"]) == seccomp.UNKNOWN
    assert seccomp.UNKNOWN == seccomp.ERRNO | errno.ENOSYS and seccomp.REFUSE == seccomp.ERRNO | errno.EPERM


@pytest.mark.unit
def test_another_architectures_calls_kill_and_x32s_are_refused():
    """i386's int 0x80 from an x86-64 process is killed (its numbers mean other calls); x32's are refused."""
    code = seccomp.program(seccomp.architecture("x86_64"))
    i386 = 0x40000003
    assert run_filter(code, audit=i386, number=0) == seccomp.KILL_PROCESS
    assert run_filter(code, audit=seccomp.AUDIT_ARCH["aarch64"], number=0) == seccomp.KILL_PROCESS
    assert run_filter(code, audit=seccomp.AUDIT_ARCH["x86_64"], number=0) == seccomp.ALLOW  # read
    assert run_filter(code, audit=seccomp.AUDIT_ARCH["x86_64"], number=seccomp.X32_SYSCALL_BIT) == seccomp.REFUSE


@pytest.mark.unit
def test_the_allow_list_allows_nothing_docker_refuses_and_refuses_what_outlives_a_process():
    """Allowed groups are inside Docker's list; keyrings, IPC, queues, sockets and the rest are refused."""
    data = seccomp.allow_list()
    allowed = seccomp.allowed_calls()
    assert allowed <= set(data["docker_allows"])
    assert data["source"]["repository"] == "moby/moby" and len(data["source"]["commit"]) == 40
    refused = {call for group in data["refused"] for call in group["calls"]}
    assert not allowed & refused
    for call in ("add_key", "keyctl", "request_key", "msgget", "semget", "shmget", "mq_open", "socket",
                 "ptrace", "process_vm_readv", "bpf", "perf_event_open", "mount", "unshare", "setns",
                 "userfaultfd", "io_uring_setup", "init_module", "reboot", "clock_settime", "adjtimex"):  # fmt: skip
        assert call in refused and call not in allowed, call
    for group in data["allowed"] + data["refused"]:
        assert group["reason"] and group["calls"] == sorted(group["calls"]), group["name"]
    # Docker's own list, every call of it accounted for: allowed or refused by a named group.
    assert set(data["docker_allows"]) <= allowed | refused


@pytest.mark.unit
def test_every_branch_of_the_program_is_within_a_jumps_reach():
    """A few hundred calls fit classic BPF's 8-bit jumps because the program is a search, not a chain."""
    for name in ARCHITECTURES:
        code = seccomp.program(seccomp.architecture(name))
        assert len(code) // 8 < 4096  # BPF_MAXINSNS
        for at in range(0, len(code), 8):
            operation, jump_true, jump_false, _ = struct.unpack("HBBI", code[at : at + 8])
            if operation & 0x07 == 0x05:  # BPF_JMP: its targets are inside the program
                assert at // 8 + 1 + max(jump_true, jump_false) < len(code) // 8


def test_the_number_table_is_what_the_kernels_headers_give():
    """tools/syscall_numbers.py run again over the installed headers writes the committed table."""
    if shutil.which("cpp") is None or not Path("/usr/include/asm-generic/unistd.h").exists():
        pytest.skip("needs the C preprocessor and the kernel's headers: apt-get install cpp linux-libc-dev")
    checked = subprocess.run(
        [sys.executable, str(KIT_ROOT / "tools" / "syscall_numbers.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    table = json.loads((KIT_ROOT / "autograder" / "cage" / "syscall_numbers.json").read_text(encoding="utf-8"))
    assert table["architectures"]["x86_64"]["keyctl"] == 250 and table["architectures"]["aarch64"]["keyctl"] == 219


TRY_CALLS = r"""
import ctypes, errno, os, threading
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def call(number, *arguments):
    ctypes.set_errno(0)
    passed = [ctypes.c_long(argument) if isinstance(argument, int) else argument for argument in arguments]
    result = libc.syscall(ctypes.c_long(number), *passed)
    return "ok" if result >= 0 else errno.errorcode[ctypes.get_errno()]
numbers = NUMBERS
said = [
    call(numbers["add_key"], ctypes.c_char_p(b"user"), ctypes.c_char_p(b"k"), ctypes.c_char_p(b"v"), 1, -2),
    call(numbers["keyctl"], 0, -4, 0),
    call(numbers["msgget"], 0x62706B69, 0),  # no such queue, none made: ENOENT unfiltered
    call(numbers["unshare"], 0x10000000),
    call(numbers["clone3"], 0, 0),
    call(100000),
]
thread = threading.Thread(target=lambda: said.append("thread"))
thread.start()
thread.join()
child = os.fork()
if child == 0:
    os._exit(7)
said.append(f"child {os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])}")
print(" ".join(said))
"""


def test_a_filtered_process_is_refused_keyrings_ipc_and_namespaces_but_forks_and_starts_threads():
    """Installed on a real process: EPERM for a key, a queue and a namespace, ENOSYS for clone3 and an unknown
    number; threads (glibc tries clone3 first) and forks still work. Unfiltered, the key is stored."""
    worker_filter = seccomp.worker_filter()
    if worker_filter is None:
        pytest.skip("the filter is Linux's, on x86-64 and arm64")
    numbers = seccomp.call_numbers()[worker_filter.architecture.name]
    script = TRY_CALLS.replace("NUMBERS", repr(numbers))
    filtered = subprocess.run(
        [sys.executable, "-c", script], preexec_fn=worker_filter.install, capture_output=True, text=True, timeout=60
    )
    answers = ["EPERM", "EPERM", "EPERM", "EPERM", "ENOSYS", "ENOSYS", "thread", "child", "7"]
    assert filtered.stdout.split() == answers, filtered.stderr
    unfiltered = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert unfiltered.stdout.split()[0] == "ok", unfiltered.stdout + unfiltered.stderr  # add_key: the attack's step


@pytest.mark.unit
@pytest.mark.parametrize("platform_name", ["darwin", "win32"])
def test_off_linux_there_is_no_filter_and_grade_says_so_in_its_line_on_bounds(platform_name, monkeypatch):
    """macOS and Windows get no filter, and the one line on bounds names it; Linux's line does not."""
    monkeypatch.setattr(isolation, "isolation", lambda: isolation.Isolation.PROCESS)
    monkeypatch.setattr(sys, "platform", platform_name)
    assert seccomp.worker_filter.__wrapped__() is None  # not the cached answer: this platform's
    notice = isolation.isolation_notice()
    assert notice is not None and "no seccomp filter" in notice and "this is not Linux" in notice
    monkeypatch.setattr(sys, "platform", "linux")
    notice = isolation.isolation_notice()
    assert notice is not None and "no seccomp filter" not in notice


def test_the_syscall_page_is_what_the_allow_list_gives():
    """docs/security/syscalls.md is generated from the data: run again, tools/syscall_page.py writes it unchanged."""
    checked = subprocess.run(
        [sys.executable, str(KIT_ROOT / "tools" / "syscall_page.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    page = (KIT_ROOT / "docs" / "security" / "syscalls.md").read_text(encoding="utf-8")
    for group in seccomp.allow_list()["allowed"] + seccomp.allow_list()["refused"]:
        assert f"### {group['name']}\n" in page
