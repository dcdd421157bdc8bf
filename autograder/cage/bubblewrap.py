"""The worker's file system, built from an allow-list, and the bubblewrap command that makes it.

Nothing of the host is inherited: bubblewrap starts from an empty root and
adds, read-only, the folders the interpreter imports from (the system's
shared libraries, Python's own ``lib`` folder, this environment's
site-packages), the cage's runtime and submission folders, a minimal
``/dev`` and a fresh ``/proc``, and one size-capped tmpfs the worker may
write to. Whatever is not listed here (the kit, a second clone, the batch,
its output, other cages, /home, the host's /tmp, the grader's caches) is not
there to be found.
"""

from __future__ import annotations

import functools
import os
import site
import sys
import sysconfig
from pathlib import Path, PurePosixPath

# Where the cage's pieces appear inside the sandbox.
RUNTIME = "/cage/runtime"  # bootstrap.py, codec.py and protocol.py, read-only
SUBMISSION = "/cage/submission"  # the grader's copy of the hand-in, read-only; the worker copies it to WORK
SCRATCH = "/tmp"  # the one writable place: a tmpfs, capped at the disk limit
WORK = "/tmp/work"  # the worker's own copy of the hand-in, and its working directory

# The dynamic loader and the C libraries that Python and its extension modules link to.
SYSTEM_LIBRARIES = ("/usr/lib", "/usr/lib64", "/usr/lib32", "/lib", "/lib64", "/lib32")
# What installers name the folders they put packages in (Debian's Python says dist-packages).
SITE_FOLDER_NAMES = ("site-packages", "dist-packages")
# Character devices a program may need; not the terminal, consoles, disks or the kernel log.
DEVICES = ("/dev/null", "/dev/zero", "/dev/random", "/dev/urandom")


@functools.cache
def site_folders() -> tuple[str, ...]:
    """The folders of installed packages a worker may import from, in this interpreter's order.

    This environment's site-packages, and site folders that a .pth file of it names (a venv layered over
    another's packages): by name only, so a project folder that a legacy editable install put on the path
    stays out. The worker starts without the ``site`` module (-S: its .pth files cost a third of a worker's
    start) and puts these on its path itself. Found once per grader: every worker it starts is told them.
    """
    paths = sysconfig.get_paths()
    named = [paths["purelib"], paths["platlib"], *site.getsitepackages()]
    named += [path for path in sys.path if os.path.basename(path) in SITE_FOLDER_NAMES]
    return tuple(path for path in dict.fromkeys(os.path.abspath(path) for path in named) if os.path.isdir(path))


def interpreter_paths() -> list[str]:
    """The folders and files this interpreter needs to start and import its packages, outermost only."""
    wanted = {str(sysconfig.get_config_var("LIBDIR") or "")}  # libpython, beside the standard library
    paths = sysconfig.get_paths()
    wanted.update(paths[key] for key in ("stdlib", "platstdlib"))
    wanted.update(site_folders())
    if sys.prefix != sys.base_prefix:
        wanted.add(os.path.join(sys.prefix, "pyvenv.cfg"))  # how a venv's interpreter finds its base
    existing = sorted(os.path.abspath(path) for path in wanted if path and os.path.exists(path))
    outermost: list[str] = []
    for path in existing:  # sorted, so a folder comes before what it holds
        if not any(_within(path, kept) for kept in outermost):
            outermost.append(path)
    return [path for path in outermost if not any(_within(path, system) for system in SYSTEM_LIBRARIES)]


def executable_chain(executable: str) -> tuple[list[tuple[str, str]], str]:
    """The symlinks from ``executable`` to the real interpreter, as (target, link) pairs, and the file."""
    links: list[tuple[str, str]] = []
    path = os.path.abspath(executable)
    for _ in range(40):
        if not os.path.islink(path):
            return links, path
        target = os.readlink(path)
        links.append((target, path))
        path = os.path.normpath(os.path.join(os.path.dirname(path), target))
    raise ValueError(f"{executable}: too many symbolic links to find the Python interpreter")


def command(
    bwrap: str,
    *,
    runtime: Path,
    submission: Path,
    scratch_bytes: int,
    as_root: bool,
    environment: dict[str, str],
    python_arguments: list[str],
    seccomp_descriptor: int | None,
) -> list[str]:
    """The bubblewrap command line that starts ``python_arguments`` (run by sys.executable) in the cage,
    with ``environment`` and nothing else (what bubblewrap itself was started with is cleared).

    ``seccomp_descriptor``: an open file holding the worker's seccomp program (seccomp.Filter.descriptor),
    which bubblewrap reads and installs, with no new privileges, just before it starts the interpreter;
    the process that starts bubblewrap must pass it on (``pass_fds``). None only where the kit has no
    filter for this machine."""
    arguments = [bwrap]
    if as_root:
        # No user namespace: the worker drops to its own unprivileged uid itself, after these mounts
        # are made (the interpreter may live inside root's 0700 home). It keeps only the two
        # capabilities that drop needs; setting its uid takes them away.
        arguments += [
            "--unshare-pid",
            "--unshare-net",
            "--unshare-ipc",
            "--unshare-uts",
            "--unshare-cgroup-try",
            "--cap-drop",
            "ALL",
            "--cap-add",
            "CAP_SETUID",
            "--cap-add",
            "CAP_SETGID",
        ]
    else:
        arguments += ["--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL"]
    # --die-with-parent: the worker is spawned with nothing run between fork and exec (Cage.spawn_options), so
    # this is what ends the sandbox with a grader killed by SIGKILL.
    arguments += ["--die-with-parent", "--new-session", "--clearenv"]
    if seccomp_descriptor is not None:
        arguments += ["--seccomp", str(seccomp_descriptor)]
    for name, value in environment.items():
        arguments += ["--setenv", name, value]

    read_only: list[str] = []
    symlinks: list[tuple[str, str]] = []
    for path in SYSTEM_LIBRARIES:
        if os.path.islink(path):
            symlinks.append((os.readlink(path), path))
        elif os.path.isdir(path):
            read_only.append(path)
    links, interpreter = executable_chain(sys.executable)
    symlinks += links
    read_only += [
        path for path in [*interpreter_paths(), interpreter] if not any(_within(path, kept) for kept in read_only)
    ]

    # The scratch tmpfs first: a folder of the environment that lives under /tmp (a CI venv) is then
    # bound inside it, read-only, and the rest of the host's /tmp is not there.
    arguments += ["--size", str(scratch_bytes), "--perms", "1777", "--tmpfs", SCRATCH]
    # Folders bubblewrap makes on the way to a mount point would copy the host's modes (a 0700
    # /root would lock the unprivileged worker out of the interpreter below it): make them 0755 first.
    mount_points = read_only + [link for _, link in symlinks] + [RUNTIME, SUBMISSION]
    for folder in _ancestors(mount_points):
        if folder != SCRATCH:
            arguments += ["--perms", "0755", "--dir", folder]
    for path in read_only:
        arguments += ["--ro-bind", path, path]
    for target, link in symlinks:
        if link not in read_only:
            arguments += ["--symlink", target, link]
    arguments += ["--perms", "0755", "--tmpfs", "/dev"]
    for device in DEVICES:
        arguments += ["--dev-bind", device, device]
    arguments += ["--remount-ro", "/dev", "--proc", "/proc"]
    arguments += ["--ro-bind", str(runtime), RUNTIME, "--ro-bind", str(submission), SUBMISSION]
    arguments += ["--chdir", SCRATCH, "--", sys.executable, *python_arguments]
    return arguments


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _ancestors(paths: list[str]) -> list[str]:
    """Every folder above ``paths`` (not ``/``), outermost first, each once."""
    found: set[str] = set()
    for path in paths:
        found.update(str(parent) for parent in PurePosixPath(path).parents if str(parent) != "/")
    return sorted(found, key=lambda folder: (folder.count("/"), folder))
