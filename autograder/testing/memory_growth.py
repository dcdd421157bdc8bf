"""How far a call grows the memory of a process of its own, as the kernel counts it: the reference's side of a
memory bound. A student's call is measured by its worker (``Worker.measured_request``), and this measures the
reference's the same way, with the same functions (``forks``).

A fresh interpreter stands in for the worker: the grader's own heap holds what its earlier work freed, which a
call forked from it would reuse unseen (a reference that had run once here grew a tenth as far). It imports
the installed modules the call's module names, as the worker does before it forks a part's process
(``bootstrap.prepare``); then it forks a process that imports the module and makes the call, reads what that
process held at birth and, once it has ended, its peak (``wait4``), and prints the difference. The module's
import counts in the growth, as it does in a student's.

The interpreter runs this file by its path, with the kit's folder put on its path by hand: the Gradescope
runner and the container find the kit through ``PYTHONPATH``, which an isolated interpreter does not read
(run with ``-m``, it found no kit there and every hand-in's memory went unmeasured).

    >>> grown = growth_of(__file__, "_hold", 32 * 2**20)
    >>> grown is None or grown >= 32 * 2**20
    True
"""

from __future__ import annotations

import ast
import marshal
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

KIT = Path(__file__).resolve().parents[2]


def growth_of(module_file: str | os.PathLike[str], function: str, *args: Any) -> int | None:
    """How far a process forked for ``function(*args)`` of the module at ``module_file`` grew past what it
    held at birth, in bytes; None where this platform cannot fork or gives no peak. ``RuntimeError`` where the
    measure itself failed (a reference's call does not): the grader's fault, never told as the platform's."""
    if not hasattr(os, "fork"):
        return None
    request = marshal.dumps((str(KIT), str(module_file), function, list(args)))
    process = subprocess.run(
        [sys.executable, "-I", str(Path(__file__).resolve())],
        input=request,
        capture_output=True,
        timeout=600,
        check=False,
    )
    answer = process.stdout.decode("ascii", "replace").strip()
    if process.returncode != 0 or not (answer.isdigit() or answer == ""):
        said = process.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RuntimeError(f"{module_file}: its memory could not be measured: {said[-1] if said else answer}")
    return int(answer) if answer else None


def installed_imports(module_file: str) -> list[str]:
    """The absolute module names ``module_file`` imports that are not beside it: what the worker imports
    before it forks (``bootstrap.prepare`` reads them from the compiled code, to the same end)."""
    beside = {path.stem for path in Path(module_file).parent.iterdir()}
    tree = ast.parse(Path(module_file).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return sorted(name for name in names if name.split(".")[0] not in beside and name != "__future__")


def _measure(module_file: str, function: str, args: list[Any]) -> int | None:
    import importlib
    import importlib.util

    from autograder.cage.inside import forks

    for name in installed_imports(module_file):
        try:
            importlib.import_module(name)
        except ImportError:  # the module's own import says so, in the child
            continue
    spec = importlib.util.spec_from_file_location("_measured", module_file)
    if spec is None or spec.loader is None:
        return None
    child = forks.fork(lambda: None, measured=True)
    if child is None:
        try:
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            getattr(module, function)(*args)
        except BaseException:
            os._exit(1)
        forks.end_as_asked()
    if forks.wait(child) is not None:
        raise SystemExit(f"{function} failed in the process forked to measure it")
    return forks.growth(child)


def _hold(size: int) -> bytearray:
    """A call that holds ``size`` bytes (the doctest's)."""
    return bytearray(size)


if __name__ == "__main__":
    kit, *call = marshal.loads(sys.stdin.buffer.read())
    sys.path.insert(0, kit)
    grown = _measure(*call)
    print("" if grown is None else grown)
