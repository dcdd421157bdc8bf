"""The batch's results on disk: one folder per student, each file written whole or not at all.

A result is current when its fingerprint matches: the submission's files,
the graded suite, the reference solutions, the limits and the grader's
version. Anything else (a changed submission, a fixed test) is graded again.
``results.json`` is written last, so its presence means the student is done.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from autograder import __version__
from autograder.engine.submission import LoadedSubmission
from autograder.engine.worker.limits import Limits

RESULTS = "results.json"
TEMP_PREFIX = ".partial-"


def submission_hash(loaded: LoadedSubmission) -> str:
    digest = hashlib.sha256()
    for name in sorted(loaded.files):
        digest.update(name.encode("utf-8") + b"\0" + hashlib.sha256(loaded.files[name]).digest())
    return digest.hexdigest()


def grading_hash(suite: Path, references: Path, limits: Limits, parts: tuple[str, ...] = ()) -> str:
    """What else decides a score: the tests (and which parts of them), the reference they compare with, the
    limits, the grader."""
    settings = json.dumps({"limits": limits.as_dict(), "parts": sorted(parts)}, sort_keys=True)
    digest = hashlib.sha256(f"{__version__}\0{suite.name}\0{settings}".encode())
    for folder in (suite, references):
        for path in sorted(folder.rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            digest.update(path.relative_to(folder).as_posix().encode("utf-8") + b"\0" + path.read_bytes())
    return digest.hexdigest()


def fingerprint(loaded: LoadedSubmission, grading: str) -> str:
    return hashlib.sha256(f"{submission_hash(loaded)}:{grading}".encode()).hexdigest()


def _file_mode() -> int:
    """The mode an ordinary new file gets here (0644 under the usual umask): mkstemp's 0600 would keep a
    course's web server from serving feedback pages."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


FILE_MODE = _file_mode()


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a reader, or a restart after kill -9, sees all of it or none."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=path.parent)
    try:
        os.chmod(temporary, FILE_MODE)
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


class ResultStore:
    def __init__(self, root: Path) -> None:
        self.root = root

    def folder(self, student: str) -> Path:
        return self.root / student

    def sweep(self) -> int:
        """Remove half-written files a killed batch left behind; return how many."""
        removed = 0
        for leftover in self.root.glob(f"*/{TEMP_PREFIX}*"):
            with contextlib.suppress(OSError):
                leftover.unlink()
                removed += 1
        for leftover in self.root.glob(f"{TEMP_PREFIX}*"):
            with contextlib.suppress(OSError):
                leftover.unlink()
                removed += 1
        return removed

    def current(self, student: str, fingerprint: str) -> dict[str, Any] | None:
        """The stored result when it was made from exactly this submission and grading set-up."""
        document = self.read(student)
        if document is None or document.get("extra_data", {}).get("batch", {}).get("fingerprint") != fingerprint:
            return None
        return document

    def read(self, student: str) -> dict[str, Any] | None:
        try:
            document = json.loads((self.folder(student) / RESULTS).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return document if isinstance(document, dict) else None

    def write(self, student: str, document: dict[str, Any] | None, feedback: dict[str, str]) -> None:
        """Feedback files first, the results last: a result on disk always has its feedback beside it."""
        folder = self.folder(student)
        for name, text in feedback.items():
            write_atomically(folder / name, text)
        if document is not None:
            write_atomically(folder / RESULTS, json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        else:
            with contextlib.suppress(FileNotFoundError):
                (folder / RESULTS).unlink()
