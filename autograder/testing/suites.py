"""Where the graded suites live: hidden (the instructor's) and public (shipped to students)."""

from __future__ import annotations

from pathlib import Path

from autograder.kit_root import KIT_ROOT
from autograder.run_errors import RunError

SUITES = ("hidden", "public")


def suite_path(name: str) -> Path:
    return KIT_ROOT / "tests" / name


def default_suite() -> str:
    """Hidden where the instructor's suite is present, public elsewhere."""
    return "hidden" if suite_path("hidden").is_dir() else "public"


class SuiteMissing(RunError):
    pass


def resolve(name: str | None) -> Path:
    path = suite_path(name or default_suite())
    if not path.is_dir():
        raise SuiteMissing(f"{path}: the {name} suite is not in this copy of the kit; use --suite public")
    return path
