"""Give the next submission the examples hypothesis drew for the last one, without drawing them again.

A graded property runs derandomized with no example database, so hypothesis
draws the same examples, in the same order, for every submission on which
they all pass. Drawing them costs several times more than grading them
(hypothesis's engine, not the student's code, is most of a correct
submission's grading time), and ``grade batch`` grades hundreds of
submissions in one process.

So a property's examples are recorded during a run in which the property
passes, and the next time the property runs for the same grader (``grader.Grader``,
which keeps them in a ``Recorded``) its test body is called on those same
examples directly:

- all pass: the property passes, as hypothesis would have found, since it
  would have drawn exactly these examples;
- one fails: the property is run under hypothesis after all, which draws the
  same examples up to that one, fails there and shrinks as usual: the same
  outcome, the same shrunk example, as a run without replay;
- student code stops (not started, timed out, crashed): that ends the test
  under hypothesis too (such stops are BaseExceptions it does not retry), so
  it is raised as it is.

``tests/kit/course/test_batch.py`` grades the bug corpus both ways and compares.
"""

from __future__ import annotations

import inspect
import pickle
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from autograder.testing.example_store import ExampleStore


def install(test: Any) -> None:
    """Make a ``@given`` test's examples recordable (hypothesis's documented ``inner_test`` hook): while a
    ``Recorded`` records it, each example it is called with is kept, as pickled bytes (loading a fresh copy
    for each replay costs a fifth of copy.deepcopy, and the examples are hypothesis's plain values, which
    pickle keeps exactly)."""
    inner = test.hypothesis.inner_test
    drawn = set(inspect.signature(inner).parameters) - set(inspect.signature(test).parameters)

    def recording(*args: Any, **kwargs: Any) -> Any:
        into = recording.into  # type: ignore[attr-defined]
        if into is not None:
            into.append(pickle.dumps({name: kwargs[name] for name in drawn if name in kwargs}))
        recording.last = kwargs  # type: ignore[attr-defined]
        began = recording.began  # type: ignore[attr-defined]
        if began is not None:
            began()
        return inner(*args, **kwargs)

    recording.__name__ = getattr(inner, "__name__", "test")
    recording.replays = inner  # type: ignore[attr-defined]
    recording.into = None  # type: ignore[attr-defined]  # the list a Recorded is filling, while it records
    # The arguments of the example run last: after a failure, the one hypothesis showed (its final run is the
    # falsifying example), made again alone for its words (plugin). Kept as they are, not copied: most
    # examples pass, and a failing one's words are only shown where that run agrees.
    recording.last = None  # type: ignore[attr-defined]
    recording.began = None  # type: ignore[attr-defined]  # told as each example begins, where it is set (plugin)
    test.hypothesis.inner_test = recording


def last_example(test: Any) -> dict[str, Any] | None:
    """The drawn arguments of the example ``test`` ran last (none before it ran one), fixtures left out."""
    wrapper = test.hypothesis.inner_test
    last: dict[str, Any] | None = wrapper.last
    if last is None:
        return None
    drawn = set(inspect.signature(wrapper.replays).parameters) - set(inspect.signature(test).parameters)
    return {name: value for name, value in last.items() if name in drawn}


def run_example(test: Any, fixtures: dict[str, Any], example: dict[str, Any]) -> None:
    """Run ``test``'s body once, on ``example``, outside hypothesis (no retry, no shrink, no note)."""
    test.hypothesis.inner_test.replays(**fixtures, **example)


def replayable(test: Any) -> bool:
    return hasattr(getattr(getattr(test, "hypothesis", None), "inner_test", None), "replays")


class Recorded:
    """The examples each property drew, by replay key (its test and its example set), for one grader; those of
    an example set also kept in ``store`` (example_store), where the grader has one, for other processes."""

    def __init__(self) -> None:
        self.examples: dict[str, list[bytes]] = {}
        self.store: ExampleStore | None = None

    def begin(self, key: str, test: Any, *, lasting: bool = False) -> None:
        """Record what ``test`` draws from now on, unless its examples for ``key`` are known already, here or,
        ``lasting`` (an example set's), in the store."""
        if key not in self.examples and lasting and self.store is not None:
            kept = self.store.load(key)
            if kept is not None:
                self.examples[key] = kept
        test.hypothesis.inner_test.into = [] if key not in self.examples else None
        test.hypothesis.inner_test.last = None  # not the example another hand-in's run of it ended on

    def end(self, key: str, test: Any, passed: bool, *, lasting: bool = False) -> None:
        """Keep what was recorded when the property passed: then it drew every example it draws."""
        wrapper = test.hypothesis.inner_test
        if wrapper.into is not None and passed:
            self.examples[key] = wrapper.into
            if lasting and self.store is not None:
                self.store.save(key, wrapper.into)
        wrapper.into = None

    def replay(
        self, key: str, test: Any, fixtures: dict[str, Any], stop: type[BaseException], each: Callable[[], None]
    ) -> bool:
        """Run the recorded examples; True when all passed, False when hypothesis must run after all.

        ``stop`` is the kind of exception that ends a test under hypothesis
        without a retry; it is raised as it is. ``each`` is told before each example.
        """
        examples = self.examples.get(key)
        if examples is None:
            return False
        wrapper = test.hypothesis.inner_test
        inner: Callable[..., Any] = wrapper.replays
        for example in examples:
            each()
            drawn = pickle.loads(example)
            wrapper.last = drawn  # a stop raised here ends the test on this example (last_example)
            if wrapper.began is not None:
                wrapper.began()
            try:
                inner(**fixtures, **drawn)
            except stop:
                raise
            except Exception:
                return False
        return True
