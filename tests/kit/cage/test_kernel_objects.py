"""Kernel objects that outlive a process, as channels between classmates: a key in a keyring, a System V
message queue. One hand-in stores its code in one; a classmate graded after it, by another `grade`, looks
for it. Student code reaches the kernel through a plain child process (a fresh interpreter, which no
check inside the worker watches), so that what is tested is the kernel's answer, the seccomp filter's.

Afterwards the classmate found nothing, and nothing of the first hand-in's is left in the kernel.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from commands import grade
from results import function_scores

from autograder.cage import seccomp
from autograder.cage.isolation import FORCE_PROCESS_CAGE, FORCE_VARIABLE, Isolation, isolation

# Its depositor starts an interpreter of its own (subprocess), outside the plain-Python policy, to test the
# kernel's layer below it.
pytestmark = pytest.mark.without_policy

FAST = ("--limit", "call_seconds=5", "--limit", "test_seconds=20", "--limit", "submission_seconds=200")
DROP = "bpe-kit-drop"  # the key's description; the queue's key is its first four bytes
QUEUE_KEY = int.from_bytes(DROP.encode()[:4], "big")

# Run by a child interpreter the hand-in starts: store this file's text where a classmate can read it.
STORE = r"""
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
numbers = NUMBERS
data = open(sys.argv[1], "rb").read()[:4000]
long = ctypes.c_long
said = []
key = libc.syscall(long(numbers["add_key"]), b"user", DROP.encode(), data, long(len(data)), long(-4))  # @u
said.append("key %d errno %d" % (key, ctypes.get_errno()))
if key < 0:  # keyctl alone (podman's profile refuses add_key): a session keyring whose name is the data
    name = (DROP + ":").encode() + data[:3000].replace(b"\0", b" ")
    key = libc.syscall(long(numbers["keyctl"]), long(1), name)  # JOIN_SESSION_KEYRING
    if key > 0:
        libc.syscall(long(numbers["keyctl"]), long(8), long(key), long(-4))  # LINK: into @u, which outlives us
    said.append("keyring %d errno %d" % (key, ctypes.get_errno()))
if key > 0:
    libc.syscall(long(numbers["keyctl"]), long(5), long(key), long(0x3F3F3F3F))  # SETPERM: all may read it
queue = libc.syscall(long(numbers["msgget"]), long(QUEUE_KEY), long(0o1666))  # IPC_CREAT, all may use it
if queue >= 0:
    message = ctypes.create_string_buffer(8 + len(data))
    ctypes.memmove(ctypes.addressof(message), (1).to_bytes(8, "little") + data, 8 + len(data))
    libc.syscall(long(numbers["msgsnd"]), long(queue), message, long(len(data)), long(0o4000))  # IPC_NOWAIT
said.append("queue %d errno %d" % (queue, ctypes.get_errno()))
print("; ".join(said))
"""

# Run by the classmate's child interpreter: whatever a classmate left there.
LOOK = r"""
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
numbers = NUMBERS
long = ctypes.c_long
found = []
try:
    lines = open("/proc/keys").read().splitlines()
except OSError:
    lines = []
candidates = [int(line.split()[0], 16) for line in lines if DROP in line]
# A container masks /proc/keys; but a uid is given again to the next container's worker (the same pid): the
# keys its user keyring links are there to read.
links = ctypes.create_string_buffer(4096)
size = libc.syscall(long(numbers["keyctl"]), long(11), long(-4), links, long(4096))  # READ @u: its links
candidates += [int.from_bytes(links.raw[at : at + 4], "little") for at in range(0, max(size, 0), 4)]
for candidate in candidates:
    buffer = ctypes.create_string_buffer(8000)
    key = long(candidate)
    size = libc.syscall(long(numbers["keyctl"]), long(6), key, buffer, long(8000))  # DESCRIBE
    described = buffer.raw[: max(size, 0)].decode("utf-8", "replace")
    if DROP not in described:
        continue
    if not described.startswith("keyring;"):  # a keyring's payload is its links: its name is what it carries
        size = libc.syscall(long(numbers["keyctl"]), long(11), key, buffer, long(8000))  # READ
        described = buffer.raw[: max(size, 0)].decode("utf-8", "replace")
    found.append("FOUND A KEY: " + described[:200])
queue = libc.syscall(long(numbers["msgget"]), long(QUEUE_KEY), long(0))
if queue >= 0:
    message = ctypes.create_string_buffer(8 + 8000)
    size = libc.syscall(long(numbers["msgrcv"]), long(queue), message, long(8000), long(0), long(0o4000))
    if size > 0:
        found.append("FOUND A QUEUE: " + message.raw[8 : 8 + size].decode("utf-8", "replace")[:200])
print("\n".join(found) if found else "nothing")
"""

HAND_IN = '''
import subprocess as _subprocess
import sys as _sys

_CHILD = "CHILD_SOURCE"


def merge_pair(tokens, pair):
    """ROLE"""
    ran = _subprocess.run([_sys.executable, "-S", "-c", _CHILD, __file__], capture_output=True, text=True)
    raise RuntimeError("child said: " + (ran.stdout + ran.stderr).strip()[-1500:])
'''


def hand_in(role: str, child: str) -> str:
    table = seccomp.call_numbers().get(os.uname().machine, {})
    numbers = {name: table[name] for name in ("add_key", "keyctl", "msgget", "msgsnd", "msgrcv") if name in table}
    code = child.replace("NUMBERS", repr(numbers)).replace("QUEUE_KEY", str(QUEUE_KEY)).replace("DROP", repr(DROP))
    return HAND_IN.replace('"CHILD_SOURCE"', repr(code)).replace("ROLE", role)


def said(document: dict, function: str = "merge_pair") -> list[str]:
    return [
        test["extra_data"]["detail"]
        for test in document["tests"]
        if test["extra_data"]["function"] == function and test["extra_data"]["module"] == "bpe"
    ]


def kernel_leftovers() -> list[str]:
    """What the kernel still holds under the drop's name: keys (as root sees them) and System V queues."""
    left = [line for line in Path("/proc/keys").read_text().splitlines() if DROP in line]
    queues = Path("/proc/sysvipc/msg").read_text().splitlines()[1:]
    left += [line for line in queues if line.split() and int(line.split()[0]) == QUEUE_KEY]
    return left


def levels() -> list[str]:
    """The cage levels this machine gives the kit to grade at: its best, and the container cage where root."""
    return ["best"]


@pytest.mark.slow
@pytest.mark.sandbox
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="keyrings and System V IPC are Linux's")
@pytest.mark.parametrize("level", levels())
def test_a_classmate_graded_after_finds_nothing_a_hand_in_left_in_the_kernel(level, reference_with, monkeypatch):
    """Keys and System V queues are refused to both hand-ins: the second finds nothing, the first leaves nothing."""
    if level == "container":
        monkeypatch.setenv(FORCE_VARIABLE, FORCE_PROCESS_CAGE)  # root without bubblewrap: the container cage
    elif isolation() is Isolation.PROCESS:
        pytest.skip("the process cage does not keep hand-ins apart: its worker is the grader's own user")
    depositor = reference_with("depositor", only=("bpe",), bpe=hand_in("store", STORE))
    thief = reference_with("thief", only=("bpe",), bpe=hand_in("look", LOOK))
    process, stored = grade(depositor, *FAST, "--part", "bpe", timeout=600)
    assert process.returncode in (0, 1), process.stderr[-3000:]
    child = [re.sub(r".*child said: ", "", detail) for detail in said(stored) if "child said" in detail]
    assert child, f"the depositor did not run: {said(stored)[:1]}"
    process, looked = grade(thief, *FAST, "--part", "bpe", timeout=600)
    assert process.returncode in (0, 1), process.stderr[-3000:]
    found = [detail for detail in said(looked) if "child said" in detail]
    assert found, f"the thief did not run: {said(looked)[:1]}"
    assert all("FOUND A " not in detail for detail in found), found[0][:800]
    assert function_scores(looked)[("bpe", "merge_pair")][0] == 0
    assert kernel_leftovers() == [], "the depositor's objects outlived it"
    # Refused, not merely swept: the depositor's own child was told so.
    assert all("errno 1" in line for line in child[0].split(" (bpe.py")[0].split("; ")), child[0]


# Made by a process of the uid's own, unfiltered: what an earlier kit, or a kernel without the filter, let through.
MAKE_OBJECTS = r"""
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
numbers = NUMBERS
long = ctypes.c_long
key = libc.syscall(long(numbers["add_key"]), b"user", DROP.encode(), b"x", long(1), long(-4))
libc.syscall(long(numbers["keyctl"]), long(5), long(key), long(0x3F000000))  # SETPERM: its possessor's alone
queue = libc.syscall(long(numbers["msgget"]), long(QUEUE_KEY), long(0o1600))
print(key, queue)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux") or os.geteuid() != 0, reason="root gives workers uids")
def test_the_sweep_removes_a_workers_keys_and_queues_even_those_hidden_from_others():
    """A key only its possessor may see and a System V queue, left by a uid: the sweep removes both."""
    from autograder.cage import kernel_objects, worker_user

    uid = worker_user.new_uid()
    table = seccomp.call_numbers()[os.uname().machine]
    numbers = {name: table[name] for name in ("add_key", "keyctl", "msgget")}
    code = MAKE_OBJECTS.replace("NUMBERS", repr(numbers)).replace("QUEUE_KEY", str(QUEUE_KEY))
    code = code.replace("DROP", repr(DROP))
    system_python = "/usr/bin/python3"  # any user may run it; this venv's may sit in root's 0700 home
    if not os.access(system_python, os.X_OK):
        pytest.skip("needs the system's /usr/bin/python3")
    made = subprocess.run(
        [system_python, "-S", "-c", code], user=uid, group=uid, extra_groups=[], capture_output=True, text=True
    )
    key, queue = (int(word) for word in made.stdout.split())
    assert key > 0 and queue >= 0, made.stdout + made.stderr
    queues = Path("/proc/sysvipc/msg").read_text().splitlines()[1:]
    assert any(line.split()[1] == str(queue) for line in queues)
    kernel_objects.sweep(uid)
    assert kernel_leftovers() == []
    looked = subprocess.run(
        ["sh", "-c", "cat /proc/keys"], user=uid, group=uid, extra_groups=[], capture_output=True, text=True
    )
    assert DROP not in looked.stdout, "the uid still sees its key"
