"""The portable path: a part's process started as a fresh interpreter (``subprocess``) where the fork path
forks one (``forks``), for a machine with no ``os.fork`` (Windows) or where ``BPE_KIT_CAGE=portable`` asks.

Only the start differs. The process speaks the same protocol over the same pipes (the worker's own, given
to it as its stdin and stdout), writes its output to the same file of the worker's, says it ended as asked
with the same byte on a pipe of its own, and, ``measured``, stands still until the worker has read what it
holds. What it holds at birth is read by the worker (Linux's /proc, Windows' working set); its peak comes
from the kernel once it has ended (POSIX ``wait4``, Windows' peak working set). Where neither is given,
the growth is None and the memory test says it was not measured on this platform.

A pipe's end reaches the new process by a number on its command line: a descriptor on POSIX
(``pass_fds``), a handle on Windows (``handle_list``), opened again there by ``open_token``.

Standard library only, and nothing POSIX-only at module level: copied into the cage beside the bootstrap.
"""

from __future__ import annotations

import os
import subprocess
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, NoReturn

ENDED = b"."  # the same byte as a forked process's (forks.ENDED)
# ru_maxrss's unit: kibibytes on Linux and the BSDs, bytes on macOS.
MAXRSS_BYTES = 1 if sys.platform == "darwin" else 1024
WINDOWS = sys.platform == "win32"


# Windows: a part's processes die with it. The part puts itself in a Job Object before any student code
# runs (own_group), so what it starts is born in the job; the job's one handle is the part's, so the part's
# end, however it comes, closes it, and KILL_ON_JOB_CLOSE ends every process still in the job.
JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE = 0x2000
JOB_OBJECT_EXTENDED_LIMIT_INFORMATION = 9  # SetInformationJobObject's class for the structure below
_JOBS: list[int] = []  # the handle, held for the part's life and never closed by it


def _job_limits_type() -> type:
    """JOBOBJECT_EXTENDED_LIMIT_INFORMATION, as ctypes lays it out (plain ctypes types: built on any OS)."""
    import ctypes

    class Basic(ctypes.Structure):
        _fields_ = [
            ("PerProcessUserTimeLimit", ctypes.c_int64),
            ("PerJobUserTimeLimit", ctypes.c_int64),
            ("LimitFlags", ctypes.c_uint32),
            ("MinimumWorkingSetSize", ctypes.c_size_t),
            ("MaximumWorkingSetSize", ctypes.c_size_t),
            ("ActiveProcessLimit", ctypes.c_uint32),
            ("Affinity", ctypes.c_size_t),
            ("PriorityClass", ctypes.c_uint32),
            ("SchedulingClass", ctypes.c_uint32),
        ]

    class Extended(ctypes.Structure):
        _fields_ = [
            ("BasicLimitInformation", Basic),
            ("IoInfo", ctypes.c_uint64 * 6),
            ("ProcessMemoryLimit", ctypes.c_size_t),
            ("JobMemoryLimit", ctypes.c_size_t),
            ("PeakProcessMemoryUsed", ctypes.c_size_t),
            ("PeakJobMemoryUsed", ctypes.c_size_t),
        ]

    return Extended


def join_killing_job(kernel32: Any = None) -> int | None:
    """Windows: put this process in a new Job Object that kills its processes when its last handle closes;
    the job's handle, or None where one could not be made (the part still runs, as on a POSIX machine with
    no process groups). ``kernel32`` is Windows' own unless a test gives a stand-in."""
    import ctypes

    if kernel32 is None:
        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined,unused-ignore]
    job = kernel32.CreateJobObjectW(None, None)
    if not job:
        return None
    limits = _job_limits_type()()
    limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
    made = kernel32.SetInformationJobObject(
        job, JOB_OBJECT_EXTENDED_LIMIT_INFORMATION, ctypes.byref(limits), ctypes.sizeof(limits)
    )
    if not made or not kernel32.AssignProcessToJobObject(job, kernel32.GetCurrentProcess()):
        kernel32.CloseHandle(job)
        return None
    _JOBS.append(int(job))
    return int(job)


def own_group(kernel32: Any = None) -> None:
    """In a part's process, before student code runs: gather what it will start, to be ended with it. POSIX:
    a process group of its own (killed whole by forks.end_strays); Windows: a killing Job Object."""
    if hasattr(os, "setpgid"):
        os.setpgid(0, 0)
    elif WINDOWS:
        join_killing_job(kernel32)


def wanted(config: dict[str, Any]) -> bool:
    """Whether a part's process is started rather than forked: asked for by the grader, or no fork here."""
    return bool(config.get("portable")) or not hasattr(os, "fork")


class Spawned:
    """A process the worker started for a part, as the worker sees it; ``held`` and ``peak`` in bytes, where
    it was started ``measured`` and this platform gives them."""

    def __init__(self, process: subprocess.Popen[bytes], ending: int) -> None:
        self.process, self.pid, self.ending = process, process.pid, ending
        self.held: int | None = None
        self.peak: int | None = None


def _token(fd: int) -> int:
    """What the new process is told to find ``fd``'s pipe end by, made inheritable by it."""
    if WINDOWS:
        import msvcrt

        handle = msvcrt.get_osfhandle(fd)  # type: ignore[attr-defined,unused-ignore]
        os.set_handle_inheritable(handle, True)  # type: ignore[attr-defined,unused-ignore]
        return int(handle)
    os.set_inheritable(fd, True)
    return fd


def open_token(token: int) -> int:
    """In the new process: the descriptor of the pipe end its command line names."""
    if WINDOWS:
        import msvcrt

        return int(msvcrt.open_osfhandle(token, 0))  # type: ignore[attr-defined,unused-ignore]
    return token


def _passing(tokens: list[int]) -> dict[str, Any]:
    """Popen's arguments that hand these pipe ends (and no other) to the new process."""
    if WINDOWS:
        information = subprocess.STARTUPINFO()  # type: ignore[attr-defined,unused-ignore]
        information.lpAttributeList = {"handle_list": tokens}
        return {"startupinfo": information, "close_fds": True}
    return {"pass_fds": tuple(tokens), "close_fds": True}


def spawn(
    command: list[str],
    *,
    stdin: int,
    stdout: int,
    written: int,
    environment: dict[str, str],
    measured: bool = False,
) -> Spawned:
    """Start ``command`` with these descriptors as its stdin, stdout and stderr; the pipe ends it needs go on
    its command line after ``command``: its ending pipe, and, ``measured``, its ready and go pipes."""
    read_end, write_end = os.pipe()
    ends = [write_end]
    go_read, go_write = os.pipe() if measured else (-1, -1)
    ready_read, ready_write = os.pipe() if measured else (-1, -1)
    if measured:
        ends += [ready_write, go_read]
    tokens = [_token(end) for end in ends]
    options = _passing(tokens)  # on Windows, Popen adds the three standard handles to the list itself
    try:
        process = subprocess.Popen(
            [*command, *map(str, tokens)], stdin=stdin, stdout=stdout, stderr=written, env=environment, **options
        )
    finally:
        for end in ends:
            os.close(end)
    spawned = Spawned(process, read_end)
    if measured:
        if os.read(ready_read, 1) == ENDED:
            spawned.held = resident_bytes(spawned)
        os.close(ready_read)
        os.write(go_write, ENDED)
        os.close(go_write)
    return spawned


def stand_still(ready: int, go: int) -> None:
    """In a measured process: say it is ready, then wait until the worker has read what it holds."""
    os.write(ready, ENDED)
    os.close(ready)
    os.read(go, 1)
    os.close(go)


def resident_bytes(spawned: Spawned) -> int | None:
    """What the process holds in memory now, in bytes: Linux's /proc, Windows' working set; else None."""
    if WINDOWS:
        counters = _windows_memory(spawned.process)
        return None if counters is None else counters[0]
    try:
        with open(f"/proc/{spawned.pid}/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def _windows_memory(process: subprocess.Popen[bytes]) -> tuple[int, int] | None:
    """A Windows process's working set and its peak, in bytes, from its handle (GetProcessMemoryInfo); the
    handle stays open after it ends, so its peak can be read then."""
    try:
        import ctypes
        from ctypes import wintypes

        class Counters(ctypes.Structure):
            _fields_ = [
                ("cb", wintypes.DWORD),
                ("PageFaultCount", wintypes.DWORD),
                ("PeakWorkingSetSize", ctypes.c_size_t),
                ("WorkingSetSize", ctypes.c_size_t),
                ("QuotaPeakPagedPoolUsage", ctypes.c_size_t),
                ("QuotaPagedPoolUsage", ctypes.c_size_t),
                ("QuotaPeakNonPagedPoolUsage", ctypes.c_size_t),
                ("QuotaNonPagedPoolUsage", ctypes.c_size_t),
                ("PagefileUsage", ctypes.c_size_t),
                ("PeakPagefileUsage", ctypes.c_size_t),
            ]

        counters = Counters()
        counters.cb = ctypes.sizeof(Counters)
        handle = int(process._handle)  # type: ignore[attr-defined]
        psapi = ctypes.WinDLL("psapi")  # type: ignore[attr-defined,unused-ignore]
        if not psapi.GetProcessMemoryInfo(wintypes.HANDLE(handle), ctypes.byref(counters), counters.cb):
            return None
        return int(counters.WorkingSetSize), int(counters.PeakWorkingSetSize)
    except (ImportError, OSError, AttributeError, ValueError):
        return None


def wait(spawned: Spawned, before_reading: Callable[[], None] = lambda: None) -> int | None:
    """Wait for the process to end; None when it ended as asked, else its return code (negative: the signal
    that ended it). Its peak, where the platform gives one, is set on it. ``before_reading`` as forks.wait."""
    process = spawned.process
    if hasattr(os, "wait4"):  # the peak comes with the end, from the kernel
        while True:
            try:
                _, status, usage = os.wait4(spawned.pid, 0)
                spawned.peak = usage.ru_maxrss * MAXRSS_BYTES
                process.returncode = os.waitstatus_to_exitcode(status)
                break
            except ChildProcessError:
                process.returncode = process.returncode if process.returncode is not None else 0
                break
            except InterruptedError:
                continue
    else:
        process.wait()
        counters = _windows_memory(process) if WINDOWS else None
        if counters is not None:
            spawned.peak = counters[1]
    before_reading()
    try:
        if not WINDOWS:  # there, no other process holds the pipe (close_fds), so its read cannot wait
            os.set_blocking(spawned.ending, False)
        said = os.read(spawned.ending, 1)
    except OSError:
        said = b""
    finally:
        os.close(spawned.ending)
    code = process.returncode
    return None if said == ENDED and code == 0 else (code if code is not None else 1)


def growth(spawned: Spawned) -> int | None:
    """How far a measured process's memory grew past what it held at birth, in bytes; None where not given."""
    if spawned.held is None or spawned.peak is None:
        return None
    return max(0, spawned.peak - spawned.held)


def end_like(code: int) -> NoReturn:
    """End this process as the started one ended (the same signal, or the same exit code), so the grader
    reads its end from the worker's, as on the fork path (forks.end_like)."""
    if code < 0 and not WINDOWS:
        import signal

        try:
            signal.signal(-code, signal.SIG_DFL)
            os.kill(os.getpid(), -code)
        except (OSError, ValueError):
            pass
        os._exit(128 - code)
    os._exit(code)
