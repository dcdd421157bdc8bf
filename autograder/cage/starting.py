"""Set a hand-in's worker booting before the grader imports pytest, so the two overlap.

Importing pytest and hypothesis takes the grader a good part of a second;
building the cage and starting the worker's interpreter takes about a tenth.
This module imports neither, so ``grading.hand_in`` can start the worker first and
import the runner while it boots.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from autograder.cage.cage import Cage
from autograder.cage.cage_limits import CageLimits
from autograder.cage.client import PolicyRefused, Worker
from autograder.cage.isolation import isolation
from autograder.hand_in.loaded import LoadedHandIn


class SpareKeeper(Protocol):
    """Whoever keeps a spare worker from one hand-in to the next (``testing.grader.Grader``): named here by what
    this module uses of it, as the cage imports nothing of the testing that comes after it."""

    spares: bool  # whether to keep one
    spare: Spare | None


@dataclass
class StartedWorker:
    """A hand-in's cage and its booting worker; the runner stops both when it is done."""

    submission: LoadedHandIn
    cage: Cage
    worker: Worker
    limits: CageLimits
    since: float = field(default_factory=time.monotonic)


def start_worker(
    submission: LoadedHandIn,
    limits: CageLimits,
    *,
    progress: Callable[[str], None] | None = None,
    grader: SpareKeeper | None = None,
) -> StartedWorker:
    """Start ``submission``'s worker: the ``grader``'s spare one, when it has one for these limits, or a new one.

    A grader that keeps spares (a batch's, which grades one hand-in after another) also starts the next
    hand-in's worker now, before its hand-in is known. It sets itself up while this hand-in is graded and
    then waits for its config, so what a start spends waiting rather than working (the kernel's grace period
    for entering the control groups, 6 to 9 ms here) is no longer spent between two hand-ins. A spare holds
    nothing of anyone's until it is given its hand-in: an empty folder, then that hand-in's files alone.
    Spares are kept in the sandbox only (``_keep_spare``).
    """
    since = time.monotonic()
    taken = _take_spare(grader, submission, limits, progress) if grader is not None else None
    if taken is not None:
        cage, worker = taken
    else:
        cage = Cage.create(submission.files, limits=limits)
        worker = Worker(cage, limits, submission.worker_script(), progress=progress)
        try:
            worker.start()
        except BaseException:  # an interrupt between its spawn and its config leaves no process behind either
            discard(worker)
            raise
    worker.refused = {
        module: PolicyRefused(text, summary=summary) for module, (text, summary) in submission.refusal_texts().items()
    }
    if grader is not None and grader.spares:
        try:
            _keep_spare(grader, limits)
        except Exception:
            pass  # a spare is only ever a head start: the next hand-in starts its own worker, and says what fails
        except BaseException:  # an interrupt: this hand-in's worker is not handed back, so it goes too
            discard(worker)
            raise
    return StartedWorker(submission, cage, worker, limits, since)


def discard(worker: Worker) -> None:
    """The end of every worker's life (``Worker.close``)."""
    worker.close()


@dataclass
class Spare:
    """A worker spawned in an empty cage, waiting for its config (``Worker.configure``); a grader's."""

    cage: Cage
    worker: Worker
    limits: CageLimits

    def discard(self) -> None:
        discard(self.worker)


def _take_spare(
    grader: SpareKeeper, submission: LoadedHandIn, limits: CageLimits, progress: Callable[[str], None] | None
) -> tuple[Cage, Worker] | None:
    """The grader's spare, given ``submission``: its files, then its config; None when there is none fit to use."""
    spare, grader.spare = grader.spare, None
    if spare is None:
        return None
    process = spare.worker.process
    if spare.limits != limits or process is None or process.poll() is not None:
        spare.discard()  # other limits (another command's), or it ended: a new worker says why
        return None
    try:
        spare.cage.fill(submission.files)
    except BaseException:
        spare.discard()
        raise
    spare.worker.script = submission.worker_script()
    spare.worker.progress = progress
    spare.worker.configure()
    return spare.cage, spare.worker


def _keep_spare(grader: SpareKeeper, limits: CageLimits) -> None:
    """Spawn the grader's next worker in an empty cage, where the full cage is on (elsewhere a start is cheap)."""
    if grader.spare is not None or not isolation().full:
        return
    cage = Cage.create(None, limits=limits)
    worker = Worker(cage, limits, {})
    try:
        worker.spawn()
    except BaseException:
        discard(worker)
        raise
    grader.spare = Spare(cage, worker, limits)
