"""Run the kit's real commands as a user does: ``grade`` on one hand-in, ``grade batch`` on a class."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from results import Results


def grade(
    path: Path, *arguments: str, timeout: float = 300, python: str = sys.executable
) -> tuple[subprocess.CompletedProcess[str], Results]:
    """Run the real CLI on ``path`` (with ``python``, the worker's interpreter too) and return the process and its
    results document (empty when it wrote none)."""
    process = subprocess.run(
        [python, "-m", "autograder.cli", str(path), "--format", "json", *arguments],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=path.parent,
    )
    document: Results = json.loads(process.stdout) if process.returncode in (0, 1) and process.stdout else {}
    return process, document


def batch_command(submissions: Path, out: Path, *arguments: str, quiet: bool = True) -> list[str]:
    """The real ``grade batch`` of ``submissions`` into ``out``, quiet unless told (the progress bar)."""
    command = [sys.executable, "-m", "autograder.cli", "batch", str(submissions), "-o", str(out), *arguments]
    return [*command, "--quiet"] if quiet else command


def run_batch(submissions: Path, out: Path, *arguments: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run the real ``grade batch`` quietly, from beside the output folder."""
    return subprocess.run(
        batch_command(submissions, out, *arguments), capture_output=True, text=True, timeout=timeout, cwd=out.parent
    )


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its content, to prove a command changed nothing there."""
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}
