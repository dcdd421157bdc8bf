"""The hidden suite's drawn examples kept on disk, so each example set is drawn once a course, not once a process.

A grader replays the examples a property drew for an earlier hand-in of the same example set (replay); the first
hand-in of each set pays for the draw. With ``example_sets.SETS`` sets, every grader process of a batch drew every
property once per set: two jobs, sixteen draws, a third of a 100-hand-in batch's CPU. Kept beside the course's
secret (``.course-examples``, git-ignored, never in a release or a Gradescope package), what one process drew
the next one reads: every job and shard on this machine, every later batch, `grade` of one hand-in.

A file is named by a digest of everything that decides the draw: the test and its example set, the course's
secret (so its seed), the suite's files and the grading code's, hypothesis's and Python's versions. Anything
changed draws anew under another name. A file that cannot be read, or that is not the grader's own, is left
alone and the examples are drawn again, as without a store.

Only where the secret is the course's file: a secret given in the environment (the kit's own tests) keeps
examples in memory, unless ``BPE_KIT_EXAMPLE_STORE`` names a folder.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import stat
import sys
import tempfile
from pathlib import Path

from autograder.testing import example_sets

STORE_FOLDER = ".course-examples"
STORE_VARIABLE = "BPE_KIT_EXAMPLE_STORE"
_GRADING_CODE = Path(__file__).parent  # the plugin, the rubric, replay: how a property's examples are drawn


def store_folder(folder: Path | None = None) -> Path | None:
    """Where this process keeps examples: the variable's folder, else beside the course's secret file (in
    ``folder``, by default the course's: example_sets.course_folder); None where the secret comes from the
    environment."""
    named = os.environ.get(STORE_VARIABLE)
    if named:
        return Path(named)
    if os.environ.get(example_sets.SECRET_VARIABLE):
        return None
    return (folder or example_sets.course_folder()) / STORE_FOLDER


class ExampleStore:
    """The examples of one suite, as it is now, under one course secret."""

    def __init__(self, folder: Path, suite: Path, secret: bytes) -> None:
        self.folder = folder
        self.namespace = _namespace(suite, secret)

    @classmethod
    def for_suite(cls, suite: Path) -> ExampleStore | None:
        """The store of ``suite``'s examples: the hidden suite's only (the public suite's examples are fixed, and
        drawn on the student's machine, where nothing of the course's is kept)."""
        folder = store_folder()
        if folder is None or suite.name != "hidden":
            return None
        return cls(folder, suite, example_sets.course_secret())

    def _path(self, key: str) -> Path:
        name = hashlib.sha256(f"{self.namespace}\0{key}".encode("utf-8", "surrogatepass")).hexdigest()[:40]
        return self.folder / f"{name}.examples"

    def load(self, key: str) -> list[bytes] | None:
        """The examples kept for ``key``, or None (none kept, or a file that is not sound or not ours)."""
        path = self._path(key)
        try:
            with open(path, "rb") as file:
                status = os.fstat(file.fileno())
                owner = os.geteuid() if hasattr(os, "geteuid") else status.st_uid  # Windows: no uid to compare
                if status.st_uid != owner or status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
                    return None  # written by someone else: its pickled examples are not run
                kept = marshal.loads(file.read())
        except (OSError, EOFError, ValueError, TypeError):
            return None
        if not isinstance(kept, list) or not all(isinstance(example, bytes) for example in kept):
            return None
        return kept

    def save(self, key: str, examples: list[bytes]) -> None:
        """Keep ``examples`` for ``key``: written whole under a temporary name, then renamed, so a reader (another
        job) sees all of it or none. A store that cannot be written is a cost, never a failure."""
        with contextlib.suppress(OSError):
            self.folder.mkdir(mode=0o700, exist_ok=True)
            descriptor, temporary = tempfile.mkstemp(dir=self.folder, prefix=".writing-")
            try:
                with os.fdopen(descriptor, "wb") as file:
                    file.write(marshal.dumps(examples))
                os.replace(temporary, self._path(key))
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise


def _namespace(suite: Path, secret: bytes) -> str:
    """A digest of what decides a draw besides the test's key: the secret, the suite's and the grading code's
    sources, and the versions of hypothesis and Python."""
    import hypothesis

    digest = hashlib.sha256()
    digest.update(hashlib.sha256(secret).digest())
    digest.update(f"{hypothesis.__version__}\0{sys.version}\0".encode())
    for top in (suite, _GRADING_CODE):
        for path in sorted(top.rglob("*.py")):
            digest.update(path.relative_to(top).as_posix().encode("utf-8", "surrogateescape") + b"\0")
            with contextlib.suppress(OSError):
                digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()
