"""The grading session's clocks charge the student's code, never the grader's own work between calls."""

from __future__ import annotations

import time
from typing import Any, cast

import pytest

from autograder.cage.cage_limits import CageLimits
from autograder.cage.client import Reply, Worker
from autograder.cage.inside import codec
from autograder.testing.proxy import CallTimedOut, GradingSession


class SlowWorker:
    """Stands in for the caged worker: every call takes ``seconds`` and returns None."""

    tainted = holds_passed_calls = False  # no processes of its own

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.calls = 0

    def request(self, message: dict[str, Any], timeout: float) -> Reply:
        self.calls += 1
        time.sleep(min(self.seconds, timeout))
        return Reply({"ok": True, "value": codec.to_plain(None)})


def session(worker: SlowWorker, **limits: float) -> GradingSession:
    return GradingSession(cast(Worker, worker), CageLimits(**limits))  # type: ignore[arg-type]


@pytest.mark.unit
def test_the_graders_own_work_between_calls_is_not_charged_to_the_test():
    worker = SlowWorker(0.0)
    grading = session(worker, test_seconds=0.2, submission_seconds=0.3)
    grading.begin_test()
    grading.call("clock", "tick", (), {})
    time.sleep(0.4)  # an oracle, or Part 5's recount, longer than both limits
    grading.call("clock", "tick", (), {})
    assert worker.calls == 2


@pytest.mark.unit
def test_the_workers_time_uses_up_the_test_and_then_the_submission():
    worker = SlowWorker(0.15)
    grading = session(worker, call_seconds=1.0, test_seconds=0.25, submission_seconds=0.4)
    grading.begin_test()
    grading.call("clock", "tick", (), {})
    grading.call("clock", "tick", (), {})  # 0.15 s of the test's 0.25 s were left: it gets 0.1 s
    with pytest.raises(CallTimedOut, match="this test's time limit was used up"):
        grading.call("clock", "tick", (), {})
    grading.begin_test()
    grading.call("clock", "tick", (), {})
    with pytest.raises(CallTimedOut, match="the submission's time limit was used up"):
        grading.call("clock", "tick", (), {})
    assert worker.calls == 3
