"""Find and read what a student handed in (a folder, a .py file, a notebook or a .zip) and work out its
shape: the part modules by name, one script or notebook, or a release's own folder with its two work folders.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from importlib.machinery import BYTECODE_SUFFIXES, EXTENSION_SUFFIXES
from pathlib import Path

from autograder.hand_in.bounded import (
    DEFAULT_LIMITS,
    HandInError,
    check_names,
    check_size,
    decode,
    file_size,
    read_bytes,
    read_folder,
    read_zip,
)
from autograder.hand_in.cells import Cell, notebook_cells
from autograder.hand_in.hand_in_limits import HandInLimits
from autograder.hand_in.lms.uploads import unpack_uploads
from autograder.hand_in.loaded import HandInKind, LoadedHandIn
from autograder.parts import MODULES, SCRIPT_MODULES, part_of

DATA_FOLDER = "data"  # what the exercise notebooks read (the corpora), beside them in the release
# Where a student release keeps the work: the modules (stubs) and the notebooks.
WORK_FOLDERS = ("modules", "notebooks")
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
GRADABLE = (
    "the part modules (" + ", ".join(f"{module}.py" for module in MODULES) + ", or notebooks named so), "
    "one notebook, or a .zip of them"
)


def load(path: Path, limits: HandInLimits = DEFAULT_LIMITS, *, chosen: Mapping[str, str] | None = None) -> LoadedHandIn:
    """Read a submission from ``path``, or raise HandInError saying why not. ``chosen``: which of its
    uploads each file that they hold differently comes from (uploads.merged_uploads)."""
    if not path.exists():
        raise HandInError(f"{path}: no such file or folder; give the folder, .py, .ipynb or .zip to grade")
    if path.is_dir():
        return from_files(path, read_folder(path, limits), limits=limits, chosen=chosen)
    suffix = path.suffix.lower()
    if suffix == ".zip":
        return from_files(path, read_zip(path, limits=limits), limits=limits, chosen=chosen)
    if suffix in (".py", ".ipynb"):
        size = file_size(path)
        check_size(path, path.name, size, 0, limits)
        files = {path.name: read_bytes(path, size)}
        data = path.parent / DATA_FOLDER
        if suffix == ".ipynb" and data.is_dir() and not data.is_symlink():  # a notebook reads its data beside it
            files |= {f"{DATA_FOLDER}/{name}": content for name, content in read_folder(data, limits, size).items()}
        return from_files(path, files, limits=limits)
    raise HandInError(f"{path}: cannot grade a {suffix or 'file without extension'}; hand in {GRADABLE}")


def from_files(
    source: Path,
    files: dict[str, bytes],
    *,
    name: str | None = None,
    limits: HandInLimits = DEFAULT_LIMITS,
    chosen: Mapping[str, str] | None = None,
) -> LoadedHandIn:
    """A submission from files already read (an LMS bulk download's members for one student)."""
    check_names(source, list(files))
    files = _strip_single_folder(files)
    if _only_zips(files):  # a folder that holds what a student uploaded: an LMS's folder per student, say
        files = _strip_single_folder(unpack_uploads(source, files, limits, chosen=chosen))
    work = _work_folders(files)
    if len(work) > 1:
        halves = tuple(
            from_files(source / folder, _inside(files, folder), name=folder, limits=limits) for folder in work
        )
        return LoadedHandIn(
            name=name or _name_of(source), source=source, kind=HandInKind.RELEASE, files=files, halves=halves
        )
    files, moved = _code_folder(source, files)
    files, renamed = _renamed_parts(files)
    loaded = dataclasses.replace(
        _from_files(source, files, name=name, limits=limits), allow_modules=limits.allow_modules
    )
    notes = renamed + compiled_notes(loaded.files)
    if moved:
        notes = (f"graded the code in {moved}/, since the top of the hand-in holds none", *notes)
    return dataclasses.replace(loaded, notes=loaded.notes + notes) if notes else loaded


def _only_zips(files: dict[str, bytes]) -> bool:
    """Whether the hand-in's top holds a .zip and no code, at the top or in a folder below it."""
    zipped = any(entry.lower().endswith(".zip") for entry in files if "/" not in entry)
    return zipped and not code_folders(files) and not code_at_top(files)


def code_at_top(files: dict[str, bytes]) -> bool:
    return any(entry.endswith(".py") or entry.lower().endswith(".ipynb") for entry in files if "/" not in entry)


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


def _from_files(source: Path, files: dict[str, bytes], *, name: str | None, limits: HandInLimits) -> LoadedHandIn:
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
        return LoadedHandIn(
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
        text = decode(source, scripts[0], files[scripts[0]])
        return LoadedHandIn(
            name=name,
            source=source,
            kind=HandInKind.SCRIPT,
            files=files,
            script_name=scripts[0],
            cells=(Cell(1, text),),
        )
    found = ", ".join(sorted(top_level)[:6]) or "nothing"
    many = " (more than one notebook: hand in just one)" if len(notebooks) > 1 else ""
    raise HandInError(f"{source}: nothing gradable{many}; found {found}; hand in {GRADABLE}")


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
    folders = code_folders(files)
    if len(folders) > 1:
        named = ", ".join(f"{folder}/" for folder in folders[:4])
        raise HandInError(f"{source}: code in more than one folder ({named}); keep one and hand it in again")
    if not folders:
        return files, ""
    return _inside(files, folders[0]), folders[0]


def code_folders(files: dict[str, bytes]) -> list[str]:
    """The folders that hold the hand-in's code, when its top holds none; sorted."""
    if code_at_top(files):
        return []
    return sorted({entry.rsplit("/", 1)[0] for entry in files if "/" in entry and _is_code(entry.rsplit("/", 1)[1])})


def _work_folders(files: dict[str, bytes]) -> list[str]:
    """A student release's work folders that hold code, in WORK_FOLDERS order, when only they do: the release's
    own folder handed in whole, which `grade` grades as it stands."""
    folders = code_folders(files)
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


def _script_from_notebook(
    name: str, source: Path, files: dict[str, bytes], notebook: str, limits: HandInLimits
) -> LoadedHandIn:
    wanted = {function for module in SCRIPT_MODULES for function in part_of(module).functions}
    cells, notes = notebook_cells(source, files, notebook, limits, wanted)
    return LoadedHandIn(
        name=name,
        source=source,
        kind=HandInKind.SCRIPT,
        files=files,
        script_name=notebook,
        cells=cells,
        notes=tuple(notes),
    )
