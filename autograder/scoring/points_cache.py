"""A suite's tests and their points, kept from its last collection, so that a process that only needs the points
(a merge, a batch's own process, `grade points`) does not import and collect the whole suite for them.

Collecting the hidden suite imports pytest, hypothesis, every test module and the reference: most of a merge's
time, for a table that changes only when the suite does. Kept in the grader's own folder (``grader_folder``:
0700, this user's), named by a digest of everything collection reads: the suite's files and its path, the
reference, the grader's code, and the versions of Python, pytest and hypothesis. Anything changed is
collected anew under another name. A file that cannot be read or is not sound is collected again, as without
a cache; a cache that cannot be written is a cost, never a failure.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sys
from importlib import metadata
from pathlib import Path

from autograder.atomic_files import write_atomically
from autograder.kit_root import KIT_ROOT

GRADER = Path(__file__).resolve().parents[1]  # the autograder package: its plugin and this module read the marks
FOLDER = "points"

Tests = list[tuple[str, str, str, float]]  # (module, function, pytest's name, its mark's points)
Bonus = frozenset[tuple[str, str]]


def load(suite: Path) -> tuple[Tests, Bonus] | None:
    """The tests and bonus functions kept for ``suite`` as it is now, or None."""
    with contextlib.suppress(OSError, RuntimeError, ValueError, TypeError, KeyError):
        kept = json.loads(_path(suite).read_text(encoding="utf-8"))
        tests = [
            (str(module), str(function), str(name), float(points)) for module, function, name, points in kept["tests"]
        ]
        bonus = frozenset((str(module), str(function)) for module, function in kept["bonus"])
        return tests, bonus
    return None


def save(suite: Path, tests: Tests, bonus: Bonus) -> None:
    """Keep what collecting ``suite`` found, written whole (another process may read it at once)."""
    with contextlib.suppress(OSError, RuntimeError):
        document = {"tests": [list(test) for test in tests], "bonus": sorted(list(key) for key in bonus)}
        write_atomically(_path(suite), json.dumps(document))


def _path(suite: Path) -> Path:
    from autograder.cage.cage import grader_folder  # the grader's 0700 folder, never a shared one

    return grader_folder(FOLDER) / f"{_digest(suite)}.json"


def _digest(suite: Path) -> str:
    digest = hashlib.sha256(f"{sys.version}\0{metadata.version('pytest')}\0{metadata.version('hypothesis')}\0".encode())
    digest.update(str(suite.resolve()).encode("utf-8", "surrogateescape") + b"\0")
    for top, pattern in ((suite, "*"), (KIT_ROOT / "solutions", "*.py"), (GRADER, "*.py")):
        for path in sorted(top.rglob(pattern)):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            digest.update(path.relative_to(top).as_posix().encode("utf-8", "surrogateescape") + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()
