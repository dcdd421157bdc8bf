"""How far a call grows the memory of a process of its own, measured by the kernel: the reference's side of
a memory bound (a student's call is measured the same way by its worker: ``Worker.measured_request``).

The call runs in a fresh interpreter, as a student's runs in a fresh worker: the grader's own heap holds the
memory its earlier work freed, which a call forked from it would reuse unseen (a reference that had run once
here grew a tenth as far). That interpreter loads the function's module, then forks a process for the call
alone; it reads what that process held at birth and its peak once ended (``wait4``), with the worker's own
functions (``forks``), and prints the difference.

    >>> grown = growth_of(__file__, "_hold", 32 * 2**20)
    >>> grown is None or grown >= 32 * 2**20
    True
"""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

KIT = Path(__file__).resolve().parents[2]


def growth_of(module_file: str | os.PathLike[str], function: str, *args: Any) -> int | None:
    """How far a process forked for ``function(*args)`` of the module at ``module_file`` (in a fresh
    interpreter that imported it) grew past what it held at birth, in bytes; None where this platform
    cannot fork or gives no peak, or where the call failed (a reference's does not)."""
    if not hasattr(os, "fork"):
        return None
    request = marshal.dumps((str(module_file), function, list(args)))
    process = subprocess.run(
        [sys.executable, "-I", "-m", "autograder.testing.memory_growth"],
        input=request,
        capture_output=True,
        cwd=KIT,
        timeout=600,
        check=False,
    )
    answer = process.stdout.decode("ascii", "replace").strip()
    return int(answer) if process.returncode == 0 and answer.isdigit() else None


def _measure(module_file: str, function: str, args: list[Any]) -> int | None:
    import importlib.util

    from autograder.cage.inside import forks

    spec = importlib.util.spec_from_file_location("_measured", module_file)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    call = getattr(module, function)
    child = forks.fork(lambda: None, measured=True)
    if child is None:
        try:
            call(*args)
        except BaseException:
            os._exit(1)
        forks.end_as_asked()
    if forks.wait(child) is not None:
        return None
    return forks.growth(child)


def _hold(size: int) -> bytearray:
    """A call that holds ``size`` bytes (the doctest's)."""
    return bytearray(size)


if __name__ == "__main__":
    grown = _measure(*marshal.loads(sys.stdin.buffer.read()))
    print("" if grown is None else grown)
