"""A hand-in as read (``LoadedSubmission``): its files and how the worker loads them, the message that
tells it (``worker_script``) included.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from autograder.handin.cells import Cell
from autograder.parts import SCRIPT_MODULES


class HandInKind(StrEnum):
    """How a hand-in holds its parts, and so how the worker loads it."""

    MODULES = "modules"  # the part modules by name (or notebooks named after them)
    SCRIPT = "script"  # one notebook or file holds it all
    RELEASE = "release"  # a release's own folder handed in whole: see LoadedSubmission.halves


@dataclass(frozen=True)
class LoadedSubmission:
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
    halves: tuple[LoadedSubmission, ...] = ()

    def worker_script(self) -> dict[str, object]:
        """How the worker loads this submission (sent in its first message)."""
        return {
            "kind": self.kind.value,
            "script_name": self.script_name,
            "script_modules": list(SCRIPT_MODULES),
            "cells": _plain_cells(self.cells),
            "module_cells": {module: _plain_cells(cells) for module, cells in self.module_cells},
        }


def _plain_cells(cells: tuple[Cell, ...]) -> list[dict[str, object]]:
    return [{"index": cell.index, "source": cell.source, "name": cell.name or str(cell.index)} for cell in cells]
