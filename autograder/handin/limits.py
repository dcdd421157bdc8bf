"""The hand-in's limits: what a hand-in may hold, read (or unpacked from a .zip) before any of it runs."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any


@dataclass(frozen=True)
class HandinLimits:
    """How much a hand-in may hold, checked in the grader as it is read.

    A folder of modules and notebooks is a few hundred KiB; these stop a zip
    bomb or a notebook of millions of cells in well under a second, with a
    line that names the file.
    """

    handin_mb: int = 50
    handin_files: int = 2000
    notebook_cells: int = 5000

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def names(cls) -> list[str]:
        return [field.name for field in fields(cls)]
