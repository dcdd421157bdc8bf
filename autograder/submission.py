"""Find and read what a student handed in: a folder, a .py file, a notebook or a .zip.

Everything is read into memory here, in the trusted process, and copied into
the cage from there: the submission itself is never written to, symbolic
links are never followed, and sizes are bounded.
"""

from __future__ import annotations

import stat
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from autograder.notebook_format import import_nbformat
from autograder.parts import MODULES, SCRIPT_MODULES

MAX_FILES = 2000
MAX_TOTAL_BYTES = 50 * 1024 * 1024
SKIPPED_FOLDERS = frozenset(
    {"__pycache__", ".ipynb_checkpoints", ".git", ".hypothesis", ".pytest_cache",
     ".venv", "venv", "env", "node_modules", "__MACOSX", ".mypy_cache", ".ruff_cache"}
)
GRADABLE = (
    "the part modules (" + ", ".join(f"{module}.py" for module in MODULES) + ", or notebooks named so), "
    "one notebook, or a .zip of them"
)


class SubmissionError(Exception):
    """Nothing gradable could be read; the message names the file and the fix."""


@dataclass(frozen=True)
class Cell:
    index: int
    source: str


@dataclass(frozen=True)
class LoadedSubmission:
    """What the worker needs: the files to copy, and how to load them."""

    name: str
    source: Path
    kind: str  # "modules": the part modules by name; "script": one notebook or file holds it all
    files: dict[str, bytes]
    script_name: str = ""
    cells: tuple[Cell, ...] = ()
    notes: tuple[str, ...] = field(default=())
    # Part modules handed in as notebooks named after them (bpe.ipynb is the module bpe): their code cells.
    module_cells: tuple[tuple[str, tuple[Cell, ...]], ...] = ()

    def worker_script(self) -> dict[str, object]:
        """How the worker loads this submission (sent in its first message)."""
        return {
            "kind": self.kind,
            "script_name": self.script_name,
            "script_modules": list(SCRIPT_MODULES),
            "cells": _plain_cells(self.cells),
            "module_cells": {module: _plain_cells(cells) for module, cells in self.module_cells},
        }


def _plain_cells(cells: tuple[Cell, ...]) -> list[dict[str, object]]:
    return [{"index": cell.index, "source": cell.source} for cell in cells]


def load(path: Path) -> LoadedSubmission:
    """Read a submission from ``path``, or raise SubmissionError saying why not."""
    if not path.exists():
        raise SubmissionError(f"{path}: no such file or folder; give the folder, .py, .ipynb or .zip to grade")
    if path.is_dir():
        return from_files(path, _read_folder(path))
    suffix = path.suffix.lower()
    if suffix == ".zip":
        return from_files(path, read_zip(path))
    if suffix in (".py", ".ipynb"):
        return from_files(path, {path.name: _read_bytes(path)})
    raise SubmissionError(f"{path}: cannot grade a {suffix or 'file without extension'}; hand in {GRADABLE}")


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise SubmissionError(f"{path}: cannot be read ({error.strerror}); check its permissions") from None


def _read_folder(root: Path) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    total = 0
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if any(part in SKIPPED_FOLDERS for part in relative.parts[:-1]) or path.is_symlink():
            continue
        if not path.is_file() or any(part in SKIPPED_FOLDERS for part in relative.parts):
            continue
        if any(parent.is_symlink() for parent in path.parents if root in parent.parents):
            continue
        total += path.stat().st_size
        if len(files) >= MAX_FILES or total > MAX_TOTAL_BYTES:
            raise SubmissionError(
                f"{root}: holds more than {MAX_FILES} files or {MAX_TOTAL_BYTES // 2**20} MiB; "
                "hand in only your code and notebooks"
            )
        files[relative.as_posix()] = _read_bytes(path)
    return files


def read_zip(path: Path, rename: Callable[[str], str | None] | None = None) -> dict[str, bytes]:
    """The files in a .zip, bounded; ``rename`` picks members (None: skip) and names them."""
    try:
        archive = zipfile.ZipFile(path)  # read member by member: a class's bulk download can be large
    except zipfile.BadZipFile:
        raise SubmissionError(f"{path}: is not a valid .zip; zip the folder again") from None
    except OSError as error:
        raise SubmissionError(f"{path}: cannot be read ({error.strerror}); check its permissions") from None
    files: dict[str, bytes] = {}
    total = 0
    with archive:
        for info in archive.infolist():
            name = PurePosixPath(info.filename)
            mode = info.external_attr >> 16
            if info.is_dir() or stat.S_ISLNK(mode):
                continue
            if name.is_absolute() or ".." in name.parts:
                raise SubmissionError(
                    f"{path}: member {info.filename!r} points outside the archive; zip the folder again"
                )
            if any(part in SKIPPED_FOLDERS for part in name.parts):
                continue
            kept = name.as_posix() if rename is None else rename(name.as_posix())
            if kept is None:
                continue
            total += info.file_size
            if len(files) >= MAX_FILES or total > MAX_TOTAL_BYTES:
                raise SubmissionError(
                    f"{path}: unpacks to more than {MAX_FILES} files or {MAX_TOTAL_BYTES // 2**20} MiB; "
                    "hand in only your code and notebooks"
                )
            try:
                files[kept] = archive.read(info)
            except (zipfile.BadZipFile, NotImplementedError, RuntimeError) as error:
                raise SubmissionError(f"{path}: member {info.filename!r} cannot be read ({error}); zip again") from None
    return files


def from_files(source: Path, files: dict[str, bytes], *, name: str | None = None) -> LoadedSubmission:
    """A submission from files already read (an LMS bulk download's members for one student)."""
    files = _strip_single_folder(files)
    top_level = [entry for entry in files if "/" not in entry]
    if name is None:
        name = source.stem if source.is_file() else source.name
    as_notebooks = [module for module in MODULES
                    if f"{module}.ipynb" in top_level and f"{module}.py" not in top_level]
    if as_notebooks or any(f"{module}.py" in top_level for module in MODULES):
        module_cells: list[tuple[str, tuple[Cell, ...]]] = []
        notes: list[str] = []
        for module in as_notebooks:
            cells, skipped = _notebook_cells(source, files, f"{module}.ipynb")
            module_cells.append((module, cells))
            notes += [f"{module}.ipynb {note}" for note in skipped]
        return LoadedSubmission(name=name, source=source, kind="modules", files=files,
                                notes=tuple(notes), module_cells=tuple(module_cells))
    notebooks = [entry for entry in top_level if entry.lower().endswith(".ipynb")]
    scripts = [entry for entry in top_level if entry.endswith(".py")]
    if len(notebooks) == 1:
        return _script_from_notebook(name, source, files, notebooks[0])
    if not notebooks and len(scripts) == 1:
        text = _decode(source, scripts[0], files[scripts[0]])
        return LoadedSubmission(
            name=name, source=source, kind="script", files=files,
            script_name=scripts[0], cells=(Cell(1, text),),
        )
    found = ", ".join(sorted(top_level)[:6]) or "nothing"
    many = " (more than one notebook: hand in just one)" if len(notebooks) > 1 else ""
    raise SubmissionError(f"{source}: nothing gradable{many}; found {found}; hand in {GRADABLE}")


def _strip_single_folder(files: dict[str, bytes]) -> dict[str, bytes]:
    """A zip of a folder holds everything under one folder: look inside it."""
    while files and all("/" in name for name in files):
        heads = {name.split("/", 1)[0] for name in files}
        if len(heads) != 1:
            break
        files = {entry.split("/", 1)[1]: content for entry, content in files.items()}
    return files


def _decode(source: Path, name: str, content: bytes) -> str:
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise SubmissionError(
            f"{source}: {name} is not UTF-8 (byte {error.start}); save it as UTF-8 and hand it in again"
        ) from None


def _script_from_notebook(name: str, source: Path, files: dict[str, bytes], notebook: str) -> LoadedSubmission:
    cells, notes = _notebook_cells(source, files, notebook)
    return LoadedSubmission(
        name=name, source=source, kind="script", files=files,
        script_name=notebook, cells=cells, notes=tuple(notes),
    )


def _notebook_cells(source: Path, files: dict[str, bytes], notebook: str) -> tuple[tuple[Cell, ...], list[str]]:
    """A notebook's code cells as plain Python, numbered as Jupyter shows them; notes on what was skipped."""
    nbformat = import_nbformat()
    text = _decode(source, notebook, files[notebook])
    try:
        document = nbformat.reads(text, as_version=4)
    except Exception as error:  # nbformat raises several kinds for a broken file
        raise SubmissionError(
            f"{source}: {notebook} is not a readable notebook ({type(error).__name__}); save it again from Jupyter"
        ) from None
    cells: list[Cell] = []
    notes: list[str] = []
    index = 0
    for cell in document.cells:
        if cell.get("cell_type") != "code":
            continue
        index += 1
        code, skipped = strip_ipython(str(cell.get("source", "")))
        if skipped:
            notes.append(f"cell {index}: skipped IPython-only lines: {', '.join(skipped)}")
        cells.append(Cell(index, code))
    return tuple(cells), notes


def strip_ipython(source: str) -> tuple[str, list[str]]:
    """Replace magics and shell escapes, which plain Python cannot run, with ``pass``."""
    lines = source.splitlines()
    if lines and lines[0].lstrip().startswith("%%"):
        return "", [lines[0].strip()]
    skipped: list[str] = []
    kept: list[str] = []
    for line in lines:
        stripped = line.lstrip()
        if stripped.startswith(("%", "!")) or (stripped.endswith("?") and stripped[:-1].isidentifier()):
            indent = line[: len(line) - len(stripped)]
            kept.append(f"{indent}pass")
            skipped.append(stripped.split()[0][:30])
        else:
            kept.append(line)
    return "\n".join(kept), skipped
