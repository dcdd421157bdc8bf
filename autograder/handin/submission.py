"""Find and read what a student handed in: a folder, a .py file, a notebook or a .zip.

Everything is read into memory here, in the trusted process, and copied into
the cage from there: the submission itself is never written to, symbolic
links are never followed, and sizes are bounded.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import re
import stat
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from importlib.machinery import BYTECODE_SUFFIXES, EXTENSION_SUFFIXES
from pathlib import Path, PurePosixPath

from autograder.cage.limits import Limits
from autograder.handin import student_syntax
from autograder.handin.ipython_syntax import plain_python
from autograder.handin.notebook_format import read_cells
from autograder.handin.notebook_slice import needed_cells
from autograder.parts import MODULES, SCRIPT_MODULES, part_of

DEFAULT_LIMITS = Limits()
DATA_FOLDER = "data"  # what the exercise notebooks read (the corpora), beside them in the release
# Where a student release keeps the work: the modules (stubs) and the notebooks.
WORK_FOLDERS = ("modules", "notebooks")


class HandInKind(StrEnum):
    """How a hand-in holds its parts, and so how the worker loads it."""

    MODULES = "modules"  # the part modules by name (or notebooks named after them)
    SCRIPT = "script"  # one notebook or file holds it all
    RELEASE = "release"  # a release's own folder handed in whole: see LoadedSubmission.halves


NAME_MAX = 255  # bytes in one folder or file name, as Linux and macOS file systems allow
PATH_MAX = 1024  # bytes in a member's whole path inside the hand-in; the cage's own folders come on top
ZIP_HEADERS = 30 + 46  # a zip member's local and central headers, without the name they each carry
SKIPPED_FOLDERS = frozenset(
    {
        "__pycache__",
        ".ipynb_checkpoints",
        ".git",
        ".hypothesis",
        ".pytest_cache",
        ".venv",
        "venv",
        "env",
        "node_modules",
        "__MACOSX",
        ".mypy_cache",
        ".ruff_cache",
    }
)
# Compiled Python, as this interpreter names it (longest first: ".cpython-311-x86_64-linux-gnu.so" before ".so").
COMPILED_SUFFIXES = tuple(sorted({*BYTECODE_SUFFIXES, *EXTENSION_SUFFIXES}, key=len, reverse=True))
# The part modules as a hand-in may hold them: as modules, or as notebooks named after them.
PART_FILES = frozenset(f"{module}{suffix}" for module in MODULES for suffix in (".py", ".ipynb"))
# How a part module's file comes back renamed by a browser, an LMS or a system: in another case (BPE.py,
# saved where case does not count), with a copy's number (bpe (1).py; bpe-1.py, Canvas's resubmission;
# bpe_1.py) or a copy's word (bpe copy.py; "bpe - Copy.py").
_RENAMED = re.compile(
    r"^(?P<stem>.+?)(?:\s*\(\d+\)|-\d+|_\d+|\s*-?\s*copy(?:\s*\d+)?)?(?P<suffix>\.(?:py|ipynb))$", re.IGNORECASE
)
# What macOS writes beside a file on a drive that is not its own, or into a zip: "._name", its resource fork.
APPLE_DOUBLE = "._"
GRADABLE = (
    "the part modules (" + ", ".join(f"{module}.py" for module in MODULES) + ", or notebooks named so), "
    "one notebook, or a .zip of them"
)


class SubmissionError(Exception):
    """Nothing gradable could be read; the message names the file and the fix."""


@dataclass(frozen=True)
class Cell:
    index: int  # its place among all the notebook's cells, markdown included, as Jupyter counts
    source: str
    name: str = ""  # as messages name it: the place and the first line


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


def load(path: Path, limits: Limits = DEFAULT_LIMITS) -> LoadedSubmission:
    """Read a submission from ``path``, or raise SubmissionError saying why not."""
    if not path.exists():
        raise SubmissionError(f"{path}: no such file or folder; give the folder, .py, .ipynb or .zip to grade")
    if path.is_dir():
        return from_files(path, _read_folder(path, limits), limits=limits)
    suffix = path.suffix.lower()
    if suffix == ".zip":
        return from_files(path, read_zip(path, limits=limits), limits=limits)
    if suffix in (".py", ".ipynb"):
        size = _size(path)
        _check_size(path, path.name, size, 0, limits)
        files = {path.name: _read_bytes(path, size)}
        data = path.parent / DATA_FOLDER
        if suffix == ".ipynb" and data.is_dir() and not data.is_symlink():  # a notebook reads its data beside it
            files |= {f"{DATA_FOLDER}/{name}": content for name, content in _read_folder(data, limits, size).items()}
        return from_files(path, files, limits=limits)
    raise SubmissionError(f"{path}: cannot grade a {suffix or 'file without extension'}; hand in {GRADABLE}")


def _read_bytes(path: Path, most: int = -1) -> bytes:
    """The file's bytes; at most ``most`` of them (what was counted, should it grow meanwhile)."""
    try:
        with path.open("rb") as stream:
            return stream.read(most)
    except OSError as error:
        raise SubmissionError(f"{path}: cannot be read ({error.strerror}); check its permissions") from None


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError as error:
        raise SubmissionError(f"{path}: cannot be read ({error.strerror}); check its permissions") from None


def _check_size(source: Path, name: str, size: int, total: int, limits: Limits) -> None:
    """Refuse before reading what would take the hand-in past its caps (``total``: what came before)."""
    if total + size > limits.handin_mb * 2**20:
        raise SubmissionError(
            f"{source}: {name} takes the hand-in past {limits.handin_mb} MiB (the handin_mb limit); "
            "hand in only your code and notebooks"
        )


def unpack_uploads(source: Path, files: dict[str, bytes], limits: Limits = DEFAULT_LIMITS) -> dict[str, bytes]:
    """A student's uploads (an LMS's download of them, or a folder that holds only a zip) with each ``.zip``
    among them unpacked in its place, one level deep: an LMS keeps an uploaded zip as it came. ``source``
    names them in messages."""
    uploads = [
        (name, read_zip(source / name, data=content, limits=limits))
        if "/" not in name and name.lower().endswith(".zip")
        else (name, {name: content})
        for name, content in files.items()
    ]
    return merged_uploads(source, uploads, limits)


def merged_uploads(source: Path, uploads: list[tuple[str, dict[str, bytes]]], limits: Limits) -> dict[str, bytes]:
    """A student's uploads (each: its name, and the files it holds) as one hand-in, held to one hand-in's
    limits. A name two of them hold with other bytes is refused with both named, never one of them picked;
    the same file twice is one."""
    files: dict[str, bytes] = {}
    holder: dict[str, str] = {}
    for upload, held in uploads:
        for name, content in held.items():
            if files.get(name, content) != content:
                raise SubmissionError(
                    f"{source}: {holder[name]} and {upload} both hold {name}, not the same; keep one and hand in again"
                )
            files[name], holder[name] = content, holder.get(name, upload)
    _check_uploads(source, files, limits)
    return files


def _only_zips(files: dict[str, bytes]) -> bool:
    """Whether the hand-in's top holds a .zip and no code, at the top or in a folder below it."""
    zipped = any(entry.lower().endswith(".zip") for entry in files if "/" not in entry)
    return zipped and not _code_folders(files) and not _code_at_top(files)


def _code_at_top(files: dict[str, bytes]) -> bool:
    return any(entry.endswith(".py") or entry.lower().endswith(".ipynb") for entry in files if "/" not in entry)


def _check_uploads(source: Path, files: dict[str, bytes], limits: Limits) -> None:
    """Refuse a student's uploads that hold more together than one hand-in may: each zip among them was
    bounded alone."""
    if len(files) > limits.handin_files or sum(map(len, files.values())) > limits.handin_mb * 2**20:
        raise SubmissionError(
            f"{source}: the uploads hold more together than a hand-in may (the handin_mb and handin_files "
            "limits); hand in only your code and notebooks"
        )


def _check_zip_size(path: Path, limits: Limits, size: int | None = None) -> None:
    """Refuse a hand-in's zip (of ``size`` bytes, or the file's) larger than any zip of a hand-in within the
    limits: its files' bytes (stored, or deflated, which grows what it cannot shrink by a thousandth at
    most), and each member's two headers and name."""
    most = limits.handin_mb * 2**20 * 1001 // 1000 + limits.handin_files * (ZIP_HEADERS + 2 * PATH_MAX)
    size = _size(path) if size is None else size
    if size > most:
        raise SubmissionError(
            f"{path}: is {size / 2**20:.1f} MiB, more than a zip of a hand-in within the handin_mb limit "
            f"({limits.handin_mb} MiB) can be; hand in only your code and notebooks"
        )


def _read_folder(root: Path, limits: Limits, already: int = 0) -> dict[str, bytes]:
    """Every file below ``root`` (no links, no tool folders), within the hand-in's caps (``already`` read).

    Walked with a stack of its own, not ``rglob`` or ``os.walk``, which call themselves a folder at a time
    (a hand-in a thousand folders deep ended the grader in a RecursionError); a path past ``PATH_MAX`` is
    refused by name, as in a zip, before anything below it is listed.
    """
    found: list[str] = []
    folders = 0
    stack = [""]
    while stack:
        relative = stack.pop()
        for entry in _entries(root, relative):
            name = f"{relative}/{entry.name}" if relative else entry.name
            if entry.is_symlink() or skipped(entry.name):
                continue
            if len(name.encode("utf-8", "surrogateescape")) > PATH_MAX:
                raise SubmissionError(
                    f"{root}: {name[:80]!r}... has a path longer than {PATH_MAX} bytes; "
                    "move it up or leave it out and hand in again"
                )
            if entry.is_dir(follow_symlinks=False):
                _check_count(root, name, folders, limits, "folders")
                folders += 1
                stack.append(name)
            elif entry.is_file(follow_symlinks=False):
                _check_count(root, name, len(found), limits)
                found.append(name)
    files: dict[str, bytes] = {}
    total = already
    for name in sorted(found, key=lambda name: name.split("/")):  # the order of the paths' parts
        path = root / name
        size = _size(path)
        _check_size(root, name, size, total, limits)
        total += size
        files[name] = _read_bytes(path, size)
    return files


def _entries(root: Path, relative: str) -> list[os.DirEntry[str]]:
    folder = root / relative if relative else root
    try:
        with os.scandir(folder) as entries:
            return list(entries)
    except OSError as error:
        raise SubmissionError(f"{folder}: cannot be read ({error.strerror}); check its permissions") from None


def skipped(name: str) -> bool:
    """Whether a file or folder of this name is left out of a hand-in: a tool's folder, or macOS's junk."""
    return name in SKIPPED_FOLDERS or name.startswith(APPLE_DOUBLE)


def _check_count(source: Path, name: str, count: int, limits: Limits, what: str = "files") -> None:
    if count >= limits.handin_files:
        raise SubmissionError(
            f"{source}: {name} is more than {limits.handin_files} {what} (the handin_files limit); "
            "hand in only your code and notebooks"
        )


def read_zip(
    path: Path,
    rename: Callable[[str], str | None] | None = None,
    *,
    limits: Limits = DEFAULT_LIMITS,
    data: bytes | None = None,
) -> dict[str, bytes]:
    """The files in a .zip, bounded; ``rename`` picks members (None: skip) and names them.

    Every name is checked before anything is unpacked, and no member inflates past the size its header
    declares (a zip bomb claims little and inflates to gigabytes) or the hand-in past ``handin_mb``. A
    hand-in's own zip (no ``rename``: not an LMS's bulk download, which the instructor brings) is refused
    by its size before it is opened: opening lists every member it holds, and a zip of millions of empty
    members costs the trusted process seconds and gigabytes before any count can stop it. ``data``: the
    zip's bytes, already read (a student's upload inside an LMS's bulk download); ``path`` then names it.
    """
    if rename is None:
        _check_zip_size(path, limits, len(data) if data is not None else None)
    try:
        # Read member by member: a class's bulk download can be large.
        archive = zipfile.ZipFile(path if data is None else io.BytesIO(data))
    except zipfile.BadZipFile:
        raise SubmissionError(f"{path}: is not a valid .zip; zip the folder again") from None
    except OSError as error:
        raise SubmissionError(f"{path}: cannot be read ({error.strerror}); check its permissions") from None
    with archive:
        chosen: list[tuple[zipfile.ZipInfo, str]] = []
        total = 0
        for info in archive.infolist():
            name = PurePosixPath(info.filename)
            mode = info.external_attr >> 16
            if info.is_dir() or stat.S_ISLNK(mode):
                continue
            if name.is_absolute() or ".." in name.parts:
                raise SubmissionError(
                    f"{path}: member {info.filename!r} points outside the archive; zip the folder again"
                )
            if any(skipped(part) for part in name.parts):
                continue
            kept = name.as_posix() if rename is None else rename(name.as_posix())
            if kept is None:
                continue
            _check_count(path, f"member {info.filename!r}", len(chosen), limits)
            _check_size(path, f"member {info.filename!r}", info.file_size, total, limits)
            total += info.file_size
            chosen.append((info, kept))
        check_names(path, [kept for _, kept in chosen])
        files: dict[str, bytes] = {}
        for info, kept in chosen:
            files[kept] = _inflate(path, archive, info)
    return files


def _inflate(path: Path, archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """A member's bytes, never more than its header declares.

    ``read(n)`` inflates in small steps and stops at the declared size; ``read()`` (and so
    ``ZipFile.read``) inflates up to 2 GiB in one step before it cuts to that size.
    """
    try:
        with archive.open(info) as member:
            return member.read(info.file_size)
    except (zipfile.BadZipFile, NotImplementedError, RuntimeError, EOFError, OSError, ValueError) as error:
        raise SubmissionError(
            f"{path}: member {info.filename!r} cannot be unpacked ({error}); zip the folder again"
        ) from None


def check_names(source: Path, names: list[str]) -> None:
    """Refuse, naming the member, what no file system could hold as it is named."""
    seen: set[str] = set()
    for name in names:
        problem = ""
        if any(ord(character) < 32 or character == "\x7f" for character in name):
            problem = "has a control character in its name"
        elif len(name.encode("utf-8", "surrogatepass")) > PATH_MAX:
            problem = f"has a path longer than {PATH_MAX} bytes"
        elif any(len(part.encode("utf-8", "surrogatepass")) > NAME_MAX for part in name.split("/")):
            problem = f"has a name longer than {NAME_MAX} bytes"
        elif name in seen:
            problem = "is in the archive twice"
        if problem:
            raise SubmissionError(f"{source}: member {name[:80]!r} {problem}; rename it and hand it in again")
        seen.add(name)
    folders = {"/".join(name.split("/")[:depth]) for name in names for depth in range(1, name.count("/") + 1)}
    for name in sorted(seen & folders):
        raise SubmissionError(
            f"{source}: {name!r} is both a file and a folder in the archive; rename one and zip the folder again"
        )


def from_files(
    source: Path, files: dict[str, bytes], *, name: str | None = None, limits: Limits = DEFAULT_LIMITS
) -> LoadedSubmission:
    """A submission from files already read (an LMS bulk download's members for one student)."""
    check_names(source, list(files))
    files = _strip_single_folder(files)
    if _only_zips(files):  # a folder that holds what a student uploaded: an LMS's folder per student, say
        files = _strip_single_folder(unpack_uploads(source, files, limits))
    work = _work_folders(files)
    if len(work) > 1:
        halves = tuple(
            from_files(source / folder, _inside(files, folder), name=folder, limits=limits) for folder in work
        )
        return LoadedSubmission(
            name=name or _name_of(source), source=source, kind=HandInKind.RELEASE, files=files, halves=halves
        )
    files, moved = _code_folder(source, files)
    files, renamed = _renamed_parts(files)
    loaded = _from_files(source, files, name=name, limits=limits)
    notes = renamed + compiled_notes(loaded.files)
    if moved:
        notes = (f"graded the code in {moved}/, since the top of the hand-in holds none", *notes)
    return dataclasses.replace(loaded, notes=loaded.notes + notes) if notes else loaded


def compiled_notes(files: dict[str, bytes]) -> tuple[str, ...]:
    """What to say of compiled Python in a hand-in: the worker never imports it (bootstrap.import_only_source)."""
    notes = []
    for name in sorted(files):
        suffix = next((suffix for suffix in COMPILED_SUFFIXES if name.endswith(suffix)), None)
        if suffix is not None:
            notes.append(
                f"{name} is compiled code, which is never imported from a hand-in: hand in its source, "
                f"{name.removesuffix(suffix)}.py"
            )
    return tuple(notes)


def _name_of(source: Path) -> str:
    return source.stem if source.is_file() else source.name


def _from_files(source: Path, files: dict[str, bytes], *, name: str | None, limits: Limits) -> LoadedSubmission:
    top_level = [entry for entry in files if "/" not in entry]
    if name is None:
        name = _name_of(source)
    as_notebooks = [module for module in MODULES if f"{module}.ipynb" in top_level and f"{module}.py" not in top_level]
    if as_notebooks or any(f"{module}.py" in top_level for module in MODULES):
        module_cells: list[tuple[str, tuple[Cell, ...]]] = []
        notes: list[str] = []
        for module in as_notebooks:
            wanted = set(part_of(module).functions)
            cells, skipped = notebook_cells(source, files, f"{module}.ipynb", limits, wanted)
            module_cells.append((module, cells))
            notes += [f"{module}.ipynb {note}" for note in skipped]
        return LoadedSubmission(
            name=name,
            source=source,
            kind=HandInKind.MODULES,
            files=files,
            notes=tuple(notes),
            module_cells=tuple(module_cells),
        )
    notebooks = [entry for entry in top_level if entry.lower().endswith(".ipynb")]
    scripts = [entry for entry in top_level if entry.endswith(".py")]
    if len(notebooks) == 1:
        return _script_from_notebook(name, source, files, notebooks[0], limits)
    if not notebooks and len(scripts) == 1:
        text = _decode(source, scripts[0], files[scripts[0]])
        return LoadedSubmission(
            name=name,
            source=source,
            kind=HandInKind.SCRIPT,
            files=files,
            script_name=scripts[0],
            cells=(Cell(1, text),),
        )
    found = ", ".join(sorted(top_level)[:6]) or "nothing"
    many = " (more than one notebook: hand in just one)" if len(notebooks) > 1 else ""
    raise SubmissionError(f"{source}: nothing gradable{many}; found {found}; hand in {GRADABLE}")


def part_file(name: str) -> str | None:
    """The part module's file that ``name`` was meant to be ("bpe (1).py": "bpe.py"); None for any other."""
    renamed = _RENAMED.match(name)
    if renamed is None:
        return None
    meant = renamed.group("stem").lower() + renamed.group("suffix").lower()
    return meant if meant in PART_FILES else None


def _renamed_parts(files: dict[str, bytes]) -> tuple[dict[str, bytes], tuple[str, ...]]:
    """The hand-in with each part module that came back renamed (see _RENAMED) under its own name, when it
    is the only such file and the hand-in has no file of that part's name; and what to say of it."""
    top_level = [entry for entry in files if "/" not in entry]
    meant: dict[str, list[str]] = {}
    for entry in sorted(top_level):
        target = part_file(entry)
        if target is not None and target != entry:
            meant.setdefault(target, []).append(entry)
    notes: list[str] = []
    renamed = dict(files)
    for target, entries in meant.items():
        module = target.rsplit(".", 1)[0]
        if any(f"{module}{suffix}" in files for suffix in (".py", ".ipynb")):
            continue  # the part's own file is there: the others are the student's old tries
        if len(entries) > 1:
            notes.append(f"found {', '.join(entries)}: none graded as {target}; keep one, and name it {target}")
            continue
        renamed[target] = renamed.pop(entries[0])
        notes.append(f"graded {entries[0]} as {target}: name it {target}")
    return renamed, tuple(notes)


def _code_folder(source: Path, files: dict[str, bytes]) -> tuple[dict[str, bytes], str]:
    """The hand-in taken from the one folder that holds its code when its top holds none (a README.md
    beside src/), and that folder; as it is, and "", otherwise. Code in more than one folder is refused."""
    folders = _code_folders(files)
    if len(folders) > 1:
        named = ", ".join(f"{folder}/" for folder in folders[:4])
        raise SubmissionError(f"{source}: code in more than one folder ({named}); keep one and hand it in again")
    if not folders:
        return files, ""
    return _inside(files, folders[0]), folders[0]


def _code_folders(files: dict[str, bytes]) -> list[str]:
    """The folders that hold the hand-in's code, when its top holds none; sorted."""
    if _code_at_top(files):
        return []
    return sorted({entry.rsplit("/", 1)[0] for entry in files if "/" in entry and _is_code(entry.rsplit("/", 1)[1])})


def _work_folders(files: dict[str, bytes]) -> list[str]:
    """A student release's work folders that hold code, in WORK_FOLDERS order, when only they do: the release's
    own folder handed in whole, which `grade` grades as it stands."""
    folders = _code_folders(files)
    return [folder for folder in WORK_FOLDERS if folder in folders] if set(folders) <= set(WORK_FOLDERS) else []


def _inside(files: dict[str, bytes], folder: str) -> dict[str, bytes]:
    """The files under ``folder``, named from it."""
    inside = folder + "/"
    return {entry[len(inside) :]: content for entry, content in files.items() if entry.startswith(inside)}


def _is_code(name: str) -> bool:
    """A part module or a notebook: what marks the folder that holds a hand-in's code."""
    return part_file(name) is not None or name.lower().endswith(".ipynb")


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


def _script_from_notebook(
    name: str, source: Path, files: dict[str, bytes], notebook: str, limits: Limits
) -> LoadedSubmission:
    wanted = {function for module in SCRIPT_MODULES for function in part_of(module).functions}
    cells, notes = notebook_cells(source, files, notebook, limits, wanted)
    return LoadedSubmission(
        name=name,
        source=source,
        kind=HandInKind.SCRIPT,
        files=files,
        script_name=notebook,
        cells=cells,
        notes=tuple(notes),
    )


def notebook_cells(
    source: Path, files: dict[str, bytes], notebook: str, limits: Limits, wanted: set[str]
) -> tuple[tuple[Cell, ...], list[str]]:
    """A notebook's code cells as plain Python, cut to what the ``wanted`` functions need (notebook_slice),
    each named as Jupyter shows it: its place among all the cells; notes on what was skipped."""
    text = _decode(source, notebook, files[notebook])
    try:
        # The cells are counted on the bare JSON (fast) before each is read and validated (slow).
        raw = json.loads(text)
        count = len(raw.get("cells", [])) if isinstance(raw, dict) else 0
        if count > limits.notebook_cells:
            raise SubmissionError(
                f"{source}: {notebook} has {count} cells, more than {limits.notebook_cells} (the notebook_cells "
                "limit); clear what you do not need and save it again"
            )
        all_cells = read_cells(text, raw)  # the JSON parsed once
    except SubmissionError:
        raise
    except Exception as error:  # json and nbformat raise several kinds for a broken file
        raise SubmissionError(
            f"{source}: {notebook} is not a readable notebook ({type(error).__name__}); save it again from Jupyter"
        ) from None
    code_size = sum(len(cell_source) for kind, cell_source in all_cells if kind == "code")
    if code_size > student_syntax.MOST_CHARACTERS:  # the grader reads it all as syntax, with no cap on its memory
        raise SubmissionError(
            f"{source}: {notebook} holds {code_size:,} characters of code, more than the "
            f"{student_syntax.MOST_CHARACTERS:,} the grader reads; clear what you do not need and save it again"
        )
    places: list[int] = []
    codes: list[str] = []
    notes: list[str] = []
    for place, (kind, cell_source) in enumerate(all_cells, start=1):
        if kind != "code":
            continue
        code, skipped = plain_python(cell_source)
        if skipped:
            notes.append(f"cell {_cell_name(place, cell_source)}: skipped IPython-only lines: {', '.join(skipped)}")
        places.append(place)
        codes.append(code)
    needed = needed_cells(codes, wanted)
    cells = tuple(
        Cell(place, code, _cell_name(place, all_cells[place - 1][1]))
        for place, code in zip(places, needed, strict=True)
    )
    return cells, notes


def _cell_name(place: int, source: str) -> str:
    """How Jupyter shows a cell to its author: its place among all the cells, and its first line."""
    first = next((line.strip() for line in source.splitlines() if line.strip()), "")
    return f"{place} ({first[:40]}{'…' if len(first) > 40 else ''})" if first else str(place)
