"""A student's uploads as one hand-in: what an LMS keeps as they came (a zip among them unpacked in its
place), merged and held to one hand-in's limits.

Two uploads that hold one file, each its own way (``bpe.py``, and a ``backup.zip`` with an older
``bpe.py``), are never guessed between: that is a choice to make, which an UploadConflict names, and
which ``chosen`` (file -> upload) makes.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from autograder.hand_in.bounded import DEFAULT_LIMITS, HandInError, read_zip
from autograder.hand_in.hand_in_limits import HandInLimits

Uploads = list[tuple[str, dict[str, bytes]]]  # each upload's name, and the files it holds


class UploadConflict(HandInError):
    """Uploads of one hand-in hold one file, not the same: which one to grade is a choice to make.

    ``where`` names what holds the uploads (a download, a hand-in), ``uploads`` them as it names them, and
    ``refused`` the choice made that names none of them, if one was made."""

    def __init__(self, where: str, file: str, uploads: tuple[str, ...], refused: str | None = None) -> None:
        self.where, self.file, self.uploads, self.refused = where, file, uploads, refused
        super().__init__(f"{where}: {self.for_student}")

    @property
    def clash(self) -> str:
        """What is wrong, in words that suit the student and the instructor alike."""
        named = ", ".join(self.uploads[:-1]) + f" and {self.uploads[-1]}"
        return f"the uploads {named} each hold {self.file}, not the same"

    @property
    def for_student(self) -> str:
        """What is wrong and the student's fix, without the instructor's ``where``."""
        return f"{self.clash}; keep one and hand in again"


def unpack_uploads(
    source: Path,
    files: dict[str, bytes],
    limits: HandInLimits = DEFAULT_LIMITS,
    *,
    chosen: Mapping[str, str] | None = None,
) -> dict[str, bytes]:
    """A student's uploads (an LMS's download of them, or a folder that holds only a zip) with each ``.zip``
    among them unpacked in its place, one level deep: an LMS keeps an uploaded zip as it came. ``source``
    names them in messages."""
    uploads = [(name, unpacked(source / name, name, content, limits)) for name, content in files.items()]
    return merged_uploads(str(source), uploads, limits, chosen=chosen)


def unpacked(path: Path, name: str, content: bytes, limits: HandInLimits) -> dict[str, bytes]:
    """The files one upload holds, called ``name`` in the hand-in (``path`` in messages): a .zip at the
    hand-in's top, its members; anything else, itself."""
    if "/" not in name and name.lower().endswith(".zip"):
        return read_zip(path, data=content, limits=limits)
    return {name: content}


def merged_uploads(
    where: str, uploads: Uploads, limits: HandInLimits, *, chosen: Mapping[str, str] | None = None
) -> dict[str, bytes]:
    """A student's uploads (each: its name, and the files it holds) as one hand-in, held to one hand-in's
    limits. A file that uploads hold each its own way comes from the upload ``chosen`` for it; with none
    chosen, it is an UploadConflict naming them all, never one of them picked. The same file twice is one."""
    holders: dict[str, list[tuple[str, bytes]]] = {}
    for upload, held in uploads:
        for name, content in held.items():
            holders.setdefault(name, []).append((upload, content))
    files: dict[str, bytes] = {}
    for name, versions in holders.items():
        if len({content for _, content in versions}) == 1:
            files[name] = versions[0][1]
            continue
        choice = (chosen or {}).get(name)
        picked = [content for upload, content in versions if upload == choice]
        if not picked:
            raise UploadConflict(where, name, tuple(dict.fromkeys(upload for upload, _ in versions)), refused=choice)
        files[name] = picked[0]
    _check_uploads(where, files, limits)
    return files


def _check_uploads(where: str, files: dict[str, bytes], limits: HandInLimits) -> None:
    """Refuse a student's uploads that hold more together than one hand-in may: each zip among them was
    bounded alone."""
    if len(files) > limits.handin_files or sum(map(len, files.values())) > limits.handin_mb * 2**20:
        raise HandInError(
            f"{where}: the uploads hold more together than a hand-in may (the handin_mb and handin_files "
            "limits); hand in only your code and notebooks"
        )
