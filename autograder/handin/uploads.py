"""A student's uploads as one hand-in: what an LMS keeps as they came (a zip among them unpacked in its
place), merged and held to one hand-in's limits.
"""

from __future__ import annotations

from pathlib import Path

from autograder.handin.bounded import DEFAULT_LIMITS, SubmissionError, read_zip
from autograder.handin.limits import HandinLimits


def unpack_uploads(source: Path, files: dict[str, bytes], limits: HandinLimits = DEFAULT_LIMITS) -> dict[str, bytes]:
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


def merged_uploads(source: Path, uploads: list[tuple[str, dict[str, bytes]]], limits: HandinLimits) -> dict[str, bytes]:
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


def _check_uploads(source: Path, files: dict[str, bytes], limits: HandinLimits) -> None:
    """Refuse a student's uploads that hold more together than one hand-in may: each zip among them was
    bounded alone."""
    if len(files) > limits.handin_files or sum(map(len, files.values())) > limits.handin_mb * 2**20:
        raise SubmissionError(
            f"{source}: the uploads hold more together than a hand-in may (the handin_mb and handin_files "
            "limits); hand in only your code and notebooks"
        )
