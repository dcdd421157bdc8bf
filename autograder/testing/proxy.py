"""What a graded test calls: ``submission.bpe.merge_pair(tokens, pair)`` runs in the worker.

Arguments go out as plain data, results come back as plain data, and every
comparison is made here, in the trusted process. Failures of the student's
code arrive as exceptions that say what happened in a student's words.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import reprlib
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from autograder.cage.cage_limits import CageLimits
from autograder.cage.client import (
    AnswerTooLarge,
    OutOfStep,
    PolicyRefused,
    Worker,
    WorkerCouldNotStart,
    WorkerGone,
    WorkerNotLoaded,
    WorkerTimedOut,
)
from autograder.cage.inside import codec, protocol
from autograder.testing.answer_types import returns_iterator, type_problem
from autograder.testing.outcomes import Outcome
from autograder.testing.pipelining import CallPlan, CallsSentAhead, call_key
from autograder.testing.speed_cut import passing_within
from autograder.testing.student_output import MESSAGE_PER_TEST, cut

# What a session tells later tests without a call: functions that ran out of time, modules not handed in.
Said = tuple[dict[tuple[str, str], str], dict[str, str]]

# The share of a call's limit it gets in a tainted worker (``GradingSession.tainted``). A failure there is
# decided again in a fresh worker under the whole limit, so all a call cut short costs is this share: a
# hang first met after a passing test spins this much longer than its limit, and an honest call slower
# than this runs twice. The reference takes milliseconds, a beginner's quadratic loop tens
# (CageLimits.call_seconds): a sixteenth of 2 s is 125 ms.
TAINTED_CALL_SHARE = 1 / 16


class _Short(reprlib.Repr):
    """reprlib's short reprs, but dicts in the order the student's code built them (reprlib sorts their keys,
    which put ``[UNK]`` first in the very lesson about putting it last), and text cut at a word with a mark
    after the quote (reprlib cuts out the middle, mid-word, and its ``...`` reads as part of the text)."""

    def repr_dict(self, x: dict[Any, Any], level: int) -> str:
        if not x:
            return "{}"
        if level <= 0:
            return "{...}"
        shown = [
            f"{self.repr1(key, level - 1)}: {self.repr1(x[key], level - 1)}"
            for key in itertools.islice(x, self.maxdict)
        ]
        if len(x) > self.maxdict:
            shown.append("...")
        return "{" + ", ".join(shown) + "}"

    def repr_str(self, x: str, level: int) -> str:
        return _cut_at_a_word(x, self.maxstring)

    def repr_bytes(self, x: bytes, level: int) -> str:
        return _cut_at_a_word(x, self.maxstring)


def _cut_at_a_word(text: str | bytes, room: int) -> str:
    """``text``'s repr whole, or its start cut after a word (a space) where one is near, then ``…``."""
    whole = repr(text)
    if len(whole) <= room:
        return whole
    head = text[: room - 5]
    space = head.rfind(" ") if isinstance(head, str) else head.rfind(b" ")
    if space >= len(head) * 2 // 3:
        head = head[:space]
    return f"{head!r}… ({len(text)} {'characters' if isinstance(text, str) else 'bytes'})"


_short = _Short()
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


class WrongType(AssertionError):
    """The answer's value may be right, but not its type (``1.0`` for ``1``): a failed answer, which hypothesis
    shrinks like any other. Raised by the call, before any test compares it."""

    def __init__(self, record: CallRecord, contract: str, expected: str, found: str) -> None:
        super().__init__(f"{record.function} returned {found} where the contract says {expected}")
        self.record, self.contract, self.expected, self.found = record, contract, expected, found

    @property
    def hint(self) -> str:
        return f"the contract asks for {self.expected} there: {self.record.function} returned {self.found}"


class StudentStopped(BaseException):
    """Student code could not run at all for this call.

    A BaseException, so hypothesis does not retry the same dead end while
    shrinking: the test ends at the first such call.
    """

    # Not made at all: the grader's own word, from what it already knew (an earlier timeout of the function,
    # a time limit used up, a module not handed in), so no test needs to run again to decide it (plugin).
    unmade = False


class NotStarted(StudentStopped):
    """The function still raises NotImplementedError, or its module is missing."""


class CannotLoad(StudentStopped):
    """The module does not import, or the function is not in it."""

    def __init__(self, text: str, *, summary: str = "") -> None:
        super().__init__(text)
        # The same in the kit's words alone (the file, the line, the error's kind, not its message), for a
        # feedback that shows nothing student code wrote (scoring.feedback_policy).
        self.summary = summary or text


class Refused(CannotLoad):
    """The part's code is outside the plain-Python policy (hand_in.policy): the worker never imported it."""

    unmade = True  # decided from the source, before any call: no test needs to run again to decide it


class FunctionMissing(CannotLoad):
    """The module loaded but has no function of that name (a bonus one left out is simply not started)."""

    def __init__(self, text: str, *, suggested: str = "") -> None:
        super().__init__(text, summary=text)
        self.suggested = suggested  # a name of the module close to the one asked for: a typo, perhaps


class CallTimedOut(StudentStopped):
    """A call ran past its time limit; the worker was killed and will restart."""

    def __init__(self, text: str, *, unmade: bool = False) -> None:
        super().__init__(text)
        self.unmade = unmade


class WorkerCrashed(StudentStopped):
    """The student's code ended the worker process (os._exit, a crash, a limit)."""


class GraderFault(StudentStopped):
    """The grader could not run the student's code at all (its cage would not start): not the student's doing."""


# What each way of stopping scores as: the one table from failure to outcome (the plugin reads it; a
# failed assertion is judged there). A bonus function left out is the plugin's one exception.
FAILURE_OUTCOMES: dict[type[BaseException], Outcome] = {
    NotStarted: Outcome.NOT_STARTED,
    Refused: Outcome.REFUSED,
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
    answered: bool = False  # it returned (``returned`` is its answer), rather than raised or never ended
    files: dict[str, bytes] | None = None  # what the call's folder held after it, where it asked (CallFolder)
    # How far the memory of the process the call ran in grew past what it held at birth, in bytes, where the
    # test asked (memory_growth): the kernel's figure, read by the worker that forked it; None where unmeasured.
    grown_bytes: int | None = None
    # Whether the arguments came back as the same bytes as the grader sent: it compares the digest the
    # worker reports of them after the call with its own payload's (``after_digest``).
    same_arguments: bool = False
    # A streamed call's (Stream): how many pieces the function had read when each item of its answer came,
    # and whether the answer ended (rather than the test's ``take`` being reached).
    read: tuple[int, ...] | None = None
    ended: bool = False

    @property
    def text(self) -> str:
        parts = [short_repr(arg) for arg in self.args]
        parts += [f"{name}={short_repr(value)}" for name, value in self.kwargs.items()]
        return f"{self.function}({', '.join(parts)})"

    @property
    def mutated(self) -> bool:
        """Whether the function changed any of its arguments, decided here from what the worker reported of
        them after the call: the same bytes as sent, or else equal plain values (a set may come back in
        another order); an answer with no report of them counts as a change."""
        if not self.answered or self.same_arguments:
            return False
        if self.args_after is None or self.kwargs_after is None:
            return True
        return self.args_after != self.args or self.kwargs_after != self.kwargs


@dataclass(frozen=True)
class CallFolder:
    """A folder in the worker's working folder for one call (``call_folders``): holding ``files`` only (none:
    no folder there), and what it holds after the call sent back when ``collect``. The test passes ``name``
    to the function."""

    name: str
    files: Mapping[str, bytes] = field(default_factory=dict)
    collect: bool = False

    def request(self) -> dict[str, Any]:
        return {"name": self.name, "files": dict(self.files), "collect": self.collect}


@dataclass(frozen=True)
class Stream:
    """How a call to a function that takes an iterable and returns an iterator is made (``streams``): the
    argument at ``arg`` is fed piece by piece (repeated without end where ``endless``, and then read past
    ``most`` pieces with no item out is an error raised into the function), and at most ``take`` items of the
    answer are read (all where None). The record's ``returned`` is the list of items read."""

    arg: int = 0
    endless: bool = False
    take: int | None = None
    most: int = 10_000

    def request(self) -> dict[str, Any]:
        return {"arg": self.arg, "endless": self.endless, "take": self.take, "most": self.most}


# Every call of a function the contract says returns an iterator is streamed, with its first argument fed:
# a generator cannot cross as plain data either way.
DEFAULT_STREAM = Stream()


@dataclass
class GradingSession:
    """The worker and the clocks for one submission's grading run."""

    worker: Worker
    limits: CageLimits
    # Plans by replay key, the grader's (grader.Grader): like the examples they follow (replay), they are the
    # same for every hand-in it grades. None kept by default.
    plans: dict[str, CallPlan] = field(default_factory=dict)
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
    # Whether a call of this test ran in a tainted worker (``Worker.tainted``), which may have ended since.
    test_tainted: bool = False
    ahead: CallsSentAhead = field(init=False)

    def __post_init__(self) -> None:
        self.ahead = CallsSentAhead(self)

    def begin_test(self, *, call_seconds: float | None = None) -> None:
        self.test_used = 0.0
        self.calls = []
        self.call_seconds = call_seconds
        self.test_tainted = False

    @property
    def tainted(self) -> bool:
        """Whether the worker the next call runs in has served a passing test (``Worker.tainted``)."""
        return self.worker.holds_passed_calls

    def passed_test(self) -> None:
        self.worker.passed_test()

    def said_so_far(self) -> Said:
        """What later tests are told without a call (functions that ran out of time, modules not handed in)."""
        return dict(self.timed_out), dict(self.missing)

    def forget_since(self, said: Said) -> None:
        """Forget what was found out since ``said_so_far`` (a test run again decides it afresh)."""
        for key in set(self.timed_out) - set(said[0]):
            del self.timed_out[key]
        for module in set(self.missing) - set(said[1]):
            del self.missing[module]

    @contextlib.contextmanager
    def told_as_then(self, said: Said) -> Iterator[None]:
        """Tell the calls made in the block only what was known at ``said_so_far`` (a test run again after
        later ones ran: what they found out is not its business); keep what the block finds out too."""
        now = self.said_so_far()
        self.timed_out, self.missing = dict(said[0]), dict(said[1])
        try:
            yield
        finally:
            self.timed_out, self.missing = {**now[0], **self.timed_out}, {**now[1], **self.missing}

    def isolate(self) -> None:
        """The next call runs in a fresh worker, which has seen no call (``Worker.isolate``)."""
        self.worker.isolate()

    def prepare_isolation(self) -> None:
        """A later ``isolate`` is sure to come: the fresh worker it needs boots meanwhile (``Worker.prepare_fresh``)."""
        self.worker.prepare_fresh()

    @property
    def last_call(self) -> CallRecord | None:
        return self.calls[-1] if self.calls else None

    def last_call_of(self, module: str, function: str) -> CallRecord | None:
        """The test's last call of ``module.function``, if it made one."""
        return next(
            (record for record in reversed(self.calls) if (record.module, record.function) == (module, function)), None
        )

    def _time_left(self) -> tuple[float, float]:
        """Seconds left to this test and to the submission."""
        return self.limits.test_seconds - self.test_used, self.limits.submission_seconds - self.used

    def replaying(self, key: str, replay: Callable[[Callable[[], None]], bool]) -> bool:
        """Run ``replay`` (a property's recorded examples, see ``replay``) with its calls sent ahead
        (``pipelining``); ``replay`` is given a function to call before each example."""
        return self.ahead.replaying(key, replay)

    def budget(self) -> float:
        """Seconds the next call may take: its own limit, or what is left of the test's or the submission's;
        in a tainted worker, a share of its limit (TAINTED_CALL_SHARE), and for a speed test's timed call no
        longer than a pass allows (speed_cut.passing_within): a slow trainer's failure is decided again anyway."""
        limit = self.call_seconds or self.limits.call_seconds
        budget = min(limit, *self._time_left())
        if not self.tainted:
            return budget
        budget = min(budget, limit * TAINTED_CALL_SHARE)
        passing = passing_within()
        return budget if passing is None else min(budget, passing)

    def call(
        self,
        module: str,
        function: str,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        folder: CallFolder | None = None,
        memory_growth: bool = False,
        stream: Stream | None = None,
    ) -> CallRecord:
        if stream is None and returns_iterator(module, function):
            stream = DEFAULT_STREAM
        record = CallRecord(module, function, args, kwargs)
        self.calls.append(record)
        test_left, submission_left = self._time_left()
        budget = self.budget()
        earlier = self.timed_out.get((module, function))
        if earlier is not None:
            raise CallTimedOut(
                f"{record.text} was not run: {function} ran out of time in an earlier test ({earlier})", unmade=True
            )
        if budget <= 0:
            which = "this test's" if test_left <= submission_left else "the submission's"
            raise CallTimedOut(f"{record.text} did not run: {which} time limit was used up", unmade=True)
        # What a worker that holds a call the student must not see says is not kept for later tests: it
        # could say it to tell them something (the plugin runs such a test again in a fresh one).
        trusted = not self.tainted
        self.test_tainted = self.test_tainted or not trusted
        # A call with a folder is never sent ahead: its files are written as it is made.
        # Nor one whose memory is measured: it runs in a process of its own (Worker.measured_request). Nor a
        # streamed one: its answer is more than the value a key stands for.
        key = (
            call_key(module, function, args, kwargs)
            if self.ahead.active and folder is None and not memory_growth and stream is None
            else None
        )
        payload = _payload(args, kwargs)
        grown: int | None = None
        asked = time.monotonic()
        try:
            reply = self.ahead.answer(key)
            if reply is None:
                request: dict[str, Any] = {"op": protocol.CALL, "module": module, "function": function}
                request["payload"] = payload
                if folder is not None:
                    request["folder"] = folder.request()
                if stream is not None:
                    request["stream"] = stream.request()
                self.ahead.record(module, function, key, request)
                asked = time.monotonic()  # a stream given up is the grader's loss, not the student's time
                if memory_growth:
                    reply, grown = self.worker.measured_request(request, budget)
                else:
                    reply = self.worker.request(request, budget)
        except WorkerTimedOut:
            if not trusted:  # cut short, not timed out: its test runs again where it has the whole limit
                raise CallTimedOut(f"{record.text} ran past {budget:.3g} s in a tainted worker") from None
            self.timed_out[(module, function)] = f"{record.text} took over {budget:.3g} s"
            raise CallTimedOut(f"{record.text} timed out after {budget:.3g} s") from None
        except WorkerCouldNotStart as failure:
            raise GraderFault(str(failure)) from None
        except PolicyRefused as refusal:
            self.calls.pop()  # never made: the report shows no call of code that was never run
            raise Refused(str(refusal), summary=refusal.summary) from None
        except WorkerNotLoaded as failure:
            self.test_tainted = self.test_tainted or not failure.trusted  # decided again where it is not
            raise CannotLoad(str(failure), summary=failure.summary) from None
        except (AnswerTooLarge, OutOfStep) as unread:  # the grader stopped the worker, its answer unread
            raise WorkerCrashed(f"{record.text} was stopped: {unread}") from None
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
                args_after, kwargs_after = _arguments_after(message)
                files = codec.from_plain(message["files"]) if "files" in message else None
            except codec.CodecError as error:
                raise StudentRaised(f"{record.text} sent back something unreadable: {error}") from None
            same = message.get("after_digest") == hashlib.sha256(payload).hexdigest()
            read, ended = _streamed(message) if stream is not None else (None, False)
            record = CallRecord(
                module,
                function,
                args,
                kwargs,
                returned,
                args_after,
                kwargs_after,
                output,
                True,
                files,
                grown,
                same,
                read,
                ended,
            )
            self.calls[-1] = record
            wrong = type_problem(module, function, returned)
            if wrong is not None:
                raise WrongType(record, *wrong)
            return record
        self.calls[-1] = CallRecord(module, function, args, kwargs, output=output)
        if reply.kind == protocol.MISSING_MODULE and trusted:
            self.missing[module] = str(message.get("message", ""))
        raise _failure(reply.kind, message, record)


def _streamed(message: dict[str, Any]) -> tuple[tuple[int, ...], bool]:
    """What the worker told of a streamed call (``streams.taken``): the pieces read at each item, and whether
    the answer ended. Its own bookkeeping, not the student's: anything else is the worker's fault."""
    told = message.get("stream")
    if not isinstance(told, dict) or not all(type(count) is int for count in told.get("read", [None])):
        raise WorkerCrashed("the worker sent a streamed answer without its counts")
    return tuple(told["read"]), told.get("ended") is True


def _arguments_after(message: dict[str, Any]) -> tuple[tuple[Any, ...] | None, dict[str, Any] | None]:
    """The arguments after the call as the worker reported them, or None for each not reported as a list and a
    dict (what the student's process sends is its own to write: ``CallRecord.mutated`` takes None for a change)."""
    args = codec.from_plain(message["args_after"]) if "args_after" in message else None
    kwargs = codec.from_plain(message["kwargs_after"]) if "kwargs_after" in message else None
    return (tuple(args) if type(args) is list else None), (kwargs if type(kwargs) is dict else None)


def _payload(args: tuple[Any, ...], kwargs: dict[str, Any]) -> bytes:
    """A call's arguments written as plain data (codec.call_payload): what the worker is sent, and what the
    arguments it reports after the call are compared with."""
    try:
        return codec.call_payload(args, kwargs)
    except codec.CodecError as error:
        raise RuntimeError(f"the test passed a value that is not plain data: {error}") from None


def _failure(kind: str, message: dict[str, Any], record: CallRecord) -> BaseException:
    text = cut(str(message.get("message", "")), MESSAGE_PER_TEST)  # the student's words: see student_output
    where = cut(str(message.get("where", "")), 200)
    error_type = cut(str(message.get("type", "")), 100)  # a class the student names: as long as they like
    at = f" ({where})" if where else ""
    if kind == protocol.NOT_STARTED:
        return NotStarted(f"{record.function} still raises NotImplementedError: fill in its TODO")
    if kind == protocol.MISSING_MODULE:
        return NotStarted(text)
    if kind == protocol.MISSING_FUNCTION:
        return FunctionMissing(text, suggested=str(message.get("suggested", "")))
    if kind == protocol.CELL_FAILED:
        at = "" if where and where in text else at
        summary = f"a cell of {record.module}'s notebook did not run"  # the cell's words are the student's
        return CannotLoad(f"{text}{at}", summary=summary)
    if kind == protocol.IMPORT_FAILED:
        at = "" if where and where in text else at  # a SyntaxError's own text already names the line
        summary = f"{record.module}.py could not be imported"  # its line and kind are the student's to shape
        return CannotLoad(f"{record.module}.py could not be imported{at}: {error_type}: {text}", summary=summary)
    if kind == protocol.RAISED:
        return StudentRaised(
            f"{record.text} raised {error_type}: {text}{at}",
            error_type=error_type,
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

    def memory_growth(self, *args: Any, **kwargs: Any) -> CallRecord:
        """Call in a process forked for this call alone and keep the whole record, with how far that
        process's memory grew past what it held at birth (``grown_bytes``, the kernel's figure)."""
        return self._session.call(self._module, self._function, args, kwargs, memory_growth=True)

    def streamed(self, stream: Stream) -> Callable[..., CallRecord]:
        """The call, its iterable argument fed and its iterator answer read as ``stream`` says, with the whole
        record: ``submission.real_tokenizer.chunk_text.streamed(Stream(endless=True, take=3))(pieces, 8)``."""
        return lambda *args, **kwargs: self._session.call(self._module, self._function, args, kwargs, stream=stream)

    def in_folder(self, folder: CallFolder) -> Callable[..., CallRecord]:
        """The call, made with ``folder`` ready in the worker (its files written; sent back after when asked):
        ``submission.real_tokenizer.load.in_folder(CallFolder("gpt2", files))("gpt2")``."""
        return lambda *args, **kwargs: self._session.call(self._module, self._function, args, kwargs, folder)


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
