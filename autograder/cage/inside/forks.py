"""How the worker keeps the calls one process was given from the next: a process per part, put back after.

The worker the grader starts runs no student code. For each part it forks a process that imports the
student's module, before it is sent any call, then makes the part's calls; where a failure must be told
with no call of a passed test in reach, the grader ends that process and has the test run again in a
fresh one (client.Worker.isolate). When a process ends, the worker kills what it started and puts the
folders it may write back as they were. Nothing passes from such a process to the worker but one byte
that says it ended as asked, so the next process forked cannot find the last one's calls in memory, in a
file, or in a process left running.

A process forked ``measured`` is how a call's memory is measured without asking the process that ran it: its
parent reads what it held at birth (before any of its code ran) and, once it has ended, its peak from the
kernel (``wait4``'s ``ru_maxrss``); ``growth`` is the difference. The grader measures the reference's calls
the same way, with the same functions.

Standard library only: copied into the cage beside the bootstrap, like the codec.
"""

from __future__ import annotations

import os
import signal
import stat
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, NoReturn

ENDED = b"."  # what a child writes to its parent as it ends as asked
ENDING_PIPE = [-1]  # in a child, the pipe it writes ENDED to (a started one's too: spawns)
# A file kept whole to be put back after each process when it is at most this big (a hand-in's modules);
# one bigger that a process changed cannot be put back, and the worker is started anew.
KEPT_BYTES = 1 << 20


# ru_maxrss's unit: kibibytes on Linux and the BSDs, bytes on macOS.
MAXRSS_BYTES = 1 if sys.platform == "darwin" else 1024


class Child:
    """A process the worker forked, as the worker sees it; where it was forked ``measured``, what it held at
    birth and (once waited for) its peak, in bytes, both read by this process from the kernel."""

    def __init__(self, pid: int, ending: int) -> None:
        self.pid, self.ending = pid, ending
        self.held: int | None = None
        self.peak: int | None = None


def fork(flush: Callable[[], None], *, measured: bool = False) -> Child | None:
    """Fork: the parent gets the child, the child gets None. ``flush`` first, or both would write what the
    parent's buffers hold. ``measured``: the child waits, before it runs anything, until the parent has read
    what it holds (``Child.held``), so that no code of the child's can choose the moment."""
    read_end, write_end = os.pipe()
    go_read, go_write = os.pipe() if measured else (-1, -1)
    ready_read, ready_write = os.pipe() if measured else (-1, -1)
    flush()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        if ENDING_PIPE[0] >= 0:  # the parent's own word to its parent is not the child's to say
            os.close(ENDING_PIPE[0])
        ENDING_PIPE[0] = write_end
        if measured:
            os.close(go_write)
            os.close(ready_read)
            # Ready, then wait: what the child holds is read once it stands still, having brought in the
            # interpreter's own pages its way here touches. Read while it ran, the same child was found
            # holding 3 MiB more or less from one run to the next, the largest part of the noise.
            os.write(ready_write, ENDED)
            os.close(ready_write)
            os.read(go_read, 1)
            os.close(go_read)
            alone()
        return None
    os.close(write_end)
    child = Child(pid, read_end)
    if measured:
        os.close(go_read)
        os.close(ready_write)
        if os.read(ready_read, 1) == ENDED:
            child.held = resident_bytes(pid)
        os.close(ready_read)
        os.write(go_write, ENDED)
        os.close(go_write)
    return child


def alone() -> None:
    """In a measured child: start no process or thread from now on. The kernel's peak is one process's (and
    its reaped children's largest, not their sum): a call that spread its memory over processes of its own
    would show a share of it. The user's processes already number more than one (this one, its parent), so
    a limit of one refuses every fork and thread; no capability of this user lifts it."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_NPROC, (1, 1))
    except (ImportError, AttributeError, ValueError, OSError):  # no such limit here: the peak is a process's
        pass


def resident_bytes(pid: int) -> int | None:
    """What process ``pid`` holds in memory now (its resident size), in bytes, from the kernel: Linux's
    /proc; elsewhere this process's own peak so far, which a child forked from it starts below."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * MAXRSS_BYTES
    except (ImportError, OSError):
        return None


def growth(child: Child) -> int | None:
    """How far a ``measured`` child's memory grew past what it held at birth, in bytes; None where this
    platform gives no peak."""
    if child.held is None or child.peak is None:
        return None
    return max(0, child.peak - child.held)


def end_as_asked() -> NoReturn:
    """In a child: say so to the parent and end, running nothing more (no exit handlers, no finalizers)."""
    try:
        os.write(ENDING_PIPE[0], ENDED)
    finally:
        os._exit(0)


def wait(child: Child, before_reading: Callable[[], None] = lambda: None) -> int | None:
    """Wait for ``child`` to end; None when it ended as asked, else its wait status. Its peak, where the
    platform gives one, is set on it (``Child.peak``).

    ``before_reading`` runs between its end and the read of its word (killing what it left running, which
    may hold the pipe too): the read never waits, so a word that is not there is an end not asked for.
    """
    while True:
        try:
            if hasattr(os, "wait4"):  # the peak comes with the end, from the kernel
                _, status, usage = os.wait4(child.pid, 0)
                child.peak = usage.ru_maxrss * MAXRSS_BYTES
            else:
                _, status = os.waitpid(child.pid, 0)
            break
        except ChildProcessError:
            status = 0
            break
        except InterruptedError:
            continue
    before_reading()
    try:
        os.set_blocking(child.ending, False)
        said = os.read(child.ending, 1)
    except OSError:
        said = b""
    finally:
        os.close(child.ending)
    return None if said == ENDED and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 else status


def end_like(status: int) -> NoReturn:
    """End this process as its child ended (killed by the same signal, or with the same exit code), so the
    grader reads the forked process's own end from the worker's: a crash, a CPU or memory limit, an exit."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            signal.signal(number, signal.SIG_DFL)
            os.kill(os.getpid(), number)
        except (OSError, ValueError):
            pass
        os._exit(128 + number)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


def ancestors() -> frozenset[int]:
    """This process and every process above it: what a sweep of the worker's user's processes spares."""
    found = {os.getpid()}
    pid = os.getppid()
    while pid > 0 and pid not in found:
        found.add(pid)
        try:
            pid = int(_stat_fields(str(pid))[1])
        except (OSError, ValueError, IndexError):
            break
    return frozenset(found)


def end_strays(group: int, spared: frozenset[int] | None) -> None:
    """Kill what a forked process started: its process group, and, where the worker's user is its own (or
    its processes are alone in their namespace: ``spared`` is given), every process of that user but the
    ``spared`` ones, which it then waits to see gone, so none writes a file after the folders are put back."""
    try:
        os.killpg(group, signal.SIGKILL)
    except (OSError, AttributeError):  # AttributeError: Windows: its Job Object ends them (spawns.own_group)
        pass
    if spared is None:
        return
    uid = os.getuid()
    for _ in range(200):  # a process killed is gone in microseconds; a tenth of a second of patience at most
        alive = []
        try:
            entries = os.listdir("/proc")
        except OSError:
            return
        for entry in entries:
            if not entry.isdigit() or int(entry) in spared:
                continue
            try:
                if _owner(entry) != uid or _is_zombie(entry):
                    continue
                os.kill(int(entry), signal.SIGKILL)
            except OSError:
                continue
            alive.append(entry)
        if not alive:
            return
        os.sched_yield()


def _owner(pid: str) -> int:
    """A process's real uid, from its status: its /proc folder is root's when it is not dumpable, as the
    worker's processes are (bootstrap.undumpable)."""
    with open(f"/proc/{pid}/status", "rb") as status:
        for line in status:
            if line.startswith(b"Uid:"):
                return int(line.split()[1])
    return -1


def _is_zombie(pid: str) -> bool:
    return _stat_fields(pid)[0] == b"Z"


def _stat_fields(pid: str) -> list[bytes]:
    """A process's /proc stat fields after its name (which may hold spaces and parentheses): state, parent..."""
    with open(f"/proc/{pid}/stat", "rb") as status:
        return status.read().rsplit(b")", 1)[1].split()


def _key(info: os.stat_result) -> tuple[int, ...]:
    # The change time too: a process can set a file's times back, never its change time, which any change of
    # content, mode, times or extended attributes moves.
    return (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_mode)


class _Entry:
    """A folder or file as it was: what ``Folders.restore`` puts back."""

    def __init__(self, path: str, info: os.stat_result, content: bytes | None = None) -> None:
        self.mode = stat.S_IMODE(info.st_mode)
        self.times = (info.st_atime_ns, info.st_mtime_ns)
        self.attributes = _attributes(path)
        self.content = content
        self.names: frozenset[str] = frozenset()
        self.key = _key(info)


def _move_times(folder: str) -> None:
    """Set a folder of others' (``/tmp``) to times of now, which no process chose: an entry made and removed
    moves its modification and change times, then a listing its access time (a process could otherwise
    leave a time of its choosing there, for the next to read)."""
    name = os.path.join(folder, f".bpe-kit-{os.getpid()}-{os.urandom(4).hex()}")
    os.close(os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    os.unlink(name)
    os.listdir(folder)


def _attributes(path: str) -> dict[str, bytes]:
    try:
        return {
            name: os.getxattr(path, name, follow_symlinks=False) for name in os.listxattr(path, follow_symlinks=False)
        }
    except (OSError, AttributeError):  # none here, or no extended attributes on this system
        return {}


class Folders:
    """The folders a process may write, as they were before it: put back after it (``restore``).

    Kept: every folder below ``roots`` that this user owns or that anyone may write, with its entries, and
    every file in them that this user owns or anyone may write, with its content (when small); for each,
    its mode, its times and its extended attributes, which a process could otherwise leave for the next to
    read (a read moves a time too). Folders of others that the user cannot write are not entered.
    """

    def __init__(self, roots: list[str]) -> None:
        self.uid = _own_uid()
        self.folders: dict[str, _Entry] = {}
        self.files: dict[str, _Entry] = {}
        for root in roots:
            self._record(root)

    def _writable(self, info: os.stat_result) -> bool:
        return info.st_uid == self.uid or bool(info.st_mode & stat.S_IWOTH)

    def _record(self, root: str) -> None:
        waiting = [root]
        while waiting:
            folder = waiting.pop()
            try:
                info = os.lstat(folder)
                if not stat.S_ISDIR(info.st_mode) or not self._writable(info):
                    continue
                entries = list(os.scandir(folder))
            except OSError:
                continue
            entry_of_folder = self.folders[folder] = _Entry(folder, info)
            entry_of_folder.names = frozenset(entry.name for entry in entries)
            for entry in entries:
                try:
                    found = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if stat.S_ISDIR(found.st_mode):
                    waiting.append(entry.path)
                elif stat.S_ISREG(found.st_mode) and self._writable(found):
                    self.files[entry.path] = _Entry(entry.path, found, _content(entry.path, found))

    def restore(self) -> bool:
        """Remove what was made, put back what was changed; False when something could not be put back."""
        whole = True
        for folder in sorted(self.folders):  # a folder before what is in it
            kept = self.folders[folder]
            try:
                info = os.lstat(folder)
                if not stat.S_ISDIR(info.st_mode):
                    whole &= remove(folder)
                    os.mkdir(folder, kept.mode)
                present = os.listdir(folder)
            except FileNotFoundError:
                try:
                    os.mkdir(folder, kept.mode)
                    present = []
                except OSError:
                    whole = False
                    continue
            except OSError:
                whole = False
                continue
            for name in present:
                if name not in kept.names:
                    whole &= remove(os.path.join(folder, name))
        for path, kept in self.files.items():
            whole &= self._put_back_file(path, kept)
        for folder in sorted(self.folders, reverse=True):  # its times last: putting back what is in it moves them
            whole &= self._put_back(folder, self.folders[folder])
        return whole

    def _put_back_file(self, path: str, kept: _Entry) -> bool:
        try:
            info: os.stat_result | None = os.lstat(path)
        except OSError:
            info = None
        if info is None or _key(info) != kept.key:
            if kept.content is None:
                return False
            try:
                if info is not None:  # a new file, not one written over: no attribute or time of it is left
                    remove(path)
                descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, kept.mode)
                with os.fdopen(descriptor, "wb") as file:
                    file.write(kept.content)
            except OSError:
                return False
        return self._put_back(path, kept)

    def _put_back(self, path: str, kept: _Entry) -> bool:
        """Its mode, extended attributes and times as they were (a read moved its access time, perhaps);
        then the key it has now, which doing so changed."""
        try:
            info = os.lstat(path)
            if info.st_uid != self.uid and stat.S_ISDIR(info.st_mode):
                _move_times(path)
            if info.st_uid == self.uid:
                if _key(info) != kept.key:
                    os.chmod(path, kept.mode)
                    now = _attributes(path)
                    for name in now.keys() - kept.attributes.keys():
                        os.removexattr(path, name, follow_symlinks=False)
                    for name, value in kept.attributes.items():
                        if now.get(name) != value:
                            os.setxattr(path, name, value, follow_symlinks=False)
                if (info.st_atime_ns, info.st_mtime_ns) != kept.times:
                    os.utime(path, ns=kept.times, follow_symlinks=False)
                kept.key = _key(os.lstat(path))
        except OSError:
            return False
        return True


def _own_uid() -> int:
    """This process's user, as ``st_uid`` names it: Windows has no uid, and gives every file 0."""
    return os.getuid() if hasattr(os, "getuid") else 0


def _content(path: str, info: os.stat_result) -> bytes | None:
    if info.st_size > KEPT_BYTES:
        return None
    try:
        with open(path, "rb") as file:
            return file.read()
    except OSError:
        return None


def remove(path: str) -> bool:
    """Remove a file or a whole folder, any depth, never following a link; False when something stays."""
    waiting = [(path, False)]
    while waiting:
        current, emptied = waiting.pop()
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            continue
        except OSError:
            return False
        try:
            if not stat.S_ISDIR(info.st_mode):
                os.unlink(current)
            elif emptied:
                os.rmdir(current)
            else:
                if info.st_mode & 0o700 != 0o700 and info.st_uid == _own_uid():
                    os.chmod(current, 0o700)
                waiting.append((current, True))
                waiting.extend((os.path.join(current, name), False) for name in os.listdir(current))
        except OSError:
            return False
    return True


def output_file() -> int:
    """A file of no name for what a forked process and its children write to descriptors 1 and 2 (``write_to``)."""
    try:
        return os.memfd_create("process-output", os.MFD_CLOEXEC)
    except (AttributeError, OSError):  # no memfd here: an unlinked file in the temporary folder
        import tempfile

        with tempfile.TemporaryFile(buffering=0) as handle:
            return os.dup(handle.fileno())


def write_to(written: int) -> None:
    """In a forked process: descriptors 1 and 2 are now ``written``."""
    os.dup2(written, 1)
    os.dup2(written, 2)
    os.close(written)


def pass_on(written: int, room: int) -> int:
    """Copy what a forked process wrote (``room`` bytes at most) to this process's descriptor 2, the output the
    grader reads apart, in the kernel, never read into this process; how many bytes were copied."""
    copied = 0
    try:
        size = min(os.fstat(written).st_size, room)
        while copied < size:
            try:
                sent = os.sendfile(2, written, copied, size - copied)
            except (OSError, AttributeError):  # no sendfile to a pipe (macOS, Windows): through this process
                sent = os.write(2, _read_at(written, size - copied, copied))
            if sent <= 0:
                break
            copied += sent
    except OSError:
        pass
    finally:
        os.close(written)
    return copied


def _read_at(descriptor: int, size: int, offset: int) -> bytes:
    if hasattr(os, "pread"):
        return os.pread(descriptor, size, offset)
    os.lseek(descriptor, offset, os.SEEK_SET)  # Windows: no pread
    return os.read(descriptor, size)


def scratch(root: str, number: int, environment: Any) -> str:
    """A new empty folder for one forked process's files, made the temporary folder of everything it runs."""
    folder = os.path.join(root, f"process-{number}")
    os.mkdir(folder, 0o700)
    for name in ("TMPDIR", "TEMP", "TMP", "HOME", "MPLCONFIGDIR"):
        environment[name] = folder
    return folder
