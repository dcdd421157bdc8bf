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

On the portable path (``isolation.portable_path``: Windows, or forced) the call's process is started, not
forked, as a student's is there (``spawns``): a fresh interpreter on this file imports the same modules, stands
still while it is measured at birth, then makes the call.

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
from typing import Any, NoReturn

KIT = Path(__file__).resolve().parents[2]


def growth_of(module_file: str | os.PathLike[str], function: str, *args: Any) -> int | None:
    """How far a process forked for ``function(*args)`` of the module at ``module_file`` grew past what it
    held at birth, in bytes; None where this platform cannot fork or gives no peak. ``RuntimeError`` where the
    measure itself failed (a reference's call does not): the grader's fault, never told as the platform's."""
    from autograder.cage.isolation import portable_path

    portable = portable_path()
    if not portable and not hasattr(os, "fork"):
        return None
    request = marshal.dumps((portable, str(module_file), function, list(args)))
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


def _import_installed(module_file: str) -> None:
    import importlib

    for name in installed_imports(module_file):
        try:
            importlib.import_module(name)
        except ImportError:  # the module's own import says so, in the child
            continue


def _measure(module_file: str, function: str, args: list[Any]) -> int | None:
    import importlib.util

    from autograder.cage.inside import forks

    _import_installed(module_file)
    spec = importlib.util.spec_from_file_location("_measured", module_file)
    if spec is None or spec.loader is None:
        return None
    child = forks.fork(lambda: None, measured=True)
    if child is None:
        _call_and_end(spec, function, args)
    if forks.wait(child) is not None:
        raise SystemExit(f"{function} failed in the process forked to measure it")
    return forks.growth(child)


def _measure_started(module_file: str, function: str, args: list[Any]) -> int | None:
    """``_measure`` on the portable path: the call's process is a fresh interpreter on this file (``_started``)."""
    import tempfile

    from autograder.cage.inside import spawns

    with tempfile.TemporaryFile() as given, open(os.devnull, "wb") as nowhere:
        given.write(marshal.dumps((str(module_file), function, args)))
        given.flush()
        given.seek(0)
        command = [sys.executable, "-I", str(Path(__file__).resolve()), STARTED]
        started = spawns.spawn(
            command,
            stdin=given.fileno(),
            stdout=nowhere.fileno(),
            written=2,
            environment=dict(os.environ),
            measured=True,
        )
        if spawns.wait(started) is not None:
            raise SystemExit(f"{function} failed in the process started to measure it")
    return spawns.growth(started)


STARTED = "started"  # the command-line word of the process ``_measure_started`` starts


def _started(tokens: list[int]) -> None:
    """The process started for the call: the same imports as a forked one's parent makes, then measured."""
    import importlib.util

    from autograder.cage.inside import forks, spawns

    module_file, function, args = marshal.loads(sys.stdin.buffer.read())
    forks.ENDING_PIPE[0] = spawns.open_token(tokens[0])
    _import_installed(module_file)
    spec = importlib.util.spec_from_file_location("_measured", module_file)
    if spec is None or spec.loader is None:
        os._exit(1)
    spawns.stand_still(spawns.open_token(tokens[1]), spawns.open_token(tokens[2]))
    forks.alone()
    _call_and_end(spec, function, args)


def _call_and_end(spec: Any, function: str, args: list[Any]) -> NoReturn:
    """In the measured process: import the module, make the one call, and end as the parent asks (exit 1 on
    any failure, which the parent reports)."""
    import importlib.util

    from autograder.cage.inside import forks

    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        getattr(module, function)(*args)
    except BaseException:
        os._exit(1)
    forks.end_as_asked()


def _hold(size: int) -> bytearray:
    """A call that holds ``size`` bytes (the doctest's)."""
    return bytearray(size)


if __name__ == "__main__":
    sys.path.insert(0, str(KIT))
    if sys.argv[1:2] == [STARTED]:
        _started([int(token) for token in sys.argv[2:]])
    portable, *call = marshal.loads(sys.stdin.buffer.read())
    grown = (_measure_started if portable else _measure)(*call)
    print("" if grown is None else grown)
