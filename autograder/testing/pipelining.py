"""Calls sent ahead: a replayed property's calls go to the worker in one message, not one round trip each.

A replay (``replay``) makes the same calls as the last passing one, so those are sent to the worker in one
message, and each call the test makes is answered from the worker's stream of answers when it is the next
one sent (equal as ``call_key`` says): a thousand round trips become a message and a write. What the test
sees is the same: each answer is the one its call would have had, read in turn.

The student's code can see every call sent ahead (it shares the worker with the bootstrap that reads them),
so a plan is made only of a replay whose examples made one call each. Such a call's arguments are worked
out from its example alone, before any answer to it: had an example made a second call from the first
one's answer (an id list handed back to decode, say), the second call would show the first one's expected
answer to the code that gives it.

Live calls take over when
- a call is not the next one sent (which a test whose examples are replayed should never make);
- no answer comes within one call's time limit (the worker writes the answers it holds after the first call
  that ends ``protocol.HOLD_SECONDS`` or more after its last write, and at the end): the worker is stopped,
  and the call that waited is made again under its own limit, so a timeout means what it means live;
- the worker ends (a crash) before the awaited answer: the call is made again live, on a fresh worker,
  where a crash is the crash of the call that made it.
A failed call ends the worker's run there, as the test may end there too; when the test goes on, the rest
is sent again. Answers no call asked for are dropped, or the worker stopped when they do not come at once.
"""

from __future__ import annotations

import pickle
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from autograder.cage.client import Reply, Worker, WorkerCouldNotStart, WorkerGone, WorkerTimedOut
from autograder.cage.inside import codec, protocol

if TYPE_CHECKING:
    from collections.abc import Mapping


@dataclass(frozen=True)
class CallPlan:
    """The calls a replayed property made the last time it passed, in order: the next replay sends them
    to the worker in one message (``CallsSentAhead``)."""

    keys: tuple[bytes, ...]  # each call as call_key makes it: what a later call is compared with
    bodies: tuple[bytes, ...]  # each request as codec.request_body writes it: what the worker is sent
    functions: frozenset[tuple[str, str]]  # (module, function) of each call

    @property
    def modules(self) -> set[str]:
        return {module for module, _ in self.functions}


# A plan is sent only when it is at most this big: a message the worker reads whole before it runs anything.
MAX_PLAN_BYTES = 4 * 1024 * 1024


@dataclass
class _Stream:
    """Calls sent together and the grader's place in them."""

    plan: CallPlan
    # The next answer must have come by then, or live calls take over; each answer moves it on.
    answer_by: float
    position: int = 0


class _Session(Protocol):
    """What sending ahead needs of the session it serves (``proxy.GradingSession``)."""

    worker: Worker
    plans: dict[str, CallPlan]

    @property
    def timed_out(self) -> Mapping[tuple[str, str], str]: ...

    def budget(self) -> float: ...


class CallsSentAhead:
    """One session's calls sent ahead: the plan being streamed, or the calls of a replay being recorded
    for a plan (by example number, module, function, key and request's text)."""

    def __init__(self, session: _Session) -> None:
        self.session = session
        self._stream: _Stream | None = None
        self._recording: list[tuple[int, str, str, bytes, bytes]] | None = None
        self._example = 0

    @property
    def active(self) -> bool:
        """Whether calls are being answered from a stream, or recorded: a call then needs its key."""
        return self._stream is not None or self._recording is not None

    def replaying(self, key: str, replay: Callable[[Callable[[], None]], bool]) -> bool:
        """Run ``replay`` (a property's recorded examples) with the calls of ``key``'s plan sent ahead, or
        recorded for a plan when it has none yet; ``replay`` is given a function to call before each example."""
        plans = self.session.plans
        plan = plans.get(key)
        self._recording = [] if plan is None else None
        self._example = 0
        if plan is not None:
            self._send_plan(plan, 0)
        passed = False
        try:
            passed = replay(self._next_example)
            return passed
        finally:
            self._end_stream()
            recorded, self._recording = self._recording, None
            if passed and recorded is not None:
                made = plan_of(recorded)
                if made is not None:
                    plans[key] = made

    def record(self, module: str, function: str, key: bytes | None, request: dict[str, Any]) -> None:
        """Keep a call made live while a replay is recorded (one ``call_key`` could not write is never sent)."""
        if self._recording is not None and key is not None:
            self._recording.append((self._example, module, function, key, codec.request_body(request)))

    def _next_example(self) -> None:
        self._example += 1

    def _send_plan(self, plan: CallPlan, start: int) -> None:
        """Send the plan's calls from ``start`` on, when each of them would run at once and none ran out of time."""
        if plan.functions & self.session.timed_out.keys() or not self.session.worker.runs_at_once(plan.modules):
            return
        budget = self.session.budget()
        if budget <= 0 or start >= len(plan.bodies):
            return
        try:
            self.session.worker.send_calls(next(iter(plan.modules)), list(plan.bodies[start:]))
        except (WorkerGone, WorkerCouldNotStart):
            return  # the next call, made live, finds the worker's end and says what it was
        self._stream = _Stream(plan, time.monotonic() + budget, start)

    def _end_stream(self) -> None:
        """Stop reading the stream: drop the answers still to come, or stop a worker still running calls."""
        stream, self._stream = self._stream, None
        if stream is not None and self.session.worker.streaming:
            self.session.worker.drop_answers(protocol.HOLD_SECONDS)

    def answer(self, key: bytes | None) -> Reply | None:
        """The next streamed answer when the call ``key`` is the next one sent; None when live calls take over
        (the stream ended first, so the live request finds the worker free)."""
        stream = self._stream
        if stream is None:
            return None
        plan = stream.plan
        if key is None or stream.position >= len(plan.keys) or plan.keys[stream.position] != key:
            self._end_stream()
            return None
        if not self.session.worker.streaming:  # the stream ended at a failed call, which the test got past
            self._stream = None
            self._send_plan(plan, stream.position)
            if self._stream is None:
                return None
            stream = self._stream
        stream.position += 1
        try:
            reply = self.session.worker.next_answer(max(stream.answer_by - time.monotonic(), 0.0))
            stream.answer_by = time.monotonic() + self.session.budget()
            return reply
        except (WorkerTimedOut, WorkerGone):
            # Not answered in time, or the worker ended with this call's answer unsent (it holds answers
            # between writes): the call is made again, live, on a fresh worker.
            self._stream = None
            self.session.worker.stop()
            return None


def call_key(module: str, function: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bytes | None:
    """A call as bytes that are equal only for calls equal in every value and type (1, 1.0 and True differ);
    None for arguments pickle cannot write, which are not plain data anyway (the live call says so).

    A call found equal to one sent ahead is answered with no conversion of its arguments: those of the
    recorded call were converted, and checked to be plain data, when it was made live.
    """
    try:
        return pickle.dumps((module, function, args, kwargs), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # anything pickle raises: the live call gives the real error
        return None


def plan_of(recorded: list[tuple[int, str, str, bytes, bytes]]) -> CallPlan | None:
    """The plan of a passing replay's calls; None when an example made more than one, or when too big."""
    examples = [example for example, *_ in recorded]
    if len(set(examples)) != len(examples) or sum(len(body) for *_, body in recorded) > MAX_PLAN_BYTES:
        return None
    return CallPlan(
        tuple(key for *_, key, _ in recorded),
        tuple(body for *_, body in recorded),
        frozenset((module, function) for _, module, function, *_ in recorded),
    )
