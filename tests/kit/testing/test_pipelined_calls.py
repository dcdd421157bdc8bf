"""A replayed property's calls go to the worker in one message, and what each call gets is what it gets live.

Each test runs a real caged worker on a small hand-in. A "property" here is a list of texts given to
``char_tokenize`` in turn, as ``replay`` gives a property's examples: the first passing run records the
calls, and the next run of the same key sends them ahead (``GradingSession.replaying``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from autograder.cage.cage_limits import CageLimits
from autograder.cage.starting import start_worker
from autograder.hand_in import loading
from autograder.testing.grader import Grader
from autograder.testing.pipelining import call_key
from autograder.testing.proxy import (
    CallRecord,
    CallTimedOut,
    GradingSession,
    StudentRaised,
    WorkerCrashed,
)

# Its hand-ins step outside the plain-Python policy on purpose, to test the worker and the cage.
pytestmark = pytest.mark.without_policy

TEXTS = ("a", "bb", "ccc", "boom", "dd", "e")
# A plan is kept for the life of the process, by key: each test records under keys of its own.
_keys = itertools.count()

CORRECT = (
    "def char_tokenize(text):\n    print('called with', text)\n    return list(text)\n"
    "def echo(value):\n    return value\n"
)
# Looks for the calls sent ahead in the bootstrap's frames, and answers with what a later call is handed.
PEEKS = """
import marshal, sys
def char_tokenize(text):
    frame = sys._getframe(1)
    while frame is not None:
        request = frame.f_locals.get("request")
        if isinstance(request, dict) and request.get("op") == "calls":
            calls = [marshal.loads(body) for body in request["calls"]]
            for call, after in zip(calls, calls[1:]):
                if call["function"] == "char_tokenize" and marshal.loads(call["payload"])[0] == [text]:
                    return marshal.loads(after["payload"])[0][0]
        frame = frame.f_back
    return ["not", "found"]
def echo(value):
    return value
"""


class Grading:
    """A session on a real worker, with the plans of ``grader``, and the calls it sent together, counted."""

    def __init__(self, folder: Path, source: str, limits: CageLimits, grader: Grader) -> None:
        folder.mkdir()
        (folder / "simple_tokenizers.py").write_text(source, encoding="utf-8")
        self.started = start_worker(loading.load(folder), limits)
        self.session = GradingSession(self.started.worker, limits, plans=grader.plans)
        self.sent_together: list[int] = []
        send = self.started.worker.send_calls

        def counted(module: str, bodies: list[bytes]) -> None:
            self.sent_together.append(len(bodies))
            send(module, bodies)

        self.started.worker.send_calls = counted  # type: ignore[method-assign]

    def run(
        self, key: str, texts: tuple[str, ...], *, get_past: str = "", then_echo: bool = False
    ) -> tuple[bool, list[CallRecord]]:
        """Give ``texts`` to char_tokenize as a replayed property would, an example each; a failure of
        ``get_past`` is expected. ``then_echo``: each example makes a second call, handed the first
        one's expected answer (as a test might hand an encoding to decode)."""
        records: list[CallRecord] = []

        def replay(each: Callable[[], None]) -> bool:
            for text in texts:
                each()
                try:
                    record = self.session.call("simple_tokenizers", "char_tokenize", (text,), {})
                except StudentRaised:
                    if text == get_past:
                        continue  # as a test that expects the error (pytest.raises) goes on
                    raise
                records.append(record)
                if record.returned != list(text):
                    return False
                if then_echo:
                    self.session.call("simple_tokenizers", "echo", (list(text),), {})
            return True

        self.session.begin_test()
        return self.session.replaying(key, replay), records

    def warm(self) -> None:
        """Import the module, as an earlier test would have: calls are sent ahead only into imported modules."""
        self.session.begin_test()
        self.session.call("simple_tokenizers", "char_tokenize", ("x",), {})

    def stop(self) -> None:
        self.started.worker.stop()
        self.started.cage.remove()


@pytest.fixture
def grading(tmp_path: Path) -> Iterator[Callable[..., Grading]]:
    """Hand-ins graded one after another by one grader, as a batch's grader process grades them."""
    made: list[Grading] = []
    with Grader() as grader:

        def make(source: str = CORRECT, **limits: Any) -> Grading:
            made.append(Grading(tmp_path / f"hand-in-{len(made)}", source, CageLimits(**limits), grader))
            return made[-1]

        yield make
        for each in made:
            each.stop()


def recorded_plan(grading: Callable[..., Grading], texts: tuple[str, ...] = TEXTS) -> str:
    """A key whose plan a correct hand-in recorded (its first passing replay), as a batch's grader does."""
    key = f"property-{next(_keys)}"
    correct = grading()
    correct.warm()
    assert correct.run(key, texts)[0]
    assert correct.sent_together == [], "the first passing replay records: nothing is sent ahead yet"
    return key


def seen(records: list[CallRecord]) -> list[tuple[Any, ...]]:
    return [(record.text, record.returned, record.output) for record in records]


def test_the_calls_are_sent_in_one_message_and_each_gets_its_own_answer(grading):
    key = recorded_plan(grading)
    live = grading()
    live.warm()
    _, answered_live = live.run(f"never-recorded-{next(_keys)}", TEXTS)
    streamed = grading()
    streamed.warm()
    passed, answered = streamed.run(key, TEXTS)
    assert passed and streamed.sent_together == [len(TEXTS)]
    assert seen(answered) == seen(answered_live)
    assert answered[3].output == "called with boom\n", "what a call printed is that call's"


def test_a_call_not_sent_ahead_ends_the_stream_and_is_made_live(grading):
    key = recorded_plan(grading)
    changed = (*TEXTS[:2], "zz", *TEXTS[3:])  # a call other than the one sent ahead: a safety net
    streamed = grading()
    streamed.warm()
    passed, answered = streamed.run(key, changed)
    assert passed and streamed.sent_together == [len(TEXTS)]
    assert [record.returned for record in answered] == [list(text) for text in changed]
    streamed.session.begin_test()
    assert streamed.session.call("simple_tokenizers", "char_tokenize", ("after",), {}).returned == list("after")


CRASHES = {
    "os._exit": "import os\ndef char_tokenize(text):\n    if text == 'boom':\n        os._exit(3)\n    return list(text)\n",
    "bytes written into the grader's channel": (
        "import os\ndef char_tokenize(text):\n    if text == 'boom':\n"
        "        for fd in range(3, 64):\n            try:\n                os.write(fd, b'not a message')\n"
        "            except OSError:\n                pass\n    return list(text)\n"
    ),
}


@pytest.mark.parametrize("how", sorted(CRASHES))
def test_a_crash_in_the_stream_is_blamed_on_the_call_that_made_it_as_live(grading, how):
    key = recorded_plan(grading)
    live = grading(CRASHES[how])
    live.warm()
    with pytest.raises(WorkerCrashed) as live_crash:
        live.run(f"never-recorded-{next(_keys)}", TEXTS)
    streamed = grading(CRASHES[how])
    streamed.warm()
    with pytest.raises(WorkerCrashed) as crash:
        streamed.run(key, TEXTS)
    assert streamed.sent_together == [len(TEXTS)]
    assert str(crash.value) == str(live_crash.value)
    assert str(crash.value).startswith("char_tokenize('boom') ended the worker: ")
    assert [record.text for record in streamed.session.calls] == [f"char_tokenize({text!r})" for text in TEXTS[:4]]


def test_a_stream_not_answered_in_time_gives_way_to_the_call_under_its_own_limit(grading):
    key = recorded_plan(grading)
    hangs = "def char_tokenize(text):\n    while text == 'boom':\n        pass\n    return list(text)\n"
    streamed = grading(hangs, call_seconds=0.5)
    streamed.warm()
    with pytest.raises(CallTimedOut, match=r"^char_tokenize\('boom'\) timed out after 0.5 s$"):
        streamed.run(key, TEXTS)
    assert streamed.sent_together == [len(TEXTS)]
    assert [record.text for record in streamed.session.calls] == [f"char_tokenize({text!r})" for text in TEXTS[:4]]
    assert streamed.session.calls[2].returned == list("ccc"), "the calls before it were answered from the stream"
    assert ("simple_tokenizers", "char_tokenize") in streamed.session.timed_out
    with pytest.raises(CallTimedOut, match="ran out of time in an earlier test"):
        streamed.run(key, TEXTS)
    assert streamed.sent_together == [len(TEXTS)], "a function that ran out of time is not sent ahead again"


def test_calls_each_within_their_limit_pass_though_together_they_take_longer(grading):
    """The stream must be answered within one call's limit; when it is not, no call is blamed for it."""
    key = recorded_plan(grading)
    slow = "import time\ndef char_tokenize(text):\n    time.sleep(0.15)\n    return list(text)\n"
    streamed = grading(slow, call_seconds=0.5)  # six calls of 0.15 s: 0.9 s together
    streamed.warm()
    passed, answered = streamed.run(key, TEXTS)
    assert passed and streamed.sent_together == [len(TEXTS)]
    assert [record.returned for record in answered] == [list(text) for text in TEXTS]
    assert not streamed.session.timed_out
    assert streamed.started.worker.starts == 1, "the answers came as they were made: the stream was not given up"


def test_a_failed_call_ends_the_stream_and_the_rest_is_sent_again_when_the_test_goes_on(grading):
    key = recorded_plan(grading)
    raises = "def char_tokenize(text):\n    if text == 'boom':\n        raise ValueError('no')\n    return list(text)\n"
    streamed = grading(raises)
    streamed.warm()
    passed, answered = streamed.run(key, TEXTS, get_past="boom")
    assert passed
    assert streamed.sent_together == [len(TEXTS), len(TEXTS) - 4], "the worker stopped at the failure"
    assert [record.returned for record in answered] == [list(text) for text in TEXTS if text != "boom"]


def test_nothing_is_sent_ahead_into_a_module_not_yet_imported(grading):
    key = recorded_plan(grading)
    cold = grading()
    passed, _ = cold.run(key, TEXTS)
    assert passed and cold.sent_together == [], "the import is waited for under its own limit, one call at a time"
    passed, _ = cold.run(key, TEXTS)
    assert passed and cold.sent_together == [len(TEXTS)]


def test_a_plan_never_shows_the_student_an_answer_it_is_asked_for(grading):
    """An example whose second call is handed the first one's expected answer is never sent ahead."""
    key = f"property-{next(_keys)}"
    correct = grading()
    correct.warm()
    for _ in range(2):
        assert correct.run(key, TEXTS, then_echo=True)[0]
    assert correct.sent_together == [], "two calls an example: live calls only"
    peeking = grading(PEEKS)
    peeking.warm()
    passed, answered = peeking.run(key, TEXTS, then_echo=True)
    assert not passed and answered[0].returned == ["not", "found"]
    assert peeking.sent_together == []


@pytest.mark.unit
def test_a_call_matches_one_sent_ahead_only_when_equal_in_every_value_and_type():
    """1 == 1.0 == True in Python, but a call with one is not the call with another: its answer may differ."""
    keys = [call_key("bpe", "encode", (value,), {}) for value in (1, 1.0, True, "1", (1,), [1])]
    assert len(set(keys)) == len(keys)
    assert call_key("bpe", "encode", (["a", "b"], ("a", "b")), {"n": 2}) == call_key(
        "bpe", "encode", (list("ab"), tuple("ab")), {"n": 2}
    ), "equal values in other objects: the same call"
    assert call_key("bpe", "encode", (lambda: 0,), {}) is None, "not plain data: made live, which says so"


def test_a_call_pickle_cannot_write_ends_the_stream_and_is_made_live(grading):
    """An argument of a class made inside a test (a str subclass, say) is plain data, but has no call key."""

    class Local(str):
        pass

    key = recorded_plan(grading)
    streamed = grading()
    streamed.warm()
    assert call_key("simple_tokenizers", "char_tokenize", (Local("a"),), {}) is None
    passed, answered = streamed.run(key, (Local("a"), *TEXTS[1:]))
    assert passed and streamed.sent_together == [len(TEXTS)]
    assert [record.returned for record in answered] == [list(text) for text in ("a", *TEXTS[1:])]
