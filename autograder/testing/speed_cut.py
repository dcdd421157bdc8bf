"""The one piece of run-time state a speed test (``rubric.fastest_seconds``) and the session that sends its
calls (``proxy``) share: while a speed test times a call, how long that call may take and still help the
test pass. It sits below both so that neither imports the other for it."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar

# While a speed test times a call: the seconds past which the call cannot help the test pass. None elsewhere.
_passing_within: ContextVar[Callable[[], float] | None] = ContextVar("bpe_kit_passing_within", default=None)


def passing_within() -> float | None:
    """The seconds past which the call being made cannot help its speed test pass (``fastest_seconds``);
    None outside a speed test's timed call.

    The session cuts such a call there in a worker that has served a passing test (GradingSession.budget):
    a failure in one is decided again in a fresh worker under the whole limit anyway, so a slow trainer's
    first run there need not run its course, only show that it does not pass.
    """
    seconds = _passing_within.get()
    return None if seconds is None else seconds()


@contextlib.contextmanager
def timing_with_cut(cut: Callable[[], float]) -> Iterator[None]:
    """While the block runs, ``passing_within`` asks ``cut`` (asked only when a call is sent, so that a
    function not started costs no yardstick)."""
    token = _passing_within.set(cut)
    try:
        yield
    finally:
        _passing_within.reset(token)
