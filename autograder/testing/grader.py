"""What one grading process keeps from one hand-in to the next: a ``Grader``, opened and closed by whoever grades.

- the suite as collected (``collected.CollectedSuite``): collecting costs more than grading a hand-in;
- the examples each property drew (``replay.Recorded``) and the call plans made from them (``pipelining.CallPlan``),
  the same for every hand-in that draws from one example set;
- with ``spares``, a worker booted for the next hand-in before it is known (``starting``).

Whoever grades opens one and closes it when done: ``grade PATH`` and the Gradescope runner one per grading
(``with Grader() as grader``), a batch's grader process and a notebook kernel one for the process's life
(``for_this_process``, closed at exit); the kit's tests make their own. The
grading code itself is handed the grader, and keeps nothing of it in its own globals.

pytest is imported only when a suite is first run: a grader is opened before it, while the first worker boots.
"""

from __future__ import annotations

import atexit
import functools
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from autograder.testing.failure_notes import taking
from autograder.testing.replay import Recorded

if TYPE_CHECKING:
    from autograder.cage.starting import Spare
    from autograder.testing.collected import CollectedSuite
    from autograder.testing.pipelining import CallPlan
    from autograder.testing.plugin import GradingPlugin


class Grader:
    def __init__(self, *, spares: bool = False) -> None:
        self.spares = spares  # start the next hand-in's worker while this one is graded (a batch's grader)
        self.spare: Spare | None = None
        self.examples = Recorded()
        self.plans: dict[str, CallPlan] = {}
        # The suite collected last, and what it was collected from: one kept at a time, so a notebook kernel
        # that checks one function after another holds one pytest configuration (one assertion-rewriting hook).
        self._collected: tuple[tuple[object, ...], CollectedSuite] | None = None

    def run(self, suite: Path, plugin: GradingPlugin, only: tuple[Path, ...] = ()) -> list[str]:
        """Run ``suite`` (or its files ``only``) with ``plugin``, collecting it only if it was not collected
        last with the same files as they are now; return collection errors (ours)."""
        from autograder.testing.collected import CollectedSuite, suite_stamp
        from autograder.testing.example_store import ExampleStore

        stamp = (suite.resolve(), suite_stamp(suite))
        key = (*stamp, tuple(path.resolve() for path in only))
        if self._collected is not None and self._collected[0] != key:
            if self._collected[0][:2] != stamp:
                # The suite itself changed (a test edited in a notebook's kernel): what its old tests drew, and
                # the calls they made, say nothing of the new ones.
                self.examples.examples.clear()  # in place: this run's plugin and session hold them already
                self.plans.clear()
            self._forget_suite()
        if self._collected is None:
            self._collected = (key, CollectedSuite(suite, only))
            self.examples.store = ExampleStore.for_suite(suite)  # named by the suite as it is now
        collected = self._collected[1]
        try:
            with taking(plugin.notes):
                return collected.run(plugin)
        except BaseException:
            # Stopped part way (Ctrl-C in `grade`, or our own bug): fixtures may be left set up, so the next
            # hand-in gets a fresh collection rather than this one.
            self._forget_suite()
            raise

    def _forget_suite(self) -> None:
        kept, self._collected = self._collected, None
        if kept is not None:
            kept[1].close()

    def close(self) -> None:
        """Stop the spare worker, if any, and end the collected suite's pytest session."""
        spare, self.spare = self.spare, None
        try:
            if spare is not None:
                spare.discard()
        finally:
            self._forget_suite()

    def __enter__(self) -> Grader:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


@functools.cache
def for_this_process(*, spares: bool = False) -> Grader:
    """A grader for the life of this process, stopped as it ends: a batch's grader process (``spares``: the
    next hand-in's worker starts while this one is graded) or a notebook kernel's check cells, which grade one
    hand-in or function after another with the suite collected once and their examples replayed."""
    grader = Grader(spares=spares)
    atexit.register(grader.close)
    return grader
