"""A speed test's yardstick (the seconds the slow way takes on this machine) measured once a batch, not once a grader.

A speed test compares a hand-in's time with the reference's slow way, timed in the same run. Each grader process
of a batch timed it again: the naive recount is about a second of CPU, as much as grading a hand-in, in every
job. The graders of one batch run on one machine at one time, so the first to need a yardstick times it and the
others read its figure: ``grade_all`` gives them a folder of the grader's own (``grader_folder``, 0700) in
``SHARED_VARIABLE``. The first takes the yardstick's lock and times it while the others wait on the lock; a
grader that dies holding it lets go of it as it dies, and the next times it anew. Outside a batch (one hand-in,
the kit's tests) there is no folder and each process times its own, once.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
from collections.abc import Callable
from pathlib import Path

from autograder.atomic_files import write_atomically

SHARED_VARIABLE = "BPE_KIT_SHARED_YARDSTICKS"


def once_a_batch(measure: Callable[[], float]) -> Callable[[], float]:
    """``measure`` (seconds, no arguments) run once per process, or once per batch where the batch shares a
    folder for it."""

    @functools.cache
    def shared() -> float:
        folder = os.environ.get(SHARED_VARIABLE)
        if not folder:
            return measure()
        try:
            import fcntl
        except ImportError:  # no file locks here (Windows): each process times its own
            return measure()
        name = hashlib.sha256(f"{measure.__module__}.{measure.__qualname__}".encode()).hexdigest()[:32]
        figure = Path(folder) / f"{name}.seconds"
        try:
            lock = os.open(Path(folder) / f"{name}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        except OSError:
            return measure()
        try:
            fcntl.flock(lock, fcntl.LOCK_EX)  # while another grader times it
            with contextlib.suppress(OSError, ValueError):
                return float(figure.read_text(encoding="ascii"))
            seconds = measure()
            with contextlib.suppress(OSError):
                write_atomically(figure, repr(seconds))
            return seconds
        finally:
            os.close(lock)  # and the lock with it

    return shared
