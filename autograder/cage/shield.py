"""What a worker's uid must not read, in a cage without its own file system view (the container cage).

Bubblewrap's sandbox shows a worker an allow-list; a container's worker sees
the grader's whole file system as any user would. So before the first
worker starts, the grader, which is root there and owns the kit's files,
takes other users' access away from the folders that hold what no student
may read (the kit with its hidden tests and solutions, the results, the
class's hand-ins) and plants a canary file in each it may write to. The
worker then checks, before it loads any student code, that it can list none
of those folders and open none of those files; a worker that can refuses to
start, and the grader reports its own failure, never the student's zero.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import sys
import threading
from pathlib import Path

from autograder.kit_root import KIT_ROOT

CANARY = ".bpe-kit-canary"

_guarded: dict[Path, Path | None] = {}  # folder -> its canary (None: one not ours to write into)
_guarding = threading.Lock()


# The guarded folders and canaries, for the processes this grader starts (a batch's pool, started by spawn):
# their workers check them too. Paths only, none of them secret.
CARRIED = "BPE_KIT_GUARDED"


class GuardError(Exception):
    """A folder the grader must keep from student code is not the grader's own: the message says which."""


def guard(folder: Path, *, plant: bool) -> str:
    """Take group's and others' access away from ``folder`` (its top only: nothing below can then be
    reached; a file, such as an LMS's .zip, likewise); ``plant`` a canary in it where the folder is the
    grader's own (results, the kit), never in a student's. Returns a line saying what changed, or "" where
    nothing did. Idempotent."""
    folder = folder.resolve()
    with _guarding:
        if folder in _guarded or not folder.exists():
            return ""
        mode = stat.S_IMODE(folder.stat().st_mode)
        if mode & 0o077:
            os.chmod(folder, mode & 0o700)
        canary = None
        if plant and folder.is_dir():
            if folder.stat().st_uid != os.geteuid():  # a worker's leftover squatting the name, say
                raise GuardError(
                    f"{folder}: belongs to user {folder.stat().st_uid}, not to the grader; choose another folder"
                )
            canary = folder / CANARY
            with contextlib.suppress(FileExistsError):
                descriptor = os.open(canary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
                with os.fdopen(descriptor, "w", encoding="ascii") as written:
                    written.write(secrets.token_hex(16) + "\n")
        _guarded[folder] = canary
        os.environ[CARRIED] = os.pathsep.join(_paths())
    if mode & 0o077:
        return f"note: took other users' access away from {folder} (mode {mode:o} -> {mode & 0o700:o})"
    return ""


def guard_the_kit() -> list[str]:
    """The kit's own folder; or, where what the worker runs lives inside it (a venv in the clone), every
    entry of it but the ones on the way to that, with the kit's folder itself left to be passed through
    (0711) but not listed: its .git holds the hidden tests and solutions as well."""
    from autograder.cage.bubblewrap import site_folders

    needed = [Path(path).resolve() for path in (sys.prefix, sys.base_prefix, os.path.realpath(sys.executable))]
    needed += [Path(path).resolve() for path in site_folders()]
    inside = [path for path in needed if _within(path, KIT_ROOT)]
    if not inside:
        return [line for line in [guard(KIT_ROOT, plant=True)] if line]
    lines = [line for line in [pass_through(KIT_ROOT)] if line]
    for entry in sorted(KIT_ROOT.iterdir()):
        if not any(_within(path, entry.resolve()) for path in inside):
            lines += [line for line in [guard(entry, plant=entry.is_dir())] if line]
    return lines


def guard_for_grading(*, kit: bool = True, own: tuple[Path, ...] = (), students: tuple[Path, ...] = ()) -> list[str]:
    """Before the first worker starts in the container cage: the kit, the grader's ``own`` folders
    (results, OUT: canaries planted) and the ``students``' (the class folder or download: nothing written
    in it). What changed, a line each, for the instructor; nothing at any other level, where bubblewrap's
    view or the user's own account does this."""
    from autograder.cage.isolation import Isolation, isolation

    if isolation() is not Isolation.CONTAINER:
        return []
    lines = guard_the_kit() if kit else []
    for folder in own:  # made now, if new, so that it is never open to others (the batch would make it)
        with contextlib.suppress(OSError):  # what cannot be made is said by the command, in its own words
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    lines += [line for folder in own if (line := guard(folder, plant=True))]
    lines += [line for folder in students if (line := guard(folder, plant=False))]
    return lines


def pass_through(folder: Path) -> str:
    """Let others pass through ``folder`` (to an environment inside it) but not list or write it."""
    mode = stat.S_IMODE(folder.stat().st_mode)
    if not mode & 0o066:
        return ""
    os.chmod(folder, mode & 0o711)
    return f"note: others may pass through {folder} to the environment in it, but not list it"


def unreadable() -> list[str]:
    """What a worker checks it cannot read: each guarded folder and each canary planted in one, by this
    grader or by the one that started it."""
    with _guarding:
        carried = [path for path in os.environ.get(CARRIED, "").split(os.pathsep) if path]
        return list(dict.fromkeys([*carried, *_paths()]))


def _paths() -> list[str]:
    return [str(path) for folder, canary in _guarded.items() for path in (folder, canary) if path is not None]


def _within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents
