"""Set a hand-in's worker booting before the grader imports pytest, so the two overlap.

Importing pytest and hypothesis takes the grader a good part of a second;
building the cage and starting the worker's interpreter takes about a tenth.
This module imports neither, so ``grading`` can start the worker first and
import the runner while it boots.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from autograder.engine.submission import LoadedSubmission
from autograder.engine.worker.cage import Cage
from autograder.engine.worker.client import Worker
from autograder.engine.worker.limits import Limits


@dataclass
class StartedWorker:
    """A hand-in's cage and its booting worker; the runner stops both when it is done."""

    submission: LoadedSubmission
    cage: Cage
    worker: Worker
    limits: Limits
    since: float = field(default_factory=time.monotonic)


def start_worker(
    submission: LoadedSubmission, limits: Limits, *, progress: Callable[[str], None] | None = None
) -> StartedWorker:
    since = time.monotonic()
    cage = Cage.create(submission.files, limits=limits)
    worker = Worker(cage, limits, submission.worker_script(), progress=progress)
    try:
        worker.start()
    except BaseException:
        cage.remove()
        raise
    return StartedWorker(submission, cage, worker, limits, since)
