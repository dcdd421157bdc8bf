"""Where a worker runs: a private copy of the submission, and the command that starts it.

On Linux as root, ``unshare`` gives the worker its own mount, PID and
network namespaces; the worker then narrows its own file system view
(``sandbox.py``). Elsewhere the worker still is a separate interpreter with
its own pipe and resource limits, and the grader says once what it could not
isolate.
"""

from __future__ import annotations

import functools
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

RUNTIME_FILES = ("bootstrap.py", "codec.py", "sandbox.py")
UNSHARE = ("--mount", "--pid", "--net", "--fork", "--kill-child", "--mount-proc")


@functools.cache
def namespaces_available() -> bool:
    """Whether this machine lets the grader give workers their own namespaces."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        return False
    unshare = shutil.which("unshare")
    if unshare is None:
        return False
    try:
        probe = subprocess.run([unshare, *UNSHARE, "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return False
    return probe.returncode == 0


def isolation_notice() -> str | None:
    """One line on what this platform cannot isolate, or None when it all is."""
    if namespaces_available():
        return None
    return (
        "note: student code runs in a separate interpreter with resource limits, but without "
        "namespaces here (they need Linux and root): it can read files this user can read."
    )


@dataclass
class Cage:
    """A private folder for one submission's worker, removed by :meth:`remove`."""

    root: Path
    hidden: list[str] = field(default_factory=list)

    @property
    def work(self) -> Path:
        return self.root / "work"

    @property
    def runtime(self) -> Path:
        return self.root / "runtime"

    @property
    def tmp(self) -> Path:
        return self.root / "tmp"

    @classmethod
    def create(cls, files: dict[str, bytes], *, hidden: list[str]) -> Cage:
        root = _new_cage_root()
        cage = cls(root=root, hidden=hidden)
        for folder in (cage.work, cage.runtime, cage.tmp):
            folder.mkdir()
        here = Path(__file__).parent
        for name in RUNTIME_FILES:
            shutil.copyfile(here / name, cage.runtime / name)
        for relative, content in files.items():
            target = cage.work / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
        return cage

    def command(self) -> list[str]:
        # -s -P -B: no user site, no script folder on sys.path, no bytecode
        # written. Not -I: its -E would also drop the PYTHONHASHSEED we set
        # for repeatable runs, and the environment is ours entirely anyway.
        python = [sys.executable, "-s", "-P", "-B", str(self.runtime / "bootstrap.py")]
        if namespaces_available():
            return [shutil.which("unshare") or "unshare", *UNSHARE, *python]
        return python

    def sandbox_config(self) -> dict[str, list[str]] | None:
        if not namespaces_available():
            return None
        return {
            "writable": [str(self.work), str(self.tmp)],
            "hidden": [path for path in self.hidden if not str(self.root).startswith(path)],
        }

    def environment(self) -> dict[str, str]:
        tmp = str(self.tmp)
        environment = {
            "PATH": os.environ.get("PATH", os.defpath),
            "HOME": tmp,
            "TMPDIR": tmp,
            "TEMP": tmp,
            "TMP": tmp,
            "LANG": "C.UTF-8",
            "PYTHONHASHSEED": "0",
            "PYTHONUTF8": "1",
            "MPLBACKEND": "Agg",
            "MPLCONFIGDIR": tmp,
        }
        if sys.platform == "win32":
            environment["SYSTEMROOT"] = os.environ.get("SYSTEMROOT", "")
        return environment

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def _new_cage_root() -> Path:
    """A folder with an unguessable name in a parent no one else can list.

    With namespaces, concurrent workers share a uid; the 0711 parent keeps
    one submission from finding another's copy.
    """
    base = Path(tempfile.gettempdir()) / f"bpe-kit-cages-{os.getuid() if hasattr(os, 'getuid') else 0}"
    base.mkdir(mode=0o711, exist_ok=True)
    sweep_abandoned(base)
    root = base / secrets.token_hex(16)
    root.mkdir(mode=0o700)
    (root / OWNER).write_text(str(os.getpid()), encoding="ascii")  # beside work/, never in the worker's copy
    return root


OWNER = "owner.pid"


def sweep_abandoned(base: Path) -> list[Path]:
    """Remove the cages of graders that no longer run, and return them.

    A grader killed with SIGKILL cannot remove its cage; the next one to
    start does. A cage without an owner file is being made, or is not ours.
    """
    removed = []
    for cage in base.iterdir():
        try:
            owner = int((cage / OWNER).read_text(encoding="ascii"))
        except (OSError, ValueError):
            continue
        if not _running(owner):
            shutil.rmtree(cage, ignore_errors=True)
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
