"""The pytest plugin that turns a graded suite's run into one outcome per test.

Graded tests live in ``<suite>/<module>/test_<function>.py``: the folder
names the part's module and the file the function, so the test declares only
its points (``@pytest.mark.points(2)``), its doc line (the docstring) and its
hint (``rubric.hint`` beside the assertion). A stretch exercise's file marks
its tests ``pytest.mark.bonus``: extra credit, as Gradescope counts it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import sys
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from autograder.cage.client import WorkerState
from autograder.parts import part_of
from autograder.testing import failure_notes, own_words, replay, rubric
from autograder.testing.outcomes import Outcome, TestOutcome, Visibility
from autograder.testing.own_words import Wording
from autograder.testing.proxy import (
    CallRecord,
    CallTimedOut,
    CannotLoad,
    FunctionMissing,
    GradingSession,
    NotStarted,
    Said,
    StudentRaised,
    StudentStopped,
    WrongType,
    failure_outcome,
    short_repr,
)
from autograder.testing.raised_why import why_raised
from autograder.testing.replay import Recorded
from autograder.testing.rules import answer_rule, raised_rule
from autograder.testing.student_output import (
    PRINTED_FOR_INSTRUCTOR,
    PRINTED_PER_HAND_IN,
    PRINTED_PER_TEST,
    cut,
)

DEFAULT_VISIBILITY = Visibility.VISIBLE


def _run_again_worthy(error: BaseException) -> bool:
    """Whether a failure in a tainted process must be decided again in a fresh one: any failure of the
    student's code (a wrong answer, an error, and a stop too: which stop, and whether, such a process could
    choose to tell something). Not a skip, nor a stop the grader decided without a call (an earlier timeout
    of the function, a time limit used up, a module not handed in)."""
    return not (_skipped(error) or (isinstance(error, StudentStopped) and error.unmade))


class GradingPlugin:
    def __init__(
        self,
        session: GradingSession,
        *,
        examples: tuple[int, int] | None = None,
        isolate_failures: bool = False,
        recorded: Recorded | None = None,
    ) -> None:
        """``examples``: the hand-in's example set and its hypothesis seed (example_sets); None keeps each
        property's fixed examples (the public suite). ``isolate_failures``: a failing test runs again apart
        (pytest_runtest_call), for a feedback that must show no other test's calls (the hidden suite's).
        ``recorded``: the grader's examples drawn for earlier hand-ins, replayed (replay); none by default."""
        self.session = session
        self.examples = examples
        self.isolate_failures = isolate_failures
        self.recorded = recorded if recorded is not None else Recorded()
        self.notes = failure_notes.Notes()  # what the running test says of its failure (rubric.hint)
        self.outcomes: list[TestOutcome] = []
        self._printed_room = PRINTED_PER_HAND_IN  # what the hand-in's failing calls may still show of their output
        self._compared: tuple[Any, Any] | None = None
        self._deferred: list[_Again] = []  # failed in a tainted worker: decided again (decide_again)
        self._again: _Again | None = None  # the one being decided again
        self._learned: Said = ({}, {})  # what the tests decided again so far found out
        self._decided_told: Said = ({}, {})  # what the last test decided again knew as it ended
        self._to_word: list[Wording] = []  # failures whose words are made again alone (own_words)
        self._wording: Wording | None = None  # the one being made again
        self._shown_call: CallRecord | None = None  # the call whose output the outcome made last shows
        self._example_began = 0  # how many calls the running test had made as its last example began

    # -- hooks: registered for one hand-in's run (the submission fixture and collection: collected._Host) --
    def pytest_assertrepr_compare(self, op: str, left: Any, right: Any) -> None:
        # Pytest asks this hook to explain a failed comparison: remember the
        # two sides so the report can show "expected" and "got".
        if op == "==":
            self._compared = (left, right)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Generator[None, None, None]:
        """Run the test. With ``isolate_failures``, the words a failure shows (the answer, what the call
        printed, what it raised, the example it shows) come from a worker that has served no passing test,
        and so holds no call the student must not see (worker.forks): a test that fails in a worker that
        has is decided again in a fresh one (``decide_again``), whole, from its seed, and that run decides
        it; nothing of the first run's is kept, not even the example it failed on, which the code that
        failed it chose. A call cut short there (TAINTED_CALL_SHARE) is decided at once, so that a function
        that hangs is found out before its later tests. A property run where its failure would be decided
        again does not shrink that failure (the run that decides it does)."""
        if self._again is not None and self._again.item is item:
            return (yield from self._decide(self._again))
        if self._wording is not None and self._wording.item is item:
            with self.session.told_as_then(self._wording.said):
                self._begin(item)
                return (yield)  # its example alone (pytest_pyfunc_call): its words are compared (_made_alone)
        self._begin(item)
        said = self.session.said_so_far()
        decided_again = self.isolate_failures and self.session.tainted
        try:
            yield from self._run(item, shrink=not decided_again)
        except BaseException as error:
            if not self.isolate_failures or not self.session.test_tainted or not _run_again_worthy(error):
                raise
            first = error
        else:
            if self.isolate_failures:
                self.session.passed_test()
            return None
        self.session.forget_since(said)  # what its first run found out is found out again, or not
        if not isinstance(first, CallTimedOut):
            self._deferred.append(_Again(item, said, len(self.outcomes)))
            self.session.prepare_isolation()  # the worker that decides it boots while the other tests run
            raise first  # its outcome, made now, is replaced then
        self.session.isolate()
        self._begin(item)
        with self._seeded(item):
            item.runtest()
        self.session.passed_test()
        return None

    def decide_again(self) -> Iterator[pytest.Item]:
        """The tests that failed in a tainted worker, in their order, each to be run again (its test protocol
        whole) in a worker that has served no passing test: one worker for them all while none passes (a
        failing test shows its own calls anyway), so that a hand-in with bugs starts one more worker, not
        one per failure. Then the failures' words, made again alone (``make_alone``)."""
        deferred, self._deferred = self._deferred, []
        for again in deferred:
            if self.session.tainted:
                self.session.isolate()
                self.session.prepare_isolation()  # the worker their words are made again in (make_alone)
            self._again = again
            try:
                yield again.item
            finally:
                self._again = None
        yield from self.make_alone()

    def make_alone(self) -> Iterator[pytest.Item]:
        """The failures whose words student code made, each to be run again once (its test protocol whole, its
        failing example alone) in one fresh worker given nothing else (own_words); those likely to end it last.
        Where it ended, the failures after it are not run again: their words are withheld."""
        pending, self._to_word = self._to_word, []
        if not pending:
            return
        pending.sort(key=lambda wording: wording.ends_workers)
        self.session.isolate()
        made = False
        for wording in pending:
            # Withheld until the run alone says otherwise (_made_alone): a run that reports nothing shows nothing.
            unmade = own_words.withheld(wording.words, None)
            self.outcomes[wording.index] = dataclasses.replace(self.outcomes[wording.index], withheld=unmade)
            if made and self.session.worker.state is WorkerState.STOPPED:
                continue  # the worker ended (a crash, a timeout): another start for words is not worth it
            self._wording = wording
            try:
                yield wording.item
            finally:
                self._wording = None
            made = True

    def _decide(self, again: _Again) -> Generator[None, None, None]:
        """Decide a deferred test in a worker that has served no passing test, whole, from its seed. It is told
        what was known when it first ran and what the tests decided before it found out (they ran before it)."""
        told = _merged(again.said, self._learned)
        with self.session.told_as_then(told):
            self._begin(again.item)
            try:
                with self._seeded(again.item):
                    yield
            finally:
                self._learned = _merged(self._learned, self.session.said_so_far())
                self._decided_told = self.session.said_so_far()  # what its words are told (make_alone)
        self.session.passed_test()

    def _decided_later(self, item: pytest.Item) -> bool:
        """Whether this run of ``item`` is to be decided again (its outcome stands for nothing shown)."""
        last = self._deferred[-1] if self._deferred else None
        return last is not None and last.item is item and last.index == len(self.outcomes)

    def _begin(self, item: pytest.Item) -> None:
        allowed = item.get_closest_marker("call_seconds")
        self.session.begin_test(call_seconds=float(allowed.args[0]) if allowed else None)
        self._example_began = 0
        self.notes.hint = ""
        self.notes.fix = None
        self._compared = None

    @contextlib.contextmanager
    def _seeded(self, item: pytest.Item, *, shrink: bool = True) -> Iterator[None]:
        """While this lasts, a property of the hidden suite draws from the hand-in's example set (example_sets),
        and without ``shrink`` stops at the first example it fails on."""
        test = getattr(item, "obj", None)
        if test is None or not replay.replayable(test):
            yield
            return
        chosen = test._hypothesis_internal_use_settings
        if not shrink:
            test._hypothesis_internal_use_settings = _unshrunk(test)
        if self.examples is not None:
            test._hypothesis_internal_use_seed = self.examples[1]
        test.hypothesis.inner_test.began = self._example_begins  # which calls the failing example made (own_words)
        try:
            yield
        finally:
            test._hypothesis_internal_use_seed = None
            test._hypothesis_internal_use_settings = chosen
            test.hypothesis.inner_test.began = None

    def _example_begins(self) -> None:
        self._example_began = len(self.session.calls)

    def _run(self, item: pytest.Item, *, shrink: bool = True) -> Generator[None, None, None]:
        if not replay.replayable(getattr(item, "obj", None)):
            return (yield)
        key, test = self._replay_key(item), getattr(item, "obj", None)
        lasting = self.examples is not None  # an example set's draw, the same in every process: kept (example_store)
        self.recorded.begin(key, test, lasting=lasting)
        try:
            with self._seeded(item, shrink=shrink):
                result = yield
        except BaseException:
            self.recorded.end(key, test, passed=False, lasting=lasting)
            raise
        self.recorded.end(key, test, passed=True, lasting=lasting)
        return result

    def _replay_key(self, item: pytest.Item) -> str:
        """A property's replay key: its test, and the example set it draws from."""
        return _replay_key(item) + (f"@{self.examples[0]}" if self.examples is not None else "")

    @pytest.hookimpl(tryfirst=True)
    def pytest_pyfunc_call(self, pyfuncitem: pytest.Function) -> bool | None:
        """A property that passed before for this grader: try the examples it was given then (see replay).

        A test of a part module the hand-in does not have is not run at all: the worker's answer to the
        first call into it stands for every later test (hypothesis would start its engine only to hear it).
        """
        wording = self._wording if self._wording is not None and self._wording.item is pyfuncitem else None
        if wording is not None and wording.example is not None:
            fixtures = {name: pyfuncitem.funcargs[name] for name in inspect.signature(pyfuncitem.obj).parameters}
            replay.run_example(pyfuncitem.obj, fixtures, wording.example)
            return True
        module, _ = test_location(Path(str(pyfuncitem.path)))
        if module in self.session.missing:
            missing = NotStarted(self.session.missing[module])
            missing.unmade = True  # the grader's word, from a worker it trusted
            raise missing
        test = pyfuncitem.obj
        if not replay.replayable(test):
            return None
        fixtures = {name: pyfuncitem.funcargs[name] for name in inspect.signature(test).parameters}
        key = self._replay_key(pyfuncitem)
        if self.session.replaying(key, lambda each: self.recorded.replay(key, test, fixtures, StudentStopped, each)):
            return True
        return None  # run under hypothesis, as without replay

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> pytest.TestReport:
        """pytest's report, except for a test that failed: its outcome is built here from the exception
        itself, so pytest need not format the traceback (a third of a failing test's cost, read by no one)."""
        if call.when == "call" and call.excinfo is not None and not _reported_by_pytest(call.excinfo.value):
            report = pytest.TestReport(
                item.nodeid,
                item.location,
                dict.fromkeys(item.keywords, 1),
                "failed",
                f"{call.excinfo.typename}: {str(call.excinfo.value)[:2000]}",
                "call",
                duration=call.duration,
                start=call.start,
                stop=call.stop,
                user_properties=item.user_properties,
            )
        else:
            report = pytest.TestReport.from_item_and_call(item, call)
        if report.when == "call" or (report.when == "setup" and report.failed):
            wording = self._wording if self._wording is not None and self._wording.item is item else None
            if wording is not None:
                self._made_alone(wording, self._outcome(item, call, report, alone=True))
                return report
            again = self._again if self._again is not None and self._again.item is item else None
            later = self._decided_later(item)
            made = self._outcome(item, call, report)
            index = again.index if again is not None else len(self.outcomes)
            if again is not None:
                self.outcomes[again.index] = made
            else:
                self.outcomes.append(made)
            if self.isolate_failures and made.outcome is not Outcome.PASSED and not later:
                self._to_make_alone(item, made, index, self._decided_told if again is not None else None)
        return report

    def _to_make_alone(self, item: pytest.Item, decided: TestOutcome, index: int, said: Said | None) -> None:
        """A failure of the hidden suite just decided: its words, where student code made them, are to be made
        again alone (make_alone); a measured test's, or a property's with no example to make, are withheld.
        ``said``: what the session knew as it was decided (None: what it knows now)."""
        output = self._shown_call.output if self._shown_call is not None else ""
        in_example = len(self.session.calls) - self._example_began  # the failing example's calls
        if decided.outcome is Outcome.TIMED_OUT and in_example > 1:
            # Not made again (it would hang again): its call's arguments may hold an earlier call's answer.
            self.outcomes[index] = dataclasses.replace(decided, withheld=own_words.answer_made_call(decided))
            return
        if not own_words.to_make_again(decided, output, calls=in_example):
            return
        test = getattr(item, "obj", None)
        example = replay.last_example(test) if replay.replayable(test) else None
        if item.get_closest_marker("call_seconds") is not None or (replay.replayable(test) and example is None):
            measured = own_words.measured_withheld(decided, output)
            self.outcomes[index] = dataclasses.replace(decided, withheld=measured)
            return
        words = own_words.words_of(decided, output)
        told = said if said is not None else self.session.said_so_far()
        crashed = decided.outcome is Outcome.CRASHED
        self._to_word.append(Wording(item, index, told, example, words, crashed))
        self.session.prepare_isolation()  # the worker they are made again in boots while the other tests run

    def _made_alone(self, wording: Wording, alone: TestOutcome) -> None:
        """The decided failure at ``wording.index`` shows only the words its example made alone made the same."""
        output = self._shown_call.output if self._shown_call is not None else ""
        made = own_words.words_of(alone, output) if self._shown_call is not None else None
        decided = self.outcomes[wording.index]
        self.outcomes[wording.index] = dataclasses.replace(decided, withheld=own_words.withheld(wording.words, made))

    # -- building outcomes -------------------------------------------------
    def _outcome(
        self, item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport, *, alone: bool = False
    ) -> TestOutcome:
        """The outcome of ``item``'s run; ``alone``, of a failure's example made again alone (make_alone), which
        is compared, never shown, and so takes none of the hand-in's room for printed output."""
        module, function = test_location(Path(str(item.path)))
        marker = item.get_closest_marker("points")
        visibility = item.get_closest_marker("visibility")
        test_function = getattr(item, "function", None)
        doc = inspect.getdoc(test_function) if test_function is not None else None
        base: dict[str, Any] = {
            "name": item.name,
            "doc": (doc or item.name).splitlines()[0],
            "module": module,
            "function": function,
            "points": float(marker.args[0]) if marker else 0.0,
            "visibility": _visibility(item, visibility),
            "bonus": item.get_closest_marker("bonus") is not None,
        }
        last = self.session.last_call
        if call.excinfo is None or isinstance(call.excinfo.value, AssertionError):
            # The test judged answers rather than a call failing: show the call of the function the test is
            # for, not whichever helper the judging called last (a training replayed with merge_pair).
            last = self.session.last_call_of(module, function) or last
        everything = "".join(record.output for record in self.session.calls)[-PRINTED_FOR_INSTRUCTOR:]
        context: dict[str, Any] = {"call": last.text if last else "", "printed": "", "printed_in_test": everything}
        self._shown_call = last
        if last is not None and not report.passed and not self._decided_later(item) and not alone:
            # Only what the failing call printed, within the test's and the hand-in's room (student_output).
            context["printed"] = cut(last.output, min(PRINTED_PER_TEST, self._printed_room))
            self._printed_room -= min(len(last.output), PRINTED_PER_TEST)
        if report.passed:
            return TestOutcome(outcome=Outcome.PASSED, **base, **context)
        if report.when == "setup" or call.excinfo is None:
            detail = report.longreprtext[-2000:]
            return TestOutcome(outcome=Outcome.GRADER_ERROR, detail=detail, **base, **context)
        error = call.excinfo.value
        text = str(error)
        if isinstance(error, FunctionMissing) and base["bonus"]:
            detail = f"{function} is a bonus exercise that is not in your file: nothing to grade, nothing lost"
            return TestOutcome(outcome=Outcome.NOT_STARTED, detail=detail, **base, **context)
        if isinstance(error, FunctionMissing) and error.suggested in ("", *part_functions(module)):
            # Not written yet (a hand-in of the parts done so far): nothing to grade, as a stub. A name close
            # to it is a typo instead, an error whose message suggests the name.
            return TestOutcome(outcome=Outcome.NOT_STARTED, detail=text, **base, **context)
        stopped = failure_outcome(error)
        if stopped is not None:
            load_failed = isinstance(error, CannotLoad) and not isinstance(error, FunctionMissing)
            summary = error.summary if isinstance(error, CannotLoad) else ""
            said = named = ""
            if isinstance(error, StudentRaised):
                said = why_raised(function, error.error_type)
                named = raised_rule(module, function, error.error_type) if said else ""
            return TestOutcome(
                outcome=stopped,
                detail=text,
                load_failed=load_failed,
                summary=summary,
                hint=said,
                hint_id=named,
                **base,
                **context,
            )
        if _flaky(error):
            # Hypothesis asked the same input twice and the student's code answered two ways: the student's
            # failure (state kept between calls, randomness), not a flaw of the grader's.
            inner = getattr(error, "exceptions", ())  # FlakyFailure is an exception group: what failed first
            first = inner[0] if inner else error
            got, expected = (short_repr(side) for side in self._compared) if self._compared else ("", "")
            return TestOutcome(
                outcome=Outcome.FAILED,
                got=got,
                expected=expected,
                detail=f"the first time, {type(first).__name__}: {str(first).splitlines()[0][:500]}; "
                "the second time, no failure",
                hint=f"{function} gave two different answers to one input: it failed on this call once and passed "
                "on it the next time; make its answer depend on its arguments only (no state kept between "
                "calls, no randomness)",
                **base,
                **context,
            )
        if isinstance(error, WrongType):
            example = falsifying_example(error) if getattr(test_function, "is_hypothesis_test", False) else ""
            context["call"] = error.record.text
            got, contract = short_repr(error.record.returned), f"a value of type {error.contract}"
            return TestOutcome(
                outcome=Outcome.FAILED,
                got=got,
                expected=contract,
                hint=error.hint,  # the type asked and the type returned
                hint_id=answer_rule(error.record.module, error.record.function),
                example=example,
                **base,
                **context,
            )
        if isinstance(error, AssertionError):
            shown: dict[str, Any]
            if self._compared is not None and not _a_verdict(self._compared, last):
                got, expected = self._compared
                shown = {"got": short_repr(got), "expected": short_repr(expected)}
                where = rubric.first_difference(expected, got) if shown["got"] == shown["expected"] else ""
                if where:
                    # Cut to their first items, two long answers read alike: say where they part.
                    shown["got"] += f" (it differs {where})"
            else:
                # A call that raised has no answer to show: the hint says what it raised (rubric.raised).
                shown = {"got": short_repr(last.returned) if last and last.answered else "", "expected": ""}
            example = falsifying_example(error) if getattr(test_function, "is_hypothesis_test", False) else ""
            said = hint_id(item, module, function, self.notes.fix) if self.notes.hint else ""
            return TestOutcome(
                outcome=Outcome.FAILED,
                hint=self.notes.hint,
                hint_id=said,
                example=example,
                **shown,
                **base,
                **context,
            )
        detail = f"{type(error).__name__}: {text}"[:2000]
        if last is not None and _raised_in_test_file(call.excinfo, item):
            # The test itself choked on what the student's function returned
            # (unpacking None, joining ints): that answer is wrong, not our code.
            got = short_repr(last.returned)
            unusable = f"the value returned cannot be used as the contract says ({detail})"
            return TestOutcome(outcome=Outcome.FAILED, got=got, hint=unusable, **base, **context)
        return TestOutcome(outcome=Outcome.GRADER_ERROR, detail=detail, **base, **context)


def hint_id(item: pytest.Item, module: str, function: str, fix: str | None) -> str:
    """The id of the rule whose fix a failed test's hint names, as "module.function.rule": the one ``fix``
    names (rubric.hint), else the test's one rule; "" where the hint names none or the test checks several."""
    if fix is None:
        marked = [rule for mark in item.iter_markers("rules") for rule in mark.args]
        fix = marked[0] if len(marked) == 1 else ""
    if not fix:
        return ""
    return f"{module}.{fix}" if "." in fix else f"{module}.{function}.{fix}"


@dataclass(frozen=True)
class _Again:
    """A test that failed in a tainted worker, to be decided again: what the session knew when it ran, and
    where its outcome is in ``GradingPlugin.outcomes``."""

    item: pytest.Item
    said: Said
    index: int


def _a_verdict(compared: tuple[Any, Any], last: CallRecord | None) -> bool:
    """Whether a failed ``==`` compared the test's own verdict with "" (``assert problem == ""``) rather than an
    answer with the right one: then the student's answer is what to show, and the hint says the problem."""
    said, empty = compared
    return empty == "" and isinstance(said, str) and said != "" and (last is None or said != last.returned)


def _merged(first: Said, second: Said) -> Said:
    return {**first[0], **second[0]}, {**first[1], **second[1]}


def _visibility(item: pytest.Item, marker: pytest.Mark | None) -> Visibility:
    """A graded test's ``@pytest.mark.visibility``: one of Gradescope's, else the default."""
    if marker is None:
        return DEFAULT_VISIBILITY
    try:
        return Visibility(marker.args[0])
    except ValueError:
        choices = ", ".join(repr(choice.value) for choice in Visibility)
        raise ValueError(f"{item.nodeid}: @pytest.mark.visibility({marker.args[0]!r}): use one of {choices}") from None


def _unshrunk(test: Any) -> Any:
    """The property's settings without the shrink phase, made once a property."""
    made = getattr(test, "_bpe_kit_unshrunk", None)
    if made is None:
        from hypothesis import Phase, settings

        chosen = test._hypothesis_internal_use_settings
        made = settings(chosen, phases=[phase for phase in chosen.phases if phase is not Phase.shrink])
        test._bpe_kit_unshrunk = made
    return made


def _skipped(error: BaseException) -> bool:
    """pytest.skip, alone or in a group of nothing else."""
    if isinstance(error, BaseExceptionGroup):
        return all(_skipped(inner) for inner in error.exceptions)
    return isinstance(error, pytest.skip.Exception)


def _reported_by_pytest(error: BaseException) -> bool:
    """A skip, or a group (hypothesis's flaky failure, for one): the failures whose report pytest makes itself."""
    return isinstance(error, pytest.skip.Exception | BaseExceptionGroup)


def _flaky(error: BaseException) -> bool:
    """Hypothesis's word for a test that failed and then passed on the same input.

    Looked up only where hypothesis is loaded: the public examples never use it, and a student's
    ``grade`` does not pay for importing it.
    """
    if "hypothesis" not in sys.modules:
        return False
    from hypothesis.errors import FlakyFailure

    return isinstance(error, FlakyFailure)


def falsifying_example(error: BaseException) -> str:
    """The inputs hypothesis drew for a failing property, as ``tokens=['a'], pair=('a', 'b')``.

    Hypothesis adds them to the exception as a note ("Failing test case: test(...)", "Falsifying example:"
    before 6.140), one argument a line; the ``submission`` fixture is not an input the student chose.
    """
    for note in getattr(error, "__notes__", []):
        if note.startswith(("Failing test case:", "Falsifying example:")):
            lines = [line.strip().rstrip(",") for line in note.splitlines()[1:-1]]
            drawn = ", ".join(line for line in lines if line and not line.startswith("submission="))
            return drawn if len(drawn) <= 200 else drawn[:199] + "…"
    return ""


def part_functions(module: str) -> tuple[str, ...]:
    """The functions a part's module holds (none for a module that is no part)."""
    try:
        return part_of(module).functions
    except KeyError:
        return ()


def _replay_key(item: pytest.Item) -> str:
    return f"{item.path}::{item.name}"


def _raised_in_test_file(excinfo: pytest.ExceptionInfo[BaseException], item: pytest.Item) -> bool:
    """Whether the error came from a line of the test's own file, not from the grader or the reference."""
    entries = list(excinfo.traceback)
    return bool(entries) and Path(str(entries[-1].path)) == Path(str(item.path))


def test_location(path: Path) -> tuple[str, str]:
    """The module and function a graded test file belongs to, from its place in the suite."""
    function = path.stem.removeprefix("test_")
    return path.parent.name, function
