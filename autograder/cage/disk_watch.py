"""A watchdog over what a container cage's worker has written in all: its two folders, summed, at every look.

Landlock keeps the worker writing in its own ``work/`` and ``tmp/`` alone (landlock), and the file-size and
open-files limits bound each file and how many are written at once; nothing in the kernel bounds their
sum without namespaces or quotas. This thread, in the grader, looks at the folders every
``LOOK_SECONDS`` and ends every process of the worker's user once the sum passes ``disk_mb``. Between two
looks the worker writes on: the threat model says by how much the total may pass the limit.
"""

from __future__ import annotations

import contextlib
import os
import stat
import threading
from collections.abc import Callable
from pathlib import Path

LOOK_SECONDS = 0.02
# An entry costs the disk at least a block, whatever its size: a flood of empty files is counted too.
SMALLEST_ENTRY = 4096


def used_bytes(folders: list[Path]) -> int:
    """What the entries below ``folders`` take on disk (allocated blocks, a block at least each), links not
    followed; an entry that goes while it is counted is left out."""
    total = 0
    waiting = [str(folder) for folder in folders]
    while waiting:
        try:
            entries = list(os.scandir(waiting.pop()))
        except OSError:
            continue
        for entry in entries:
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            total += max(info.st_blocks * 512, info.st_size, SMALLEST_ENTRY)
            if stat.S_ISDIR(info.st_mode):
                waiting.append(entry.path)
    return total


class DiskWatch:
    """Looks at ``folders`` until stopped; past ``limit_bytes`` it calls ``end`` once and says so (``exceeded``)."""

    def __init__(self, folders: list[Path], limit_bytes: int, end: Callable[[], None]) -> None:
        self.folders, self.limit_bytes, self.end = folders, limit_bytes, end
        self.exceeded = False
        self.peak = 0  # the most it saw, for the tests
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True, name="disk-watch")
        self._thread.start()

    def _watch(self) -> None:
        while not self._stopped.wait(LOOK_SECONDS):
            used = used_bytes(self.folders)
            self.peak = max(self.peak, used)
            if used > self.limit_bytes and not self.exceeded:
                self.exceeded = True
                with contextlib.suppress(Exception):  # the grader goes on whatever the kill met
                    self.end()

    def stop(self) -> None:
        self._stopped.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
