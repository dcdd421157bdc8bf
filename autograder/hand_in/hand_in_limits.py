"""The hand-in's limits: what a hand-in may hold, read (or unpacked from a .zip) before any of it runs."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any


@dataclass(frozen=True)
class HandInLimits:
    """How much a hand-in may hold, checked in the grader as it is read.

    A folder of modules and notebooks is a few hundred KiB; these stop a zip
    bomb or a notebook of millions of cells in well under a second, with a
    line that names the file.
    """

    handin_mb: int = 50
    handin_files: int = 2000
    notebook_cells: int = 5000
    # Not a limit but what the course file's ``[policy] allow_modules`` adds to the plain-Python policy's
    # modules (hand_in.policy); read with the hand-in, so it travels with its limits.
    allow_modules: frozenset[str] = field(default=frozenset())

    def as_dict(self) -> dict[str, Any]:
        """The limits by name; the course's extra modules only where it names some (they decide scores)."""
        limits: dict[str, Any] = {name: getattr(self, name) for name in self.names()}
        if self.allow_modules:
            limits[ALLOW_MODULES] = sorted(self.allow_modules)
        return limits

    @classmethod
    def names(cls) -> list[str]:
        """The limits' names, as ``--limit`` takes them."""
        return [each.name for each in fields(cls) if each.name != ALLOW_MODULES]


ALLOW_MODULES = "allow_modules"
