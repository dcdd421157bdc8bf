"""The speed tests' protocol (rubric.fastest_seconds), on a clock the test sets: the verdict is the best
round's, and no round is run that could not change it."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from autograder.testing import rubric, speed_cut

YARDSTICK = 10.0  # seconds the slow way takes
TARGET = 5.0  # the ratio a pass needs: a call of 2 s or less


@pytest.fixture
def clock(monkeypatch):
    """A clock that moves only by what each call says it took."""
    now = SimpleNamespace(value=0.0)
    monkeypatch.setattr(rubric, "time", SimpleNamespace(perf_counter=lambda: now.value))
    return now


def rounds_run(clock, seconds: list[float]) -> tuple[float, list[int]]:
    """Run fastest_seconds over calls that take ``seconds`` in turn; the best time, and the rounds called."""
    called: list[int] = []
    checked: list[int] = []

    def call(round_number: int) -> str:
        called.append(round_number)
        clock.value += seconds[round_number]
        return f"answer {round_number}"

    def check(round_number: int, got: object) -> None:
        assert got == f"answer {round_number}"  # every answer is checked, each against its own round
        checked.append(round_number)

    best = rubric.fastest_seconds(len(seconds), call, check, lambda: YARDSTICK, TARGET)
    assert checked == called
    return best, called


@pytest.mark.unit
def test_a_round_that_meets_the_target_ends_the_rounds(clock):
    """A later round could only make the best time better: it cannot change a pass."""
    assert rounds_run(clock, [1.0, 0.1, 0.1]) == (1.0, [0])


@pytest.mark.unit
def test_a_near_miss_gets_every_round_and_keeps_the_best(clock):
    """Between a third of the target and the target, noise may explain the miss: the best of all rounds counts."""
    assert rounds_run(clock, [3.0, 2.5, 1.5]) == (1.5, [0, 1, 2])
    clock.value = 0.0
    assert rounds_run(clock, [3.0, 2.5, 2.25]) == (2.25, [0, 1, 2])


@pytest.mark.unit
def test_a_function_far_too_slow_gets_one_round(clock):
    """Below a third of the target no noise explains the ratio: more rounds would only cost time."""
    assert rounds_run(clock, [7.0, 0.1, 0.1]) == (7.0, [0])


@pytest.mark.unit
def test_the_yardstick_asked_during_a_call_is_not_the_calls_time(clock):
    """In a worker that has served a passing test, the session asks how long the call may take (passing_within)
    while the call is timed, and the first ask times the slow way itself: its seconds are not the call's."""
    timed: list[float] = []

    def yardstick() -> float:
        if not timed:
            clock.value += YARDSTICK  # the slow way, run once in the grader
            timed.append(YARDSTICK)
        return YARDSTICK

    def call(round_number: int) -> str:
        cut = speed_cut.passing_within()  # as GradingSession.budget asks it, before sending the call
        assert cut == YARDSTICK / TARGET * rubric.NOISE_FACTOR
        clock.value += 1.0
        return "answer"

    assert rubric.fastest_seconds(3, call, lambda *_: None, yardstick, TARGET) == 1.0


@pytest.mark.unit
def test_a_speed_test_says_how_far_off_the_target_and_what_to_do():
    """One wording for every speed test: the ratio, both times, the target and the advice; nothing when fast."""
    said = rubric.too_slow(2.5, YARDSTICK, TARGET, slow_way="the slow way", advice="skip the words you need not see")
    assert said == "4.0x faster than the slow way (2.50 s against 10.00 s); aim for 5x: skip the words you need not see"
    assert rubric.too_slow(2.0, YARDSTICK, TARGET, slow_way="the slow way", advice="-") == ""


@pytest.mark.unit
def test_a_speed_tests_verdict_is_the_best_rounds_in_one_wording(clock):
    """speed_problem: fastest_seconds's rounds, then too_slow's words on the best of them; "" when fast."""

    def taking(seconds: tuple[float, ...]):
        def call(round_number: int) -> int:
            clock.value += seconds[round_number]
            return round_number

        return call

    def verdict(seconds: tuple[float, ...]) -> str:
        call = taking(seconds)
        return rubric.speed_problem(
            len(seconds), call, lambda *_: None, lambda: YARDSTICK, TARGET, slow_way="the slow way", advice="x"
        )

    assert verdict((3.0, 2.5, 2.25)) == rubric.too_slow(2.25, YARDSTICK, TARGET, slow_way="the slow way", advice="x")
    assert verdict((3.0, 2.5, 2.25)) != ""
    assert verdict((1.0,)) == ""
