"""What a graded test calls: ``submission.bpe.merge_pair(tokens, pair)`` runs in the worker.

Arguments go out as plain data, results come back as plain data, and every
comparison is made here, in the trusted process. Failures of the student's
code arrive as exceptions that say what happened in a student's words.
"""

from __future__ import annotations

import reprlib
import time
from dataclasses import dataclass, field
from typing import Any

from autograder.engine.outcomes import Outcome
from autograder.engine.worker import codec, protocol
from autograder.engine.worker.client import Worker, WorkerCouldNotStart, WorkerGone, WorkerNotLoaded, WorkerTimedOut
from autograder.engine.worker.limits import Limits

_short = reprlib.Repr()
_short.maxstring = 60
_short.maxother = 60
_short.maxlist = _short.maxtuple = _short.maxset = _short.maxdict = 12
_short.maxlevel = 4


def short_repr(value: Any) -> str:
    """A repr a student can read in one line."""
    return _short.repr(value)


class StudentRaised(Exception):
    """The student's function raised; hypothesis may shrink the input that did it."""

    def __init__(self, text: str, *, error_type: str = "", error_message: str = "") -> None:
        super().__init__(text)
        self.error_type = error_type  # the student's exception, by name ("ValueError")
        self.error_message = error_message


class StudentStopped(BaseException):
    """Student code could not run at all for this call.

    A BaseException, so hypothesis does not retry the same dead end while
    shrinking: the test ends at the first such call.
    """


class NotStarted(StudentStopped):
    """The function still raises NotImplementedError, or its module is missing."""


class CannotLoad(StudentStopped):
    """The module does not import, or the function is not in it."""


class FunctionMissing(CannotLoad):
    """The module loaded but has no function of that name (a bonus one left out is simply not started)."""

    def __init__(self, text: str, *, suggested: str = "") -> None:
        super().__init__(text)
        self.suggested = suggested  # a name of the module close to the one asked for: a typo, perhaps


class CallTimedOut(StudentStopped):
    """A call ran past its time limit; the worker was killed and will restart."""


class WorkerCrashed(StudentStopped):
    """The student's code ended the worker process (os._exit, a crash, a limit)."""


class GraderFault(StudentStopped):
    """The grader could not run the student's code at all (its cage would not start): not the student's doing."""


# What each way of stopping scores as: the one table from failure to outcome (the plugin reads it; a
# failed assertion is judged there). A bonus function left out is the plugin's one exception.
FAILURE_OUTCOMES: dict[type[BaseException], Outcome] = {
    NotStarted: Outcome.NOT_STARTED,
    CallTimedOut: Outcome.TIMED_OUT,
    CannotLoad: Outcome.ERROR,
    StudentRaised: Outcome.ERROR,
    WorkerCrashed: Outcome.CRASHED,
    GraderFault: Outcome.GRADER_ERROR,
}


def failure_outcome(error: BaseException) -> Outcome | None:
    """The outcome of a failure in the table (by its nearest listed class), or None for any other error."""
    for kind in type(error).__mro__:
        if kind in FAILURE_OUTCOMES:
            return FAILURE_OUTCOMES[kind]
    return None


@dataclass(frozen=True)
class CallRecord:
    """One call to a student function, as the grader saw it."""

    module: str
    function: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    returned: Any = None
    args_after: tuple[Any, ...] | None = None
    kwargs_after: dict[str, Any] | None = None
    output: str = ""

    @property
    def text(self) -> str:
        parts = [short_repr(arg) for arg in self.args]
        parts += [f"{name}={short_repr(value)}" for name, value in self.kwargs.items()]
        return f"{self.function}({', '.join(parts)})"

    @property
    def mutated(self) -> bool:
        """Whether the function changed any of its arguments."""
        args_changed = self.args_after is not None and self.args_after != self.args
        kwargs_changed = self.kwargs_after is not None and self.kwargs_after != self.kwargs
        return args_changed or kwargs_changed


@dataclass
class GradingSession:
    """The worker and the clocks for one submission's grading run."""

    worker: Worker
    limits: Limits
    # Seconds spent waiting for the worker: the limits charge the student's code, not the grader's own
    # work (an oracle, Part 5's timed recount), which a busy machine would otherwise turn into a timeout.
    used: float = 0.0
    test_used: float = 0.0
    calls: list[CallRecord] = field(default_factory=list)
    # A function that ran out of time is not called again in this run: a
    # hang would otherwise cost its full limit once per test, and one
    # submission would hold a batch slot for minutes.
    timed_out: dict[tuple[str, str], str] = field(default_factory=dict)
    # A test that times a heavy call (Part 5's speed test) may allow its calls longer than the default.
    call_seconds: float | None = None
    # Part modules the hand-in does not have, with the worker's word for it: the plugin runs none of their
    # later tests.
    missing: dict[str, str] = field(default_factory=dict)

    def begin_test(self, *, call_seconds: float | None = None) -> None:
        self.test_used = 0.0
        self.calls = []
        self.call_seconds = call_seconds

    @property
    def last_call(self) -> CallRecord | None:
        return self.calls[-1] if self.calls else None

    def call(self, module: str, function: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> CallRecord:
        record = CallRecord(module, function, args, kwargs)
        self.calls.append(record)
        test_left = self.limits.test_seconds - self.test_used
        submission_left = self.limits.submission_seconds - self.used
        budget = min(self.call_seconds or self.limits.call_seconds, test_left, submission_left)
        earlier = self.timed_out.get((module, function))
        if earlier is not None:
            raise CallTimedOut(f"{record.text} was not run: {function} ran out of time in an earlier test ({earlier})")
        if budget <= 0:
            which = "this test's" if test_left <= submission_left else "the submission's"
            raise CallTimedOut(f"{record.text} did not run: {which} time limit was used up")
        try:
            args_tree = codec.to_plain(list(args))
            kwargs_tree = codec.to_plain(dict(kwargs))
        except codec.CodecError as error:
            raise RuntimeError(f"the test passed a value that is not plain data: {error}") from None
        request = {
            "op": protocol.CALL,
            "module": module,
            "function": function,
            "args": args_tree,
            "kwargs": kwargs_tree,
        }
        asked = time.monotonic()
        try:
            reply = self.worker.request(request, budget)
        except WorkerTimedOut:
            self.timed_out[(module, function)] = f"{record.text} took over {budget:.3g} s"
            raise CallTimedOut(f"{record.text} timed out after {budget:.3g} s") from None
        except WorkerCouldNotStart as failure:
            raise GraderFault(str(failure)) from None
        except WorkerNotLoaded as failure:
            raise CannotLoad(str(failure)) from None
        except WorkerGone as gone:
            raise WorkerCrashed(f"{record.text} ended the worker: {gone}") from None
        finally:
            waited = time.monotonic() - asked
            self.used += waited
            self.test_used += waited
        message = reply.message
        output = str(message.get("output", ""))
        if reply.ok:
            try:
                returned = codec.from_plain(message.get("value"))
                args_after = tuple(codec.from_plain(message["args_after"])) if "args_after" in message else None
                kwargs_after = codec.from_plain(message["kwargs_after"]) if "kwargs_after" in message else None
            except codec.CodecError as error:
                raise StudentRaised(f"{record.text} sent back something unreadable: {error}") from None
            record = CallRecord(module, function, args, kwargs, returned, args_after, kwargs_after, output)
            self.calls[-1] = record
            return record
        self.calls[-1] = CallRecord(module, function, args, kwargs, output=output)
        if reply.kind == protocol.MISSING_MODULE:
            self.missing[module] = str(message.get("message", ""))
        raise _failure(reply.kind, message, record)


def _failure(kind: str, message: dict[str, Any], record: CallRecord) -> BaseException:
    text = str(message.get("message", ""))
    where = str(message.get("where", ""))
    at = f" ({where})" if where else ""
    if kind == protocol.NOT_STARTED:
        return NotStarted(f"{record.function} still raises NotImplementedError: fill in its TODO")
    if kind == protocol.MISSING_MODULE:
        return NotStarted(text)
    if kind == protocol.MISSING_FUNCTION:
        return FunctionMissing(text, suggested=str(message.get("suggested", "")))
    if kind == protocol.IMPORT_FAILED:
        at = "" if where and where in text else at  # a SyntaxError's own text already names the line
        return CannotLoad(f"{record.module}.py could not be imported{at}: {message.get('type')}: {text}")
    if kind == protocol.RAISED:
        return StudentRaised(
            f"{record.text} raised {message.get('type')}: {text}{at}",
            error_type=str(message.get("type", "")),
            error_message=text,
        )
    if kind == protocol.UNREADABLE:
        return StudentRaised(text)
    return WorkerCrashed(f"the worker answered {record.text} with an unknown reply")


class FunctionProxy:
    def __init__(self, session: GradingSession, module: str, function: str) -> None:
        self._session, self._module, self._function = session, module, function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._session.call(self._module, self._function, args, kwargs).returned

    def call(self, *args: Any, **kwargs: Any) -> CallRecord:
        """Call and keep the whole record: what came back and the arguments afterwards."""
        return self._session.call(self._module, self._function, args, kwargs)


class ModuleProxy:
    def __init__(self, session: GradingSession, module: str) -> None:
        self._session, self._module = session, module

    def __getattr__(self, function: str) -> FunctionProxy:
        if function.startswith("_"):
            raise AttributeError(function)
        return FunctionProxy(self._session, self._module, function)


class SubmissionProxy:
    """``submission.<module>.<function>(...)``, answered by the worker."""

    def __init__(self, session: GradingSession) -> None:
        self._session = session

    def __getattr__(self, module: str) -> ModuleProxy:
        if module.startswith("_"):
            raise AttributeError(module)
        return ModuleProxy(self._session, module)
