"""Reading a hand-in's files, bounded: a folder or a .zip read into memory, in the trusted process.

The hand-in itself is never written to, symbolic links are never followed, and sizes, counts and names are
bounded before anything is read; what breaks a bound is refused by name, with the fix, as a HandInError.
"""

from __future__ import annotations

import io
import os
import stat
import struct
import zipfile
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from autograder.hand_in.hand_in_limits import HandInLimits

DEFAULT_LIMITS = HandInLimits()
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
# What macOS writes beside a file on a drive that is not its own, or into a zip: "._name", its resource fork.
APPLE_DOUBLE = "._"


class HandInError(Exception):
    """Nothing gradable could be read; the message names the file and the fix."""


def read_bytes(path: Path, most: int = -1) -> bytes:
    """The file's bytes; at most ``most`` of them (what was counted, should it grow meanwhile)."""
    try:
        with path.open("rb") as stream:
            return stream.read(most)
    except OSError as error:
        raise HandInError(f"{path}: cannot be read ({error.strerror}); check its permissions") from None


def file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError as error:
        raise HandInError(f"{path}: cannot be read ({error.strerror}); check its permissions") from None


def check_size(source: Path, name: str, size: int, total: int, limits: HandInLimits) -> None:
    """Refuse before reading what would take the hand-in past its caps (``total``: what came before)."""
    if total + size > limits.handin_mb * 2**20:
        raise HandInError(
            f"{source}: {name} takes the hand-in past {limits.handin_mb} MiB (the handin_mb limit); "
            "hand in only your code and notebooks"
        )


def _check_zip_size(path: Path, limits: HandInLimits, size: int | None = None) -> None:
    """Refuse a hand-in's zip (of ``size`` bytes, or the file's) larger than any zip of a hand-in within the
    limits: its files' bytes (stored, or deflated, which grows what it cannot shrink by a thousandth at
    most), and each member's two headers and name."""
    most = limits.handin_mb * 2**20 * 1001 // 1000 + limits.handin_files * (ZIP_HEADERS + 2 * PATH_MAX)
    size = file_size(path) if size is None else size
    if size > most:
        raise HandInError(
            f"{path}: is {size / 2**20:.1f} MiB, more than a zip of a hand-in within the handin_mb limit "
            f"({limits.handin_mb} MiB) can be; hand in only your code and notebooks"
        )


# A zip's end of central directory record: signature, two disk numbers, the members on this disk and in all,
# the directory's size and offset, the comment's length. It ends the file, but for that comment.
_END_OF_DIRECTORY = struct.Struct("<4s4H2LH")
_END_SIGNATURE = b"PK\x05\x06"


def zip_members(path: Path) -> int | None:
    """How many members the zip at ``path`` says it holds, from its end record alone: nothing of its
    directory is read, so a zip of millions of empty members costs nothing to ask. None where there is no
    end record (not a zip), or it leaves the count to zip64's (65,535 members or more)."""
    with path.open("rb") as stream:
        size = stream.seek(0, os.SEEK_END)
        stream.seek(max(0, size - _END_OF_DIRECTORY.size - 0xFFFF))  # the longest comment
        tail = stream.read()
    at = tail.rfind(_END_SIGNATURE)
    if at < 0 or len(tail) - at < _END_OF_DIRECTORY.size:
        return None
    members = _END_OF_DIRECTORY.unpack_from(tail, at)[4]
    return None if members == 0xFFFF else members


def read_folder(root: Path, limits: HandInLimits, already: int = 0) -> dict[str, bytes]:
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
                raise HandInError(
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
        size = file_size(path)
        check_size(root, name, size, total, limits)
        total += size
        files[name] = read_bytes(path, size)
    return files


def _entries(root: Path, relative: str) -> list[os.DirEntry[str]]:
    folder = root / relative if relative else root
    try:
        with os.scandir(folder) as entries:
            return list(entries)
    except OSError as error:
        raise HandInError(f"{folder}: cannot be read ({error.strerror}); check its permissions") from None


def skipped(name: str) -> bool:
    """Whether a file or folder of this name is left out of a hand-in: a tool's folder, or macOS's junk."""
    return name in SKIPPED_FOLDERS or name.startswith(APPLE_DOUBLE)


def _check_count(source: Path, name: str, count: int, limits: HandInLimits, what: str = "files") -> None:
    if count >= limits.handin_files:
        raise HandInError(
            f"{source}: {name} is more than {limits.handin_files} {what} (the handin_files limit); "
            "hand in only your code and notebooks"
        )


def read_zip(
    path: Path,
    rename: Callable[[str], str | None] | None = None,
    *,
    limits: HandInLimits = DEFAULT_LIMITS,
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
        raise HandInError(f"{path}: is not a valid .zip; zip the folder again") from None
    except OSError as error:
        raise HandInError(f"{path}: cannot be read ({error.strerror}); check its permissions") from None
    with archive:
        chosen: list[tuple[zipfile.ZipInfo, str]] = []
        total = 0
        for info in archive.infolist():
            name = PurePosixPath(info.filename)
            mode = info.external_attr >> 16
            if info.is_dir() or stat.S_ISLNK(mode):
                continue
            if name.is_absolute() or ".." in name.parts:
                raise HandInError(f"{path}: member {info.filename!r} points outside the archive; zip the folder again")
            if any(skipped(part) for part in name.parts):
                continue
            kept = name.as_posix() if rename is None else rename(name.as_posix())
            if kept is None:
                continue
            _check_count(path, f"member {info.filename!r}", len(chosen), limits)
            check_size(path, f"member {info.filename!r}", info.file_size, total, limits)
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
        raise HandInError(
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
            raise HandInError(f"{source}: member {name[:80]!r} {problem}; rename it and hand it in again")
        seen.add(name)
    folders = {"/".join(name.split("/")[:depth]) for name in names for depth in range(1, name.count("/") + 1)}
    for name in sorted(seen & folders):
        raise HandInError(
            f"{source}: {name!r} is both a file and a folder in the archive; rename one and zip the folder again"
        )


def decode(source: Path, name: str, content: bytes) -> str:
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise HandInError(
            f"{source}: {name} is not UTF-8 (byte {error.start}); save it as UTF-8 and hand it in again"
        ) from None
