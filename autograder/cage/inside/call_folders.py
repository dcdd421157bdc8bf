"""A call's folder: files the grader puts in the worker's working folder for one call, and files it reads back.

Some functions take a folder, not values (Part 6's ``load`` reads two files, its ``save`` writes them). For
such a call the grader names a folder relative to the working folder (the worker's copy of the hand-in),
the files to put in it, and whether to send back what the folder holds once the call returned. Whatever
stood there is removed first, so a call sees only its own files, whatever an earlier call left; the
worker puts the working folder back as it was after each process (``forks.Folders``).

Standard library only and no import of the bootstrap's: copied into the cage beside it.
"""

from __future__ import annotations

import os
import stat

# What a folder may send back: a tokenizer's two files are a few megabytes at most.
MAX_FILES = 64
MAX_BYTES = 16 * 1024 * 1024

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class FolderError(Exception):
    """The folder cannot be made, or what it holds cannot go back: the message says which, for the student."""


def checked_name(name: Any) -> str:
    """``name`` when it is a plain relative path below the working folder; FolderError otherwise (a grader bug)."""
    parts = str(name).split("/")
    if not isinstance(name, str) or name.startswith("/") or not all(part not in ("", ".", "..") for part in parts):
        raise FolderError(f"{name!r} is not a folder name below the working folder")
    return name


def prepare(name: str, files: dict[str, bytes]) -> None:
    """Remove whatever stands at ``name`` (a link is removed, never followed); then, where there are
    ``files``, make the folder and write them into it. With none, the call finds no folder there, as a
    function that writes one is given a new place to make it."""
    folder = checked_name(name)
    try:
        _remove(folder)
        if not files:
            return
        os.makedirs(folder, exist_ok=True)
        for file_name, content in files.items():
            descriptor = os.open(
                os.path.join(folder, checked_name(file_name)),
                os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                0o644,
            )
            with os.fdopen(descriptor, "wb") as written:
                written.write(content)
    except OSError as error:
        raise FolderError(f"the folder {folder!r} could not be made for the call: {error.strerror}") from None


def collect(name: str) -> dict[str, bytes]:
    """The regular files directly in folder ``name`` (links and folders left out), by name; none when there
    is no such folder."""
    folder = checked_name(name)
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except (FileNotFoundError, NotADirectoryError):
        return {}
    except OSError as error:
        raise FolderError(f"the folder {folder!r} could not be read: {error.strerror}") from None
    found: dict[str, bytes] = {}
    total = 0
    for entry in entries:
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode):
            continue
        if len(found) >= MAX_FILES or total + info.st_size > MAX_BYTES:
            raise FolderError(
                f"the folder {folder!r} holds more than {MAX_FILES} files or {MAX_BYTES // 2**20} MB: write only "
                "the files asked for"
            )
        try:
            descriptor = os.open(entry.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            with os.fdopen(descriptor, "rb") as read:
                content = read.read(MAX_BYTES - total + 1)
        except OSError as error:
            raise FolderError(f"{entry.path!r} could not be read back: {error.strerror}") from None
        total += len(content)
        if total > MAX_BYTES:
            raise FolderError(f"the folder {folder!r} holds more than {MAX_BYTES // 2**20} MB: write only the files")
        found[entry.name] = content
    return found


def _remove(path: str) -> None:
    """Remove ``path`` and all below it, links removed, never followed; nothing when it is missing."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISDIR(info.st_mode):
        os.unlink(path)
        return
    for folder, folders, names in os.walk(path, topdown=False):
        for entry in names:
            os.unlink(os.path.join(folder, entry))
        for entry in folders:
            inner = os.path.join(folder, entry)
            if os.path.islink(inner):
                os.unlink(inner)
            else:
                os.rmdir(inner)
    os.rmdir(path)
