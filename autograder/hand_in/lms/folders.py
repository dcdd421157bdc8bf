"""A folder holding one entry per student: a sub-folder, a notebook, a .py file or a .zip, named after the
student; and a whole class's LMS download found among those entries, which is the instructor's mistake."""

from __future__ import annotations

import itertools
import os
import zipfile
from pathlib import Path, PurePosixPath

from autograder.hand_in import bounded
from autograder.hand_in.bounded import SKIPPED_FOLDERS
from autograder.hand_in.lms import names, times
from autograder.hand_in.lms.found import DiscoveryError, Download, Found, loader, student_id

GRADABLE_SUFFIXES = (".py", ".ipynb", ".zip")
LAYOUT = "one entry per student"  # Discovery.layout of such a folder
# The most names read of an entry to see whether it is a whole class's LMS download: a class of 500 with 20
# uploads each has 10,000.
DOWNLOAD_NAMES_AT_MOST = 100_000


def read_folder(folder: Path, entries: list[Path]) -> Download:
    """The hand-ins of ``folder``, whose ``entries`` are one per student."""
    _refuse_class_downloads(folder, entries)
    candidates: list[Found] = []
    ignored: list[str] = []
    for entry in entries:
        if entry.is_symlink() or entry.name in SKIPPED_FOLDERS:
            ignored.append(entry.name)
        elif entry.is_dir() or entry.suffix.lower() in GRADABLE_SUFFIXES:
            name = entry.name if entry.is_dir() else entry.stem
            candidates.append(
                Found(student_id(name), str(entry), loader(entry), raw_name=name, file_time=times.newest_time([entry]))
            )
        else:
            ignored.append(entry.name)
    if not candidates:
        raise DiscoveryError(f"{folder}: holds no submissions; put one folder, notebook, .py or .zip per student in it")
    return Download(LAYOUT, candidates, ignored)


def _refuse_class_downloads(folder: Path, entries: list[Path]) -> None:
    """Refuse a folder of hand-ins that holds a whole class's LMS download (a Canvas .zip beside a Moodle
    folder, or among the students' own entries): the instructor's mistake, said as such with its fix, rather
    than graded as a student's hand-in that holds nothing gradable."""
    downloads = [(entry, lms) for entry in entries if not entry.is_symlink() and (lms := _class_download(entry))]
    if not downloads:
        return
    shown = " and ".join(f"{entry.name}{'/' if entry.is_dir() else ''} ({lms})" for entry, lms in downloads)
    if len(downloads) > 1:
        runs = ", then ".join(f"grade batch {entry} -o OUT-{number}" for number, (entry, _) in enumerate(downloads, 1))
        raise DiscoveryError(
            f"{folder}: {shown} are each a whole class's LMS download, not one student's hand-in; grade each on "
            f"its own, into an output folder of its own: {runs}"
        )
    entry = downloads[0][0]
    where = f"move it out of {folder} and grade it on its own" if len(entries) > 1 else "grade it on its own"
    raise DiscoveryError(
        f"{folder}: {shown} is a whole class's LMS download, not one student's hand-in; {where}: "
        f"grade batch {entry} -o OUT"
    )


def _class_download(entry: Path) -> str | None:
    """The LMS whose bulk download ``entry`` (a folder or a .zip) is, by its names: more than half in one
    LMS's shape, naming two students or more (one student's own upload may carry their id); else None.

    Every entry is a student's to fill, so no more than DOWNLOAD_NAMES_AT_MOST names are read of one: past
    that it is no class's download, and is left to be refused, as a hand-in, by the hand-in's limits."""
    try:
        if entry.is_dir():
            with os.scandir(entry) as listing:
                found = [item.name for item in itertools.islice(listing, DOWNLOAD_NAMES_AT_MOST + 1)]
        elif entry.suffix.lower() == ".zip":
            members = bounded.zip_members(entry)
            if members is None or members > DOWNLOAD_NAMES_AT_MOST:
                return None
            with zipfile.ZipFile(entry) as archive:
                found = sorted({PurePosixPath(name).parts[0] for name in archive.namelist() if name.strip("/")})
        else:
            return None
        if len(found) > DOWNLOAD_NAMES_AT_MOST:
            return None
        lms = names.lms_pattern(found, entry)
    except (DiscoveryError, OSError, zipfile.BadZipFile, ValueError):
        return None  # unreadable, or every name fits both LMSs: left to be graded, and said there, as a hand-in
    if lms is None:
        return None
    students = {readings[0].student for name in found if (readings := names.LMS_READINGS[lms](name))}
    return lms if len(students) > 1 else None
