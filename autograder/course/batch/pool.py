"""Grade many submissions at once: ``jobs`` grader processes, each grading one at a time.

A grader process is trusted code (pytest and the tests) and lives for the
whole batch, so pytest and hypothesis are imported, and the suite collected
(testing/collected.py), once per job, not once per student. Each submission
still gets its own cage and worker. Should a grader process itself die, its
submission is tried once more in a fresh pool before it is reported as not
gradable.

Ctrl-C is the batch's alone: the graders are started with SIGINT ignored (a
terminal sends it to every process in the foreground group, and a grader
that raised KeyboardInterrupt would print its traceback), and a batch that
stops for any reason kills its graders at once rather than wait for the
hand-ins they are grading.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import os
import signal
import tempfile
import threading
from collections.abc import Generator, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar, cast

from autograder.cage.cage import grader_folder
from autograder.cage.cage_limits import CageLimits
from autograder.cage.client import parent_death_signal
from autograder.hand_in.loaded import LoadedHandIn
from autograder.scoring.course_points import CoursePoints
from autograder.scoring.grade_result import GradeResult
from autograder.testing.yardsticks import SHARED_VARIABLE

Key = TypeVar("Key")
ATTEMPTS = 2
STOP_SECONDS = 2  # the longest a stop waits for the pool's own thread to end


@dataclass(frozen=True)
class Graded(Generic[Key]):
    key: Key
    result: GradeResult | None
    error: str = ""  # why there is no result
    loaded: LoadedHandIn | None = None  # what was graded


class _GraderNumbers:
    """Numbers the graders 0, 1, 2, ... as they start, with nothing shared between processes.

    A spawned process gets its initializer's arguments pickled, once, by the process that starts it, one
    process at a time; this argument pickles as the next number. A shared counter would need a lock, and
    a lock shared with spawned processes is a named semaphore that this process must remove itself: a
    batch stopped by Ctrl-C leaves at once (os._exit), and multiprocessing's resource tracker would remove
    it after the batch and warn of a leak.
    """

    def __init__(self) -> None:
        self._next = itertools.count()

    def __reduce__(self) -> tuple[type[int], tuple[int]]:
        return int, (next(self._next),)


def _start_grader(number: int, cpus: tuple[int, ...], first_cpu: int, yardsticks: str) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # already so when started by _grade_in; Ctrl-C is the batch's
    keep_to_one_cpu(first_cpu + number, cpus)
    os.environ[SHARED_VARIABLE] = yardsticks  # the speed tests' yardsticks, timed by the first grader to need one
    set_signal = parent_death_signal()
    if set_signal is not None:
        set_signal()  # a batch killed with -9 takes its graders (and their workers) with it
    # The heavy imports (pytest, hypothesis) once per job, before the first student.
    import hypothesis  # noqa: F401

    import autograder.grading.hand_in  # noqa: F401


def usable_cpus() -> tuple[int, ...]:
    """The CPUs this process may run on, in order; none where they cannot be chosen (not Linux)."""
    return tuple(sorted(os.sched_getaffinity(0))) if hasattr(os, "sched_setaffinity") else ()


def keep_to_one_cpu(number: int, cpus: tuple[int, ...]) -> None:
    """Run grader ``number`` and the workers it starts on one of ``cpus``, the next grader on the next one
    (past the last, the first again).

    A grader and its worker take turns (a call, then its answer), so sharing a CPU costs them nothing,
    while a wake-up across CPUs costs each round trip tens of microseconds: half of a small call's
    cost, thousands of times a hand-in. Where CPUs cannot be chosen (not Linux), nothing changes.
    """
    if cpus:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {cpus[number % len(cpus)]})


@contextlib.contextmanager
def _batch_beside_graders(cpus: tuple[int, ...], jobs: int, first_cpu: int = 0) -> Iterator[None]:
    """Keep this process (every thread of it: the progress bar's, the pool's) off the graders' CPUs while
    there are CPUs to spare, so its own work between hand-ins (results, feedback, fingerprints) takes
    no grader's time. Graders are started from here, and each chooses its CPU from ``cpus`` itself."""
    spare = set(cpus) - {cpus[(first_cpu + number) % len(cpus)] for number in range(jobs)} if cpus else set()
    if not spare:
        yield
        return
    _set_every_thread(spare)
    try:
        yield
    finally:
        _set_every_thread(set(cpus))


def _set_every_thread(cpus: set[int]) -> None:
    for task in os.listdir("/proc/self/task"):
        with contextlib.suppress(OSError):
            os.sched_setaffinity(int(task), cpus)


def _grade(
    loaded: LoadedHandIn, suite: Path, limits: CageLimits, only: tuple[Path, ...], points: CoursePoints
) -> GradeResult:
    from autograder.grading.hand_in import grade_loaded
    from autograder.testing.grader import for_this_process

    return grade_loaded(loaded, suite, limits=limits, grader=for_this_process(spares=True), only=only, points=points)


def grade_all(
    work: Iterable[tuple[Key, LoadedHandIn]],
    *,
    suite: Path,
    limits: CageLimits,
    jobs: int,
    only: tuple[Path, ...] = (),
    first_cpu: int = 0,
    points: CoursePoints | None = None,
) -> Generator[Graded[Key], None, None]:
    """Yield each submission's result as soon as it is graded (in no set order); ``only``: those test folders;
    ``points``: the course file's.

    The submissions come read and parsed (once, when the batch fingerprinted them): what is graded is what
    the fingerprint describes. The first grader keeps to the ``first_cpu``-th CPU this process may use, the
    next to the next (keep_to_one_cpu): shards of a class run side by side on one machine each start where
    the one before ends, and so share no CPU.
    """
    queue = list(work)
    queue.reverse()  # pop() from the end keeps the given order
    attempts: dict[int, int] = {}
    cpus = usable_cpus()
    with (
        tempfile.TemporaryDirectory(dir=grader_folder("yardsticks")) as yardsticks,
        _batch_beside_graders(cpus, jobs, first_cpu),
    ):
        while queue:
            # "spawn": a fresh interpreter, not a fork of this one with its threads (the progress bar's).
            context = multiprocessing.get_context("spawn")
            numbers = cast(int, _GraderNumbers())  # an int once in a grader: each takes the next CPU
            with ProcessPoolExecutor(
                max_workers=jobs,
                mp_context=context,
                initializer=_start_grader,
                initargs=(numbers, cpus, first_cpu, yardsticks),
            ) as pool:
                try:
                    yield from _grade_in(
                        pool,
                        queue,
                        attempts,
                        suite=suite,
                        limits=limits,
                        jobs=jobs,
                        only=only,
                        points=points or CoursePoints(),
                    )
                except BaseException:  # Ctrl-C, or the caller stopped reading (GeneratorExit): stop now
                    _stop(pool)
                    raise


def _grade_in(
    pool: ProcessPoolExecutor,
    queue: list[tuple[Key, LoadedHandIn]],
    attempts: dict[int, int],
    *,
    suite: Path,
    limits: CageLimits,
    jobs: int,
    only: tuple[Path, ...],
    points: CoursePoints,
) -> Iterator[Graded[Key]]:
    """Grade from ``queue`` in ``pool`` until it is empty or the pool breaks (the rest go back on the queue)."""
    running: dict[Future[GradeResult], tuple[Key, LoadedHandIn]] = {}
    broken = False
    while (queue or running) and not broken:
        while queue and len(running) < jobs * 2:
            key, loaded = queue.pop()
            with _interrupts_ignored():  # a grader process started here inherits SIGINT ignored
                running[pool.submit(_grade, loaded, suite, limits, only, points)] = (key, loaded)
        if not running:
            break
        done, _ = wait(running, return_when=FIRST_COMPLETED)
        for future in done:
            key, loaded = running.pop(future)
            try:
                yield Graded(key, future.result(), loaded=loaded)
            except BrokenProcessPool:
                broken = True
                tries = attempts[id(loaded)] = attempts.get(id(loaded), 0) + 1
                if tries >= ATTEMPTS:
                    yield Graded(
                        key,
                        None,
                        "the grader process died on this submission twice; "
                        "grade it alone with `grade PATH` and report the bug",
                    )
                else:
                    queue.append((key, loaded))
            except Exception as error:  # a bug of ours: say so, and go on with the class
                yield Graded(
                    key,
                    None,
                    f"the grader failed ({type(error).__name__}: {error}); "
                    "grade it alone with `grade PATH` and report the bug",
                )
    if broken:
        for future, (key, loaded) in running.items():
            future.cancel()
            queue.append((key, loaded))


@contextlib.contextmanager
def _interrupts_ignored() -> Iterator[None]:
    """SIGINT ignored while a grader process may be started: it keeps that disposition through exec, and
    Python leaves an ignored SIGINT ignored. Only the main thread can set it; elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Kill the pool's graders now (their workers die with them: bubblewrap's --die-with-parent, or
    parent_death_signal in the process cage) and drop what is queued.

    ProcessPoolExecutor has no public way to end its processes before Python 3.14 (terminate_workers),
    so this reads its process table.
    """
    processes = getattr(pool, "_processes", None) or {}
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown forgets it
    for process in list(processes.values()):
        with contextlib.suppress(OSError, ValueError):
            process.kill()
    pool.shutdown(wait=False, cancel_futures=True)
    # Then wait for the pool's manager thread, which sees its processes dead at once and closes its pipes.
    # Left running into the interpreter's exit, it races concurrent.futures' exit hook, which can write to
    # a pipe the thread has just closed and print "Exception ignored ... Bad file descriptor". Bounded, so
    # a stuck thread cannot hold up the stop.
    if manager is not None:
        manager.join(timeout=STOP_SECONDS)
