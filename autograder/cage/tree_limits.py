"""Memory and process caps for a worker and everything it starts, through control groups.

rlimits count per process (six children of 600 MiB each pass a 2 GiB
``RLIMIT_AS``) or per user; a control group counts the whole tree. Used
where the grader may write the cgroup file system (root, v1 or v2); the
group is made under the grader's own, so a container's or a systemd
slice's limits still hold above it. Where it cannot be written the rlimits
remain, and the grader says so once.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import signal
import time
from dataclasses import dataclass
from pathlib import Path

# Run by /bin/sh as: sh -c ENTER_AND_EXEC sh <count> <group folder>... <command>...
ENTER_AND_EXEC = (
    'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1/cgroup.procs" || exit 125; shift; n=$((n - 1)); done; '
    'exec "$@"'
)


class TreeLimitsUnavailable(Exception):
    """This machine does not let the grader cap a worker's tree: only the per-process rlimits hold."""


@dataclass(frozen=True)
class TreeLimits:
    """One control group per controller (v1), or one group (v2), for one worker's tree."""

    folders: tuple[Path, ...]
    memory_bytes: int

    @classmethod
    def create(cls, *, memory_bytes: int, processes: int) -> TreeLimits:
        """Make the groups with their caps; ``TreeLimitsUnavailable`` where the machine does not let the grader."""
        name = f"bpe-kit-{secrets.token_hex(8)}"
        made: list[Path] = []
        try:
            memory, pids = _own_group("memory"), _own_group("pids")
            if memory is not None and pids is not None and memory != pids:  # v1: a hierarchy per controller
                made.append(_make(memory / name))
                (made[-1] / "memory.limit_in_bytes").write_text(str(memory_bytes))
                swap = made[-1] / "memory.memsw.limit_in_bytes"  # present where swap accounting is on
                if swap.exists():
                    swap.write_text(str(memory_bytes))
                made.append(_make(pids / name))
                (made[-1] / "pids.max").write_text(str(processes))
            else:
                unified = _own_group("")
                if unified is None:
                    raise TreeLimitsUnavailable("the grader may not write to a control group of its own")
                made.append(_make(unified / name))
                (made[-1] / "memory.max").write_text(str(memory_bytes))
                (made[-1] / "memory.swap.max").write_text("0")
                (made[-1] / "pids.max").write_text(str(processes))
        except OSError as error:
            cls(tuple(made), memory_bytes).remove()
            raise TreeLimitsUnavailable(f"the control groups could not be made ({error})") from error
        return cls(tuple(made), memory_bytes)

    def entered_by(self, command: list[str]) -> list[str]:
        """``command``, started by a shell that first moves itself into the groups, then execs it.

        Entering in a preexec function would make Python fork rather than spawn the worker (see
        Cage.spawn_options); the shell is the same process as what it execs, so the whole tree is
        counted from its first instruction. The folders are the shell's arguments, never its script.
        A group that cannot be entered stops the worker before it starts: no cage, no student code.
        """
        return ["/bin/sh", "-c", ENTER_AND_EXEC, "sh", str(len(self.folders)), *map(str, self.folders), *command]

    def add(self, pid: int) -> None:
        """Move the process ``pid`` into every group (the grader does this for a worker that is already
        another user, who may not write the groups' files). Raises OSError where one refuses it."""
        for folder in self.folders:
            (folder / "cgroup.procs").write_text(str(pid))

    def memory_exceeded(self) -> bool:
        """Whether the tree hit its memory cap (the kernel then kills one of its processes)."""
        for folder in self.folders:
            with contextlib.suppress(OSError, ValueError):
                if (folder / "memory.failcnt").exists():
                    return int((folder / "memory.failcnt").read_text()) > 0
                if (folder / "memory.events").exists():
                    events = dict(line.split() for line in (folder / "memory.events").read_text().splitlines())
                    return int(events.get("oom_kill", 0)) > 0 or int(events.get("max", 0)) > 0
        return False

    def remove(self) -> None:
        """Kill whatever is left in the groups and remove them; never raises."""
        remove_groups(self.folders)


# How long to wait for a group's killed members to be gone before giving up on removing it: the first
# waits are short, since a worker's processes are usually gone a millisecond after it was killed (a fixed
# 20 ms wait cost every hand-in 20 ms), the later ones long, for a machine that is very busy.
REMOVE_WAITS = tuple(min(0.001 * 2**attempt, 0.5) for attempt in range(60))


def remove_groups(folders: tuple[Path, ...]) -> None:
    """Kill the members of these control groups and remove them; never raises (also for a dead grader's groups)."""
    for folder in folders:
        for wait in REMOVE_WAITS:
            try:
                folder.rmdir()
                break
            except FileNotFoundError:
                break
            except OSError as error:
                # Only members still leaving (EBUSY) are worth the wait: a group on a read-only cgroup file
                # system (a container's view of its host's groups) or one not ours never goes.
                if error.errno != errno.EBUSY:
                    break
                _kill_members(folder)
                time.sleep(wait)


def _own_group(controller: str) -> Path | None:
    """Where the grader's own group for ``controller`` is mounted ("" for cgroup v2), if it can be written."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if controller in controllers.split(",") if controller else controllers == "":
            mount = _mount_point(controller)
            if mount is None:
                return None
            folder = mount / path.lstrip("/")
            return folder if os.access(folder, os.W_OK) else None
    return None


def _mount_point(controller: str) -> Path | None:
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        before, after = line.split(" - ", 1)
        fields, (fstype, _source, options) = before.split(), after.split()[:3]
        if controller and fstype == "cgroup" and controller in options.split(","):
            return Path(fields[4])
        if not controller and fstype == "cgroup2":
            return Path(fields[4])
    return None


def _make(folder: Path) -> Path:
    folder.mkdir(mode=0o755)
    return folder


def _kill_members(folder: Path) -> None:
    with contextlib.suppress(OSError, ValueError):
        for pid in (folder / "cgroup.procs").read_text().split():
            with contextlib.suppress(OSError):
                os.kill(int(pid), signal.SIGKILL)
