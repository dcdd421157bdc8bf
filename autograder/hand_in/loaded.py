"""A hand-in as read (``LoadedHandIn``): its files and how the worker loads them, the message that
tells it (``worker_script``) included, and its digest (``hand_in_hash``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from pathlib import Path

from autograder.hand_in.cells import Cell
from autograder.hand_in.policy import Refusal
from autograder.hand_in.policy_parts import REFUSED, refused_parts
from autograder.parts import SCRIPT_MODULES


class HandInKind(StrEnum):
    """How a hand-in holds its parts, and so how the worker loads it."""

    MODULES = "modules"  # the part modules by name (or notebooks named after them)
    SCRIPT = "script"  # one notebook or file holds it all
    RELEASE = "release"  # a release's own folder handed in whole: see LoadedHandIn.halves


@dataclass(frozen=True)
class LoadedHandIn:
    """What the worker needs: the files to copy, and how to load them."""

    name: str
    source: Path
    kind: HandInKind
    files: dict[str, bytes]
    script_name: str = ""
    cells: tuple[Cell, ...] = ()
    notes: tuple[str, ...] = field(default=())
    # Part modules handed in as notebooks named after them (bpe.ipynb is the module bpe): their code cells.
    module_cells: tuple[tuple[str, tuple[Cell, ...]], ...] = ()
    # A student release's own folder (HandInKind.RELEASE): its work folders, each a hand-in graded on its own, and
    # each part counted from the one where it scores better, as `grade` counts them.
    halves: tuple[LoadedHandIn, ...] = ()
    # Modules a course's file lets its hand-ins import besides the policy's own (``[policy] allow_modules``).
    allow_modules: frozenset[str] = frozenset()

    @cached_property
    def refused(self) -> tuple[tuple[str, tuple[Refusal, ...]], ...]:
        """Each part module whose code is outside the plain-Python policy, with its refusals (policy_parts):
        read from the source in the grader, before any of it runs, whoever grades it."""
        return refused_parts(
            self.files,
            kind=self.kind.value,
            script_name=self.script_name,
            cells=self.cells,
            module_cells=self.module_cells,
            allow_modules=self.allow_modules,
        )

    def refusal_texts(self) -> dict[str, tuple[str, str]]:
        """Each refused part module's words: one line per construct, and the same without the student's code."""
        texts = {}
        for module, refusals in self.refused:
            head = REFUSED.format(module=module)
            texts[module] = (
                "\n".join([head, *(refusal.line_text() for refusal in refusals)]),
                "\n".join([head, *(refusal.summary() for refusal in refusals)]),
            )
        return texts

    def worker_script(self) -> dict[str, object]:
        """How the worker loads this submission (sent in its first message)."""
        return {
            "kind": self.kind.value,
            "script_name": self.script_name,
            "script_modules": list(SCRIPT_MODULES),
            "cells": _plain_cells(self.cells),
            "module_cells": {module: _plain_cells(cells) for module, cells in self.module_cells},
        }


def hand_in_hash(loaded: LoadedHandIn) -> str:
    """A digest of what was handed in: its files and what loading said of them (equal digests, equal hand-ins)."""
    digest = hashlib.sha256()
    # What loading said (a file graded under another name) goes with the result, as the files do.
    notes = [note for each in (loaded, *loaded.halves) for note in each.notes]  # a release's folders' too
    digest.update("\n".join(notes).encode("utf-8", "surrogatepass") + b"\0")
    for name in sorted(loaded.files):
        digest.update(name.encode("utf-8") + b"\0" + hashlib.sha256(loaded.files[name]).digest())
    return digest.hexdigest()


def _plain_cells(cells: tuple[Cell, ...]) -> list[dict[str, object]]:
    return [{"index": cell.index, "source": cell.source, "name": cell.name or str(cell.index)} for cell in cells]
