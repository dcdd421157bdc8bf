"""The Pythons CI has, for a kit test that grades on each: this one, and pyenv's 3.12 and 3.13 where present.

Another Python grades through a venv made for it with the kit installed (a worker runs the grader's own
interpreter): one venv per version and per checkout, so two checkouts never point one venv at each other.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from engines import missing

from autograder.kit_root import KIT_ROOT

# pyenv's interpreters: its own root, this user's, or root's (.ci/cage-as-user lets its user pass through /root).
PYENV_ROOTS = [Path(os.environ["PYENV_ROOT"])] if "PYENV_ROOT" in os.environ else []
PYENV_ROOTS += [Path.home() / ".pyenv", Path("/root/.pyenv")]
OTHER_PYTHONS = ("3.12", "3.13")  # beside the one running the tests, where CI has them (pyenv)


def python_versions() -> list[str]:
    here = f"{sys.version_info.major}.{sys.version_info.minor}"
    return [here, *(version for version in OTHER_PYTHONS if version != here)]


def interpreter(version: str) -> str:
    """This interpreter, or pyenv's newest of ``version`` in a venv made for the test with the kit in it."""
    if version == f"{sys.version_info.major}.{sys.version_info.minor}":
        return sys.executable
    found = sorted(
        path for root in PYENV_ROOTS for path in (root / "versions").glob(f"{version}.*/bin/python{version}")
    )
    if not found:
        missing(f"Python {version}", install=f"pyenv install {version}")
    checkout = hashlib.sha256(str(KIT_ROOT).encode()).hexdigest()[:8]
    venv = Path(tempfile.gettempdir()) / f"bpe-kit-python-{version}-{os.getuid()}-{checkout}"
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([str(found[-1]), "-m", "venv", str(venv)], check=True, timeout=300)
    installed = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-e", str(KIT_ROOT)],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert installed.returncode == 0, installed.stderr[-2000:]
    return str(python)
