"""Where a worker runs: a private folder on the host, and the command that starts it caged.

The host folder holds two read-only pieces, never anything the worker can
write: ``runtime/`` (the files of ``inside/``, compiled) and ``submission/`` (the
grader's copy of the hand-in). With bubblewrap (``isolation.py``) the worker
sees only those, the interpreter's folders and a size-capped tmpfs, into
which it copies the submission and where it runs; whatever it writes
vanishes with its mount namespace. Without, it runs in ``work/`` and
``tmp/`` beside them, and the grader removes them afterwards, whatever the
student left there. In the container cage those two are its worker's
user's (0700), made anew at each start; the cage folder and the two pieces
stay root's, the copy of the hand-in readable by that user's group alone.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import marshal
import os
import secrets
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autograder.cage import bubblewrap, cage_place, kernel_objects, landlock, seccomp, shield, worker_user
from autograder.cage.cage_limits import CageLimits
from autograder.cage.disk_watch import DiskWatch
from autograder.cage.isolation import Isolation, isolation, probe
from autograder.cage.isolation import bubblewrap as find_bubblewrap
from autograder.cage.isolation import is_root as isolation_is_root
from autograder.cage.tree_limits import TreeLimits, TreeLimitsUnavailable, remove_groups
from autograder.run_errors import RunError

# The worker's own code, run compiled (runtime_code): every module of inside/ (its package file excepted).
INSIDE = Path(__file__).parent / "inside"
RUNTIME_FILES = tuple(sorted(path.name for path in INSIDE.glob("*.py") if path.name != "__init__.py"))
PYTHON_FLAGS = ("-S", "-P", "-B")  # how the worker's interpreter starts: see Cage.command
OWNER = "owner.pid"
CGROUPS = "cgroups"  # the control groups a cage made, one path a line
WORKER_USER = "student"
# The levels whose worker is root's until it becomes a user of its own (worker_user.new_uid).
OWN_USER_LEVELS = (Isolation.SANDBOX_AS_ROOT, Isolation.CONTAINER)


def grader_folder(name: str, temp: Path | None = None) -> Path:
    """A folder of the grader's own (caches, cages), in a 0700 parent that only this user can enter.

    Made under the temporary folder (``temp``, else TMPDIR's), which anyone can write: a parent made
    by somebody else, or one that is a symlink, is not used.
    """
    uid = os.getuid() if hasattr(os, "getuid") else 0
    # Root's workers are users of their own, who must reach their cage by its name (never list the folder);
    # every other folder in it stays 0700. Anyone else's workers are that user.
    mode = 0o711 if uid == 0 else 0o700
    base = (temp or Path(tempfile.gettempdir())) / f"bpe-kit-{uid}"
    with contextlib.suppress(FileExistsError):
        base.mkdir(mode=mode)
    _check_own_folder(base, uid)
    if stat.S_IMODE(os.lstat(base).st_mode) != mode:
        os.chmod(base, mode)
    folder = base / name
    mode = 0o711 if name == "cages" and uid == 0 else 0o700
    with contextlib.suppress(FileExistsError):
        folder.mkdir(mode=mode)
    _check_own_folder(folder, uid)  # never a link: what it points to is not ours to write in
    if stat.S_IMODE(os.lstat(folder).st_mode) != mode:  # made by an older kit, or before the umask
        os.chmod(folder, mode)
    return folder


def _check_own_folder(folder: Path, uid: int) -> None:
    info = os.lstat(folder)
    if not stat.S_ISDIR(info.st_mode) or (hasattr(os, "getuid") and info.st_uid != uid):
        raise RuntimeError(f"{folder} exists and is not this user's folder: remove it, or set TMPDIR elsewhere")


@functools.cache
def runtime_code() -> dict[str, bytes]:
    """The worker's runtime files compiled, once per grader process: ``{"codec.pyc": ...}``.

    The worker runs them as they are (Python runs a compiled script, and imports a module from a .pyc
    with no source beside it) rather than compile them again at every start, which was a fifth of it.
    Compiled by this interpreter, the one the worker runs; named as they are in the sandbox, so a
    traceback says which of them it came from.
    """
    compiled = {}
    for name in RUNTIME_FILES:
        code = compile((INSIDE / name).read_bytes(), f"{bubblewrap.RUNTIME}/{name}", "exec", dont_inherit=True)
        # A .pyc's header: the magic number, then 12 bytes (flags, and a source's time and size) that a
        # module loaded without its source does not check.
        compiled[Path(name).with_suffix(".pyc").name] = importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(code)
    return compiled


@dataclass
class Cage:
    """One submission's cage: its host folder, how it is isolated, and the limits of its tree."""

    root: Path
    limits: CageLimits
    level: Isolation
    tree: TreeLimits | None = None
    notices: list[str] = field(default_factory=list)  # what this cage could not do, for the report
    worker_uid: int | None = None  # the worker's own user, where it is root's until it drops to it
    files: dict[str, bytes] = field(default_factory=dict, repr=False)  # the hand-in, as ``fill`` wrote it
    # The seccomp program's pipe for the next start in the sandbox: opened by spawn_options, read by bubblewrap.
    filter_descriptor: int | None = field(default=None, repr=False)
    # In the container cage, what keeps the worker from writing but in work/ and tmp/ (landlock.restrictor).
    writes_only: Callable[[], None] | None = field(default=None, repr=False)
    disk: DiskWatch | None = field(default=None, repr=False)  # the current start's watchdog (watch_disk)

    @property
    def runtime(self) -> Path:
        return self.root / "runtime"

    @property
    def submission(self) -> Path:
        return self.root / "submission"

    @property
    def work(self) -> Path:
        """Where the worker runs without a sandbox (with one, it runs in its own tmpfs)."""
        return self.root / "work"

    @property
    def tmp(self) -> Path:
        return self.root / "tmp"

    @classmethod
    def create(cls, files: dict[str, bytes] | None, *, limits: CageLimits) -> Cage:
        """A new cage holding ``files``; with None, an empty one whose worker can start before they are
        known (a spare: see starting), filled later with ``fill``."""
        level = isolation()
        if level is Isolation.NONE and probe().refused:
            raise CageUnavailable(f"student code was not run: {probe().refused}")
        if level is Isolation.NONE:
            raise CageUnavailable(
                "student code was not run: the grader is root and could not give it a user of its own; "
                "run `grade doctor` to see why and how to fix it"
            )
        # Root's workers are users of their own, who must pass through every folder above their cage.
        base = grader_folder("cages", cage_place.reachable_temp() if isolation_is_root() else None)
        sweep_abandoned(base)
        root = base / secrets.token_hex(16)
        root.mkdir(mode=0o700)
        (root / OWNER).write_text(str(os.getpid()), encoding="ascii")  # beside the pieces, never inside them
        cage = cls(root=root, limits=limits, level=level)
        if seccomp.worker_filter() is None and sys.platform.startswith("linux"):
            # Only the container cage refuses to start without it (worker_user.spawn_options): it has no namespaces.
            cage.notices.append(
                f"note: no seccomp filter: the kit knows the system calls of x86-64 and arm64, not {os.uname().machine}"
            )
        try:
            uid = cage.worker_uid = worker_user.new_uid() if level in OWN_USER_LEVELS else None
            if level is Isolation.CONTAINER and uid is not None:
                shield.guard_the_kit()  # done and said by the command before (guard_for_grading); a safety net
                worker_user.end_processes(uid)  # whatever an earlier holder of this uid left
            cage.runtime.mkdir(mode=0o755)
            for name, code in runtime_code().items():
                (cage.runtime / name).write_bytes(code)
                (cage.runtime / name).chmod(0o644)
            (cage.submission if cage.copies_in else cage.work).mkdir(mode=0o755)
            if files is not None:
                cage.fill(files)
            if not level.full:
                cage.tmp.mkdir()
            if level is Isolation.CONTAINER:
                # The cage stays root's (0711), so its worker cannot swap the runtime it is restarted from;
                # the copy of the hand-in is its user's group's to read alone (its path is in /proc for all
                # to see); work/ and tmp/ are its user's, made anew at every start (prepare_start).
                assert uid is not None
                cage.root.chmod(0o711)
                os.chown(cage.submission, 0, uid)
                cage.submission.chmod(0o750)
                cage.prepare_start()
                try:
                    cage.writes_only = landlock.restrictor([str(cage.work), str(cage.tmp)])
                except landlock.LandlockUnavailable as why:
                    cage.notices.append(f"note: the worker may write in every shared folder, each file bounded: {why}")
            if level in OWN_USER_LEVELS:
                try:
                    cage.tree = TreeLimits.create(memory_bytes=limits.memory_mb * 2**20, processes=limits.processes)
                except TreeLimitsUnavailable as why:
                    cage.notices.append(
                        f"note: memory and processes are capped for each process, not for the "
                        f"worker's whole tree: {why}"
                    )
                else:  # for the sweep, should this grader be killed before it removes them
                    (root / CGROUPS).write_text("\n".join(map(str, cage.tree.folders)), encoding="utf-8")
        except BaseException:  # a hand-in the file system refuses, or an interrupt: no cage is left behind
            cage.remove()
            raise
        return cage

    def fill(self, files: dict[str, bytes]) -> None:
        """Write the hand-in's files where the worker copies them from. In the sandbox that folder is
        bound into the worker's view when it starts, so files written after it started are seen too;
        the worker reads them only once its config says where they are."""
        copy = self.submission if self.copies_in else self.work
        self.files = {**self.files, **files}
        for relative, content in files.items():
            target = copy / relative
            target.parent.mkdir(parents=True, exist_ok=True, mode=0o755)
            target.write_bytes(content)
            target.chmod(0o644)

    def twin(self) -> Cage:
        """A new cage holding this one's hand-in: its own folder, user and control groups, so that a worker
        started in it shares nothing with this cage's worker but the hand-in (``Worker.prepare_fresh``)."""
        return Cage.create(self.files, limits=self.limits)

    def prepare_start(self) -> None:
        """Before each start of the container cage's worker: an empty work/ and tmp/ of its user's, so a
        worker started again (after a timeout or a crash) finds neither its copy nor what it wrote."""
        if self.level is not Isolation.CONTAINER or self.worker_uid is None:
            return
        # None of its user's processes may be left to stop the next worker between its fork and its exec.
        worker_user.end_processes(self.worker_uid)
        for folder in (self.work, self.tmp):
            remove_tree(folder)  # by descriptors: a link the student left inside is removed, not followed
            folder.mkdir(mode=0o700)
            os.chown(folder, self.worker_uid, self.worker_uid)

    @property
    def copies_in(self) -> bool:
        """Whether the worker copies the hand-in from a folder it may not write (``submission/``) into its
        own, rather than run where the grader put it (the process cage, whose worker is the grader's user)."""
        return self.level.full or self.level is Isolation.CONTAINER

    def command(self) -> list[str]:
        # -S -P -B: no site module (the bootstrap puts bubblewrap.site_folders on the path itself, without
        # running their .pth files), no script folder on sys.path, no bytecode written. Not -I: its -E would
        # also drop the PYTHONHASHSEED we set for repeatable runs, and the environment is ours entirely anyway.
        if not self.level.full:  # the container and process cages: the worker's user is set as it starts
            return [sys.executable, *PYTHON_FLAGS, str(self.runtime / "bootstrap.pyc")]
        sandboxed = bubblewrap.command(
            str(find_bubblewrap()),
            runtime=self.runtime,
            submission=self.submission,
            scratch_bytes=self.limits.disk_mb * 2**20,
            as_root=self.level is Isolation.SANDBOX_AS_ROOT,
            environment=self.environment(),
            python_arguments=[*PYTHON_FLAGS, f"{bubblewrap.RUNTIME}/bootstrap.pyc"],
            seccomp_descriptor=self.filter_descriptor,
        )
        return sandboxed if self.tree is None else self.tree.entered_by(sandboxed)

    def worker_config(self) -> dict[str, Any]:
        """What the bootstrap needs to enter the cage: where to work, what to copy there, whom to become."""
        site_folders = list(bubblewrap.site_folders())
        place: dict[str, Any]
        if self.level is Isolation.CONTAINER:  # already its own user: it checks first that it reads nothing ours
            place = {"submission_dir": str(self.work), "copy_from": str(self.submission)}
            # What a forked process may write, put back after it (forks.Folders); the uid is the worker's alone,
            # so every process of it but the worker's own is a forked process's, killed as that one ends.
            writable = [str(self.work), str(self.tmp)]
            if self.writes_only is None:  # no Landlock: the shared folders are the worker's to write too
                writable += worker_user.SHARED_FOLDERS
            tests = {"writable": writable, "sweep_processes": True, "undumpable": True}
            return {**place, "uid": None, "site_folders": site_folders, "unreadable": shield.unreadable(), **tests}
        if not self.level.full:
            # The grader's own user: what a forked process writes in the cage is put back, its process group
            # killed, and no other process of the user's is touched.
            tests = {"writable": [str(self.work), str(self.tmp)], "sweep_processes": False, "undumpable": True}
            place = {"submission_dir": str(self.work), "copy_from": None}
            return {**place, "uid": None, "site_folders": site_folders, **tests}
        place = {"submission_dir": bubblewrap.WORK, "copy_from": bubblewrap.SUBMISSION}
        # The sandbox's tmpfs is all it may write; its processes are alone in their namespace.
        # Its user's own worker is not dumpable once it has become that user; in its own user namespace it asks.
        undumpable = self.level is not Isolation.SANDBOX_AS_ROOT
        tests = {"writable": [bubblewrap.SCRATCH], "sweep_processes": True, "undumpable": undumpable}
        return {**place, "uid": self.worker_uid, "site_folders": site_folders, **tests}

    @property
    def working_directory(self) -> Path:
        return self.root if self.level.full else self.tmp

    def adopt(self, pid: int) -> None:
        """Put a worker spawned as its own user into the tree's control groups (it cannot enter them
        itself: they are root's). It waits for its config before it runs anything, so nothing has
        escaped the count yet. In the sandbox, the seccomp program's pipe is bubblewrap's now: closed here."""
        self._close_filter_descriptor()
        if self.tree is not None and self.level is Isolation.CONTAINER:
            self.tree.add(pid)

    def end_processes(self) -> None:
        """Kill whatever the worker's own user still runs (a process that left the worker's group and
        session): in the container cage no PID namespace ends it with the worker."""
        if self.level is Isolation.CONTAINER and self.worker_uid is not None:
            worker_user.end_processes(self.worker_uid)

    def environment(self) -> dict[str, str]:
        tmp = bubblewrap.SCRATCH if self.level.full else str(self.tmp)
        own_user = self.level.full or self.level is Isolation.CONTAINER
        environment = {
            "PATH": "/usr/bin:/bin" if own_user else os.environ.get("PATH", os.defpath),
            "HOME": tmp,
            "TMPDIR": tmp,
            "TEMP": tmp,
            "TMP": tmp,
            "USER": WORKER_USER,
            "LOGNAME": WORKER_USER,
            "LANG": "C.UTF-8",
            "PYTHONHASHSEED": "0",
            "PYTHONUTF8": "1",
            "MPLBACKEND": "Agg",
            "MPLCONFIGDIR": tmp,
        }
        if sys.platform == "win32":
            environment["SYSTEMROOT"] = os.environ.get("SYSTEMROOT", "")
        return environment

    def spawn_options(self, parent_death: Callable[[], Callable[[], None] | None]) -> dict[str, Any]:
        """What the worker's child must do between fork and exec: nothing in a sandbox, so it can be spawned.

        A preexec function makes Python fork the whole grader (page tables of a few hundred MiB, copied
        at every start) rather than vfork; in a sandbox nothing needs one: bubblewrap's --die-with-parent
        asks for the parent-death signal itself, and the tree's control groups are entered by a shell
        in front of bubblewrap (TreeLimits.entered_by), and bubblewrap installs the seccomp filter from the
        pipe passed to it. The container cage becomes its own user there, with no new privileges and the
        filter (worker_user.spawn_options). The process cage installs the filter and then runs the preexec
        function ``parent_death`` makes (made here only, so a sandboxed start does not look it up)."""
        worker_filter = seccomp.worker_filter()
        if self.level.full:
            self._close_filter_descriptor()  # a start before that never reached adopt
            if worker_filter is None:
                return {"preexec_fn": None}
            self.filter_descriptor = worker_filter.descriptor_for_start()
            return {"preexec_fn": None, "pass_fds": (self.filter_descriptor,)}
        if self.level is Isolation.CONTAINER:
            assert self.worker_uid is not None
            return worker_user.spawn_options(self.worker_uid, parent_death(), self.writes_only)
        # The process cage: the grader's own user, filtered all the same (no new privileges, then the filter).
        death = parent_death()
        if worker_filter is None:
            return {"preexec_fn": death}

        def confine() -> None:
            worker_filter.install()
            if death is not None:
                death()

        return {"preexec_fn": confine}

    def _close_filter_descriptor(self) -> None:
        if self.filter_descriptor is not None:
            with contextlib.suppress(OSError):
                os.close(self.filter_descriptor)
            self.filter_descriptor = None

    def watch_disk(self) -> None:
        """Watch what the container cage's worker, just started, writes in all (disk_watch): past ``disk_mb``,
        every process of its user ends."""
        self.stop_watching_disk()
        if self.level is Isolation.CONTAINER and self.worker_uid is not None and self.writes_only is not None:
            uid = self.worker_uid
            limit = self.limits.disk_mb * 2**20
            self.disk = DiskWatch([self.work, self.tmp], limit, lambda: worker_user.end_processes(uid))

    def stop_watching_disk(self) -> None:
        if self.disk is not None:
            self.disk.stop()

    def disk_exceeded(self) -> bool:
        return self.disk is not None and self.disk.exceeded

    def memory_exceeded(self) -> bool:
        return self.tree is not None and self.tree.memory_exceeded()

    def remove(self) -> None:
        """Remove the cage and its control groups; never raises, whatever the student left."""
        self._close_filter_descriptor()
        self.stop_watching_disk()
        if self.level is Isolation.CONTAINER and self.worker_uid is not None:
            worker_user.remove_leftovers(self.worker_uid)  # its processes first, then its files, in one child
        if self.worker_uid is not None:
            kernel_objects.sweep(self.worker_uid)  # keys and IPC the filter refused: made before it, or by a bug
        if self.tree is not None:
            self.tree.remove()
        remove_tree(self.root)


class CageUnavailable(RunError):
    """No student code is run here (``isolation.Isolation.NONE``): no cage would keep it from being root, or
    the bubblewrap to cage it with is not the one the kit pins."""


def remove_tree(folder: Path) -> None:
    """Remove ``folder`` whatever is in it (read-only entries, trees deeper than Python recurses); never raises.

    ``shutil.rmtree`` recurses once per level and stops at read-only
    folders; ``rm -rf`` walks any depth, and folders are made writable first.
    """
    if not os.path.lexists(folder):
        return
    with contextlib.suppress(Exception):
        shutil.rmtree(folder)
    if not os.path.lexists(folder) or sys.platform == "win32":
        return
    with contextlib.suppress(Exception):
        subprocess.run(
            ["chmod", "-R", "u+rwx", str(folder)], capture_output=True, timeout=120, stdin=subprocess.DEVNULL
        )
        subprocess.run(
            ["rm", "-rf", "--one-file-system", str(folder)], capture_output=True, timeout=120, stdin=subprocess.DEVNULL
        )


# A cage folder with no owner file is being made (for a millisecond); one older than this was left by a
# grader killed between making the folder and writing the file.
UNOWNED_AFTER_SECONDS = 600


def sweep_abandoned(base: Path) -> list[Path]:
    """Remove the cages of graders that no longer run, and return them; never raises.

    A grader killed with SIGKILL cannot remove its cage; the next one to
    start does. A cage without an owner file is being made, unless it is
    older than ``UNOWNED_AFTER_SECONDS``. ``base`` is the grader's own 0700
    folder: only this user's graders make cages in it.
    """
    removed = []
    with contextlib.suppress(OSError):
        for cage in list(base.iterdir()):
            try:
                owner = int((cage / OWNER).read_text(encoding="ascii"))
            except (OSError, ValueError):
                with contextlib.suppress(OSError):
                    if time.time() - cage.lstat().st_mtime > UNOWNED_AFTER_SECONDS:
                        remove_tree(cage)
                        removed.append(cage)
                continue
            if not _running(owner):
                with contextlib.suppress(OSError):
                    folders = (cage / CGROUPS).read_text(encoding="utf-8").split()
                    remove_groups(tuple(Path(folder) for folder in folders if "bpe-kit-" in folder))
                remove_tree(cage)
                removed.append(cage)
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: alive
    return True
