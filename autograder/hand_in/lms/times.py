"""When a download's hand-ins came, as their files say it: looked up only when asked (``Found.file_time``: a
late rule with no better witness of when a hand-in came), never while the batch's folder is read."""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from autograder.hand_in.bounded import SKIPPED_FOLDERS

# nbgrader's record of when a hand-in was submitted, beside its notebooks: "2026-11-20 10:15:00.000000 UTC"
TIMESTAMP = "timestamp.txt"
TIMED_AT_MOST = 2000  # entries of a hand-in's folder looked at for its newest file's time
# Seconds a file's time may be before its arrival here and still be the arrival's own (a file system's
# timestamps are coarse: FAT's 2 s); a time given back by unzip or cp -p is the hand-in's, far older.
TIME_KEPT_SLACK = 2.0

FileTime = Callable[[], datetime | str | None]


def newest_time(paths: list[Path]) -> FileTime:
    """The newest modification time of the files in ``paths`` (folders looked into, links never followed, at most
    ``TIMED_AT_MOST`` entries) as this machine's wall-clock reading, with no zone, as a function to call when it
    is wanted: the late rule reads it in the course's zone, as it reads a zip member's."""

    def newest() -> datetime | str | None:
        times: list[tuple[float, float]] = []
        waiting, seen = list(paths), 0
        while waiting and seen < TIMED_AT_MOST:
            path = waiting.pop()
            seen += 1
            try:
                if path.is_symlink():
                    continue
                if path.is_dir():
                    waiting += [entry for entry in path.iterdir() if entry.name not in SKIPPED_FOLDERS]
                elif path.name != TIMESTAMP:
                    status = path.stat()
                    times.append((status.st_mtime, status.st_ctime))
            except OSError:
                continue
        if not times:
            return None
        modified, changed = max(times)
        if modified >= changed - TIME_KEPT_SLACK:
            # Given its time back, a file unpacked or copied here is older than its arrival (its status change);
            # one as new as that was given no time: the tool that wrote it kept none.
            return "set when the files were unpacked or copied here, by a tool that keeps no times"
        # The machine's own wall-clock reading, no zone: unzip set each file to the zip's reading in this machine's
        # zone, so this is the reading the zip held, to be read in the course's zone like a zip member's.
        return datetime.fromtimestamp(modified)

    return newest


def newest_member_time(infos: list[zipfile.ZipInfo]) -> Callable[[dict[str, str]], FileTime]:
    """For a zip of these members: the newest time of a group's members (item -> its name in the hand-in), as the
    zip holds it, a wall-clock reading with no zone."""
    made = {info.filename: info.date_time for info in infos}

    def timer(members: dict[str, str]) -> FileTime:
        def newest() -> datetime | str | None:
            times = [made[name] for name in members if name in made]
            try:
                return datetime(*max(times)) if times else None
            except ValueError:  # a date a zip may hold and a calendar may not (month 0)
                return None

        return newest

    return timer


def downloaded(archive: Path) -> datetime | None:
    """The zip's own time, when it was saved here: no hand-in in it came later (a copy of it only moves it later)."""
    try:
        return datetime.fromtimestamp(archive.stat().st_mtime, UTC)
    except OSError:
        return None
