"""Helpers graded tests import: the hint a student reads next to a failed assertion, the examples'
settings, and the one replay that judges a training by its property.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Generic, TypeVar

from autograder.testing import failure_notes
from autograder.testing.proxy import StudentRaised
from autograder.testing.speed_cut import timing_with_cut

State = TypeVar("State")


def hint(text: str, fix: str | None = None) -> str:
    """The fix to suggest when the assertion it stands beside fails.

    Written as an assertion's message, so it is evaluated only on failure:
    ``assert got == expected, hint("after a merge, jump past both tokens")``.

    The hint's id is the contract rule whose fix it names (``autograder.testing.rules``): by default the one
    rule its test is marked with; ``fix="rule"`` names another (a test that checks several must), and
    ``fix=""`` says the hint names no fix, only what it saw (``saw``).
    """
    notes = failure_notes.taken()
    if notes is not None:
        notes.hint = text
        notes.fix = fix
    return text


def saw(expected: object, got: object) -> str:
    """A hint for a failure whose cause the test cannot tell: what it expected, what it got and where they
    first differ, naming no fix (its id is empty)."""
    where = first_difference(expected, got)
    said = f"the answer differs from the expected one {where}" if where else "the answer differs from the expected one"
    return hint(f"{said} (expected {expected!r}, got {got!r})", fix="")


def first_difference(expected: object, got: object) -> str:
    """Where two answers first differ, in words ("at index 2: 'ab' against 'a'"), or "" where not a sequence."""
    if not isinstance(expected, (list, tuple, str)) or not isinstance(got, (list, tuple, str)):
        return ""
    for index, (want, have) in enumerate(zip(expected, got, strict=False)):
        if want != have:
            return f"at index {index}: {have!r} where {want!r} was expected"
    if len(expected) != len(got):
        return f"in length: {len(got)} items where {len(expected)} were expected"
    return ""


def raised(function: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[str, str] | None:
    """Call a student's function that should raise: ``(exception name, message)``, or None if it returned.

    ``assert raised(f, x) == ...`` reads better in a graded test than
    ``pytest.raises``, whose own failure would look like the grader's.
    """
    try:
        function(*args, **kwargs)
    except StudentRaised as error:
        return error.error_type, error.error_message
    return None


def examples(count: int) -> Callable[[Any], Any]:
    """Hypothesis settings for a graded property: ``@examples(50)`` above its ``@given``.

    Derandomized so a submission always gets the same score; no example
    database, so nothing is written beside the submission; no deadline,
    because the cage's per-call limit is the one that counts. No "explain"
    phase: it traces every line while it varies a failing example, to add
    comments to a report the student never sees (it was half the time of a
    failing property). Because the examples are the same for every
    submission, a grader that grades many replays them instead of drawing
    them again (``autograder.testing.replay``).
    """
    from hypothesis import HealthCheck, Phase, settings

    chosen = settings(
        max_examples=count,
        derandomize=True,
        database=None,
        deadline=None,
        print_blob=False,
        report_multiple_bugs=False,
        suppress_health_check=list(HealthCheck),
        phases=[phase for phase in Phase if phase is not Phase.explain],
    )

    def decorate(test: Any) -> Any:
        from autograder.testing import replay

        test = chosen(test)
        replay.install(test)
        return test

    return decorate


class Fault(Enum):
    """What a replayed training did wrong, so that a test can add the fix that goes with it."""

    NOT_MOST_FREQUENT = "not a most frequent pair"
    SEEN_ONCE = "a pair seen only once"
    STOPPED_EARLY = "stopped while a pair repeats"


@dataclass(frozen=True)
class Replayed(Generic[State]):
    """A training replayed step by step: what is wrong with it ("" when nothing is), of which kind, the
    state after its merges (as far as the replay went), and the rule whose fix the problem names (a rule id
    every trainer's contract uses: "most_frequent" or "stops"; "" when nothing is wrong)."""

    problem: str
    fault: Fault | None
    state: State
    rule: str = ""


def early_stop(best: int, merges_twice: Callable[[], bool] | None = None) -> tuple[str, str]:
    """The fix for a training that stopped while its best pair is seen ``best`` times (2 or more), and its rule.

    ``merges_twice`` asks the same trainer whether it merges a pair seen exactly twice (a text whose best pair
    is seen twice). Where it does not, its threshold is the mistake; where it does, or the pair left is seen
    more often, the loop stopped on a count other than the best pair's count as it is now. Not asked, a best
    count of 2 could be either: the hint says what it saw and names no fix."""
    if best == 2:
        if merges_twice is None:
            return "a pair is still seen twice: a pair seen twice repeats, and training goes on while one does", ""
        if not merges_twice():
            return "a pair seen twice repeats: stop only when the best count is below 2", "stops"
    seen = "twice, and a pair seen twice is merged where it is the best" if best == 2 else f"{best} times"
    return (
        f"a pair is still seen {seen}: the loop stopped on a count other than the best pair's as it is now; count"
        " the pairs again after every merge and take the pair of largest count, stopping only when that count is"
        " below 2",
        "most_frequent",
    )


def training_problem(
    state: State,
    pairs: Sequence[Hashable],
    names: Sequence[str],
    *,
    room: int,
    count_pairs: Callable[[State], Mapping[Any, int]],
    merge: Callable[[State, Any, int], State],
    counted: str = "",
    merges_twice: Callable[[], bool] | None = None,
) -> Replayed[State]:
    """Replay a student's training from ``state`` and say what is wrong with it.

    ``pairs`` are the merges in the order they were made, ``names`` how a message names each ("merge 0
    is ('a', 'b')"); ``room`` is how many merges the call allowed. Judged by the contract's property, so
    every tie-break earns full marks: each merge is a most frequent pair of its step (any of them) seen at
    least twice, and training stops early only when no pair repeats. ``count_pairs`` and ``merge`` (given
    the step's index) are the reference's, so only the student's choice of pairs is judged. ``merges_twice``
    tells an early stop's causes apart (``early_stop``).
    """
    for step, (pair, name) in enumerate(zip(pairs, names, strict=True)):
        counts = count_pairs(state)
        best, seen = max(counts.values(), default=0), counts.get(pair, 0)
        if seen != best:
            problem = f"{name}, seen {seen} times{counted}, but the most frequent pair is seen {best} times"
            return Replayed(problem, Fault.NOT_MOST_FREQUENT, state, "most_frequent")
        if best < 2:
            problem = f"{name}, seen only once: training must stop when no pair repeats"
            return Replayed(problem, Fault.SEEN_ONCE, state, "stops")
        state = merge(state, pair, step)
    left = max(count_pairs(state).values(), default=0)
    if len(pairs) < room and left >= 2:
        merges = f"{len(pairs)} merge" + ("" if len(pairs) == 1 else "s")
        fix, rule = early_stop(left, merges_twice)
        return Replayed(f"stopped after {merges} although {fix}", Fault.STOPPED_EARLY, state, rule)
    return Replayed("", None, state)


def id_training_problem(
    start: State,
    merges: Mapping[Any, int],
    vocab_size: int,
    *,
    count_pairs: Callable[[State], Mapping[Any, int]],
    merge_pair: Callable[[State, Any, int], State],
    counted: str,
) -> str:
    """What is wrong with byte-level ``merges`` ({pair: new_id}) as a training from ``start`` within
    ``vocab_size``, or "" when nothing is (``id_training_fault``'s problem)."""
    return id_training_fault(
        start, merges, vocab_size, count_pairs=count_pairs, merge_pair=merge_pair, counted=counted
    )[0]


def id_training_fault(
    start: State,
    merges: Mapping[Any, int],
    vocab_size: int,
    *,
    count_pairs: Callable[[State], Mapping[Any, int]],
    merge_pair: Callable[[State, Any, int], State],
    counted: str,
    merges_twice: Callable[[], bool] | None = None,
) -> tuple[str, str]:
    """What is wrong with byte-level ``merges`` ({pair: new_id}) as a training from ``start`` within
    ``vocab_size``, and the rule of byte_bpe.train_bpe whose fix it names; ("", "") when nothing is: new ids
    run 256, 257, ... in the order made (new_ids), at most ``vocab_size - 256`` of them (at_most), and each
    merge replays as a most frequent pair (``training_problem``)."""
    in_learned_order = sorted(merges.items(), key=lambda item: item[1])
    new_ids = [new_id for _, new_id in in_learned_order]
    if new_ids != list(range(256, 256 + len(new_ids))):
        return f"the new ids are {new_ids}: merge i (from 0) gets 256 + i, so they run 256, 257, 258, ...", "new_ids"
    if len(new_ids) > vocab_size - 256:
        made = f"new id {new_ids[-1]} is not below vocab_size {vocab_size}: make at most vocab_size - 256 merges"
        return made, "at_most"
    replayed = training_problem(
        start,
        [pair for pair, _ in in_learned_order],
        [f"merge {pair} -> {new_id}" for pair, new_id in in_learned_order],
        room=vocab_size - 256,
        count_pairs=count_pairs,
        merge=lambda state, pair, step: merge_pair(state, pair, 256 + step),
        counted=counted,
        merges_twice=merges_twice,
    )
    return replayed.problem, replayed.rule


# How far below its target a speed test's ratio may fall before no noise explains it (fastest_seconds).
NOISE_FACTOR = 3


def fastest_seconds(
    rounds: int,
    call: Callable[[int], object],
    check: Callable[[int, object], None],
    yardstick: Callable[[], float],
    target: float,
) -> float:
    """The best time of ``call(round)`` over up to ``rounds`` rounds, each answer passed to ``check``.

    The best of several: a busy machine slows a run, never speeds it up. ``yardstick`` (the seconds the
    slow way takes) is asked only after a first call, so a function not started costs no yardstick, except
    where the call is cut short (``passing_within``). The rounds stop as soon as the ratio reaches ``target``
    (a later round could only make the best time better, never change the verdict) or falls below a third
    of it (no noise explains that). Only the call is timed, never the check.
    """
    times: list[float] = []
    asking = 0.0  # seconds spent in the yardstick while a call was timed: the slow way's, not the call's

    def cut() -> float:
        nonlocal asking
        started = time.perf_counter()
        try:
            return yardstick() / target * NOISE_FACTOR
        finally:
            asking += time.perf_counter() - started

    for round_number in range(rounds):
        with timing_with_cut(cut):
            asking = 0.0
            before = time.perf_counter()
            got = call(round_number)
            times.append(time.perf_counter() - before - asking)
        check(round_number, got)
        ratio = yardstick() / min(times)
        if ratio >= target or ratio < target / NOISE_FACTOR:
            break
    return min(times)


def speed_problem(
    rounds: int,
    call: Callable[[int], object],
    check: Callable[[int, object], None],
    yardstick: Callable[[], float],
    target: float,
    *,
    slow_way: str,
    advice: str,
) -> str:
    """A speed test's verdict: the best of ``fastest_seconds``'s rounds against the ``yardstick``, in
    ``too_slow``'s words; "" when fast enough. A speed test asserts ``not problem`` with ``hint(problem)``."""
    fastest = fastest_seconds(rounds, call, check, yardstick, target)
    return too_slow(fastest, yardstick(), target, slow_way=slow_way, advice=advice)


def too_slow(fastest: float, slow: float, target: float, *, slow_way: str, advice: str) -> str:
    """What a speed test tells a function whose best time ``fastest`` is under ``target`` times faster than
    the ``slow`` way (named ``slow_way``), with the ``advice`` for going faster; "" when it is fast enough.
    One wording for every speed test (``speed_problem``)."""
    ratio = slow / fastest
    if ratio >= target:
        return ""
    return f"{ratio:.1f}x faster than {slow_way} ({fastest:.2f} s against {slow:.2f} s); aim for {target:g}x: {advice}"
