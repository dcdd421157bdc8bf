"""``check(merge_pair)``: a notebook's check cell, grading one function through the same cage as ``grade``.

The code checked is what the notebook's kernel has run so far, in the order
it ran (IPython's input history, magics left out), so a check sees exactly
the definitions the student sees, saved or not. That code runs in a caged
worker like any submission; the tests run here, in the kernel, and print the
same feedback as the ``grade`` command. Outside IPython the function's own
module file is checked.
"""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from autograder.parts import PARTS, part_of


class CheckFailed(AssertionError):
    """Raised by ``check(..., strict=True)`` (nbgrader's test cells) when a test did not pass."""


def check(
    function: Callable[..., Any] | str, *, module: str | None = None, suite: str = "public", strict: bool = False
) -> None:
    """Grade ``function`` with its tests from ``suite`` and print the feedback.

    ``module`` names the part when the function's name is in several
    (``merge_pair``); each notebook's first cell binds it with ``checker``.
    ``strict=True`` raises CheckFailed after printing when a test did not
    pass, which is how nbgrader's autograder tells a failing cell.
    """
    import time
    from dataclasses import replace

    from rich.console import Console

    from autograder.cage.cage_limits import CageLimits
    from autograder.grading.hand_in import grade_loaded
    from autograder.hand_in.loaded import HandInKind, LoadedHandIn
    from autograder.reports.text import renderables
    from autograder.testing import suites
    from autograder.testing.grader import for_this_process

    started = time.monotonic()
    name = function if isinstance(function, str) else function.__name__
    part_module = _module_of(name, module)
    suite_dir = suites.resolve(suite)
    test_file = suite_dir / part_module / f"test_{name}.py"
    if not test_file.is_file():
        raise ValueError(f"the {suite} tests have no file for {name} ({test_file}); check the function's name")
    cells = _kernel_cells() if _in_ipython() else _module_cells(function)
    submission = LoadedHandIn(
        name=f"check of {name}",
        source=Path.cwd() / "notebook",
        kind=HandInKind.MODULES,
        files={},
        module_cells=((part_module, cells),),
    )
    # Notes on other cells (an exploration that raised) are not this check's business.
    graded = replace(
        grade_loaded(submission, suite_dir, limits=CageLimits(), grader=for_this_process(), only=(test_file,)),
        output="",
    )
    Console(highlight=False).print(renderables(graded, seconds=time.monotonic() - started))
    if strict and not all(test.passed for test in graded.tests):
        raise CheckFailed(f"{name}: {graded.score:g} / {graded.max_score:g}; see the feedback above")


def checker(module: str) -> Callable[..., None]:
    """``check`` for the functions of one part: ``check = checker("word_bpe")`` in a notebook's first cell."""
    _module_of(None, module)
    return functools.partial(check, module=module)


def _module_of(function: str | None, module: str | None) -> str:
    parts = [part for part in PARTS if module is None or part.module == module]
    if not parts:
        raise ValueError(f"{module} is not a part's module ({', '.join(part.module for part in PARTS)})")
    if function is None:
        return parts[0].module
    holding = [part.module for part in parts if function in part.functions]
    if len(holding) == 1:
        return holding[0]
    if not holding:
        known = ", ".join(name for part in parts for name in part.functions)
        raise ValueError(f"{function} is not one of the exercise functions ({known})")
    raise ValueError(f"{function} is in several parts ({', '.join(holding)}): say which with module=...")


def _in_ipython() -> bool:
    shell = sys.modules.get("IPython")
    return shell is not None and getattr(shell, "get_ipython", lambda: None)() is not None


def _kernel_cells() -> tuple[Any, ...]:
    """Every cell the kernel has run, oldest first, as plain Python; check cells are left out."""
    from IPython import get_ipython

    from autograder.hand_in.cells import Cell
    from autograder.hand_in.ipython_syntax import plain_python

    history = get_ipython().history_manager.input_hist_raw
    cells = []
    for index, source in enumerate(history[1:], start=1):
        if "check(" in source and "def " not in source:
            continue  # another check cell: the worker skips it anyway, so save it the work
        code, _ = plain_python(source)
        cells.append(Cell(index, code))
    return tuple(cells)


def _module_cells(function: Callable[..., Any] | str) -> tuple[Any, ...]:
    from autograder.hand_in.cells import Cell

    if isinstance(function, str):
        raise ValueError("outside a notebook, pass the function itself: check(merge_pair)")
    return (Cell(1, inspect.getsource(sys.modules[function.__module__])),)


def your_part(module: str, here: Path | None = None) -> ModuleType:
    """Your own functions of another part, to use in this notebook (Part 5 times your Part 3 trainer).

    Looks for ``<module>.ipynb`` beside this notebook, then ``<module>.py`` beside it and in
    ``../modules/`` (a release's two work folders). A notebook is read as ``grade`` reads it (its
    magics made plain, only the definitions and what they need, never its explorations); a cell that
    does not parse is skipped. It is your code, run in your kernel, as any cell of yours.
    LookupError when neither file is there.
    """
    import importlib.util

    from autograder.hand_in.bounded import DEFAULT_LIMITS
    from autograder.hand_in.cells import notebook_cells

    here = Path.cwd() if here is None else here
    notebook = here / f"{module}.ipynb"
    if notebook.is_file():
        wanted = set(part_of(module).functions)
        cells, _ = notebook_cells(
            notebook, {notebook.name: notebook.read_bytes()}, notebook.name, DEFAULT_LIMITS, wanted
        )
        loaded = ModuleType(module)
        loaded.__file__ = str(notebook)
        for cell in cells:
            try:
                code = compile(cell.source, f"{notebook.name}, cell {cell.name}", "exec")
            except SyntaxError:
                continue
            exec(code, loaded.__dict__)
        return loaded
    for path in (here / f"{module}.py", here.parent / "modules" / f"{module}.py"):
        if path.is_file():
            spec = importlib.util.spec_from_file_location(f"your_{module}", path)
            if spec is None or spec.loader is None:
                break
            loaded = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(loaded)
            return loaded
    raise LookupError(f"no {module}.ipynb beside this notebook and no {module}.py in ../modules: do that part first")
