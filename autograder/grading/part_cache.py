"""Each part's results, kept between runs of ``grade`` so that a part nobody changed is not graded again.

A student's loop is edit one module, run ``grade``, read. The key of a part
holds everything that decides its score: the grading (tests, reference,
limits, the grader's own code), the folder the hand-in was read from (its
resolved path), the file that holds the part, and every file of the hand-in
that is not another part's (a helper module, data). The folder is in the key
because every student's copy of the stubs has the same content: a result from
a copy graded elsewhere must never be this folder's "unchanged since last
graded". Another part's module counts where the run read it, however (an
import, importlib, open): the worker says which of the hand-in's files it
read, and a result is kept with their digests and used only while they are
unchanged. The cache lives in the user's cache folder, never beside the work:
``$BPE_KIT_CACHE``, else the platform's (``~/.cache/bpe-kit`` on Linux);
``BPE_KIT_CACHE=off`` or ``grade --no-cache`` turns it off.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from autograder.atomic_files import write_atomically
from autograder.hand_in.loaded import HandInKind, LoadedHandIn
from autograder.hand_in.loading import PART_FILES
from autograder.scoring.grade_result import TestResult

CACHE_VARIABLE = "BPE_KIT_CACHE"
OFF = "off"
KEPT = 400  # entries; the oldest go first (a part is a few kilobytes)


def cache_folder() -> Path | None:
    """Where results are kept for this user, or None when the cache is turned off."""
    chosen = os.environ.get(CACHE_VARIABLE, "")
    if chosen == OFF:
        return None
    if chosen:
        return Path(chosen)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "bpe-kit" / "parts"


@dataclass(frozen=True)
class PartResult:
    """One part's tests from one grading run, with that run's notes and its share of the time."""

    tests: list[TestResult]
    notes: list[str]
    seconds: float
    # The hand-in's files the run read (every file, where the run could not say), each with its digest ("" for
    # one it looked for and did not find).
    depends: dict[str, str] | None = None
    # Of the notes, those the worker said: student code can shape them (scoring.feedback_policy).
    from_code: list[str] = field(default_factory=list)

    def still_holds(self, loaded: LoadedHandIn) -> bool:
        """Whether every file this result depends on is as it was (one kept without its files: never)."""
        return self.depends is not None and all(_digest(loaded, name) == kept for name, kept in self.depends.items())


def file_digests(loaded: LoadedHandIn, read: list[str] | None) -> dict[str, str]:
    """The digest of each file ``read`` names (of every file, for None), "" for one the hand-in lacks."""
    return {name: _digest(loaded, name) for name in (loaded.files if read is None else read)}


def _digest(loaded: LoadedHandIn, name: str) -> str:
    return hashlib.sha256(loaded.files[name]).hexdigest() if name in loaded.files else ""


def part_key(loaded: LoadedHandIn, module: str, grading: str) -> str:
    """The digest of what decides ``module``'s results in this hand-in."""
    others = PART_FILES - {f"{module}.py", f"{module}.ipynb"}
    digest = hashlib.sha256(f"{grading}\0{module}\0{loaded.kind.value}\0{loaded.script_name}".encode())
    digest.update(os.fsencode(_resolved(loaded.source)) + b"\0")
    # What loading said of this hand-in (a file graded under another name, a notebook's skipped magics) is
    # kept with its results: the same code under another name must not show the other name's notes.
    digest.update("\n".join(loaded.notes).encode("utf-8", "surrogatepass") + b"\0")
    for name in sorted(loaded.files):
        if loaded.kind is HandInKind.MODULES and name in others:
            continue  # counted where the run read it (PartResult.depends)
        digest.update(name.encode("utf-8") + b"\0" + hashlib.sha256(loaded.files[name]).digest())
    return digest.hexdigest()


def _resolved(source: Path) -> str:
    """``source`` as one name for the folder however it was reached (a relative path, a link)."""
    try:
        return str(source.resolve())
    except OSError:
        return str(source.absolute())  # a path that cannot be resolved still names one place


class PartCache:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def get(self, key: str) -> PartResult | None:
        try:
            raw = json.loads((self.folder / f"{key}.json").read_text(encoding="utf-8"))
            depends = raw.get("depends")
            kept = PartResult(
                tests=[TestResult.from_json(test) for test in raw["tests"]],
                notes=list(raw["notes"]),
                seconds=float(raw["seconds"]),
                from_code=list(raw["from_code"]),  # an entry kept without it is graded again
            )
            return replace(kept, depends=dict(depends)) if isinstance(depends, dict) else kept
        except (OSError, ValueError, KeyError, TypeError):
            return None  # absent, or damaged: graded again

    def put(self, key: str, result: PartResult) -> None:
        """Keep ``result``; a cache that cannot be written only costs speed, so errors are ignored."""
        with contextlib.suppress(OSError):
            payload = {
                "tests": [test.to_gradescope() for test in result.tests],
                "notes": result.notes,
                "from_code": result.from_code,
                "seconds": result.seconds,
                "depends": result.depends,
            }
            write_atomically(self.folder / f"{key}.json", json.dumps(payload, ensure_ascii=False))

    def prune(self) -> None:
        """Keep the newest ``KEPT`` entries; once a grading, after its results are put."""
        entries = sorted(self.folder.glob("*.json"), key=lambda path: path.stat().st_mtime)
        for old in entries[:-KEPT]:
            with contextlib.suppress(OSError):
                old.unlink()
