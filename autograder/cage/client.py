"""The grader's end of the pipe: start, call, time out, restart, stop a worker."""

from __future__ import annotations

import enum
import math
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from autograder.cage.cage import Cage
from autograder.cage.cage_limits import CageLimits
from autograder.cage.inside import codec, protocol
from autograder.cage.isolation import portable_path
from autograder.cage.pipe_reader import ThreadedFrameReader


def parent_death_signal() -> Callable[[], None] | None:
    """A preexec function asking Linux to kill the worker when its grader dies.

    A grader killed with SIGKILL (a batch stopped with kill -9) cannot clean
    up; without this its worker, perhaps stuck in a student's loop, would run
    on until its CPU limit. The libc function is looked up here, before the
    fork: the child only calls it.
    """
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    pr_set_pdeathsig = 1

    def set_signal() -> None:
        prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)

    return set_signal


class WorkerGone(Exception):
    """The worker ended (or broke the protocol) while the grader waited for it."""


class WorkerTimedOut(Exception):
    """The worker did not answer in time and was killed."""


class WorkerCouldNotStart(Exception):
    """The worker ended before any student code ran: the cage or the interpreter failed, not the student."""


class WorkerNotLoaded(WorkerGone):
    """The submission did not finish loading within its limit; it is not tried again."""

    def __init__(self, text: str, *, summary: str = "", trusted: bool = True) -> None:
        super().__init__(text)
        self.summary = summary or text  # in the kit's words alone: no exit code or signal the code chose
        self.trusted = trusted  # failed in a process forked in a worker that had served no passing test


class PolicyRefused(WorkerNotLoaded):
    """The part's code is outside the plain-Python policy, as the grader read it: no process imports it."""


class ChannelBroken(WorkerGone):
    """The worker sent bytes that are not a message: student code wrote into the grader's channel."""


class AnswerTooLarge(ChannelBroken):
    """The worker sent a message past the codec's budgets (``codec.BUDGETS``), or a header that says it
    would be: the worker is stopped and the message left unread. Its words say "answer too large" and the
    limit."""


class OutOfStep(ChannelBroken):
    """The worker sent a message that is not the one awaited: the answer to another call, or to a call
    never asked for (each call is asked with a tag of its own, unknown to the worker until it is asked,
    and its answer must bring it back)."""


# What a student reads when their code wrote into the descriptor the grader listens on.
CHANNEL_WRITTEN = (
    "your code wrote into the grader's channel (a file descriptor your code did not open), so "
    "no answer could be read: write with print() or to files you open yourself"
)

# A stopped worker's output is read until it has been quiet this long, and for this long at most: what a
# process it left behind writes after that is not waited for.
QUIET_SECONDS = 0.1
LINGER_SECONDS = 1.0


class StrayOutput:
    """What one start of the worker wrote to fds 1 and 2, outside the channel: cut at the marks the worker
    writes as each process it forked ends (``protocol.stray_mark``), so that each process's share is known;
    within ``room`` bytes in all."""

    def __init__(self, room: int) -> None:
        self.room = room
        self.kept = 0
        self.unmarked: list[bytes] = []  # since the last mark
        self.marked: dict[str, bytes] = {}  # a mark's word -> what came before it, since the mark before
        self.pending = b""  # what may be the start of a mark cut by a read
        self.changed = threading.Condition()

    def add(self, chunk: bytes) -> None:
        with self.changed:
            text = self.pending + chunk
            while True:
                found = MARK.search(text)
                if found is None:
                    break
                self._keep(text[: found.start()])
                self.marked[found.group(1).decode("ascii")] = b"".join(self.unmarked)
                self.unmarked = []
                text = text[found.end() :]
            start = text.rfind(b"\x1e", max(0, len(text) - MARK_BYTES))
            self.pending = text[start:] if start >= 0 else b""
            self._keep(text[:start] if start >= 0 else text)
            self.changed.notify_all()

    def _keep(self, text: bytes) -> None:
        room = self.room - self.kept
        if text and room > 0:
            self.unmarked.append(text[:room])
            self.kept += min(room, len(text))

    def take(self, word: str, timeout: float) -> bytes:
        """What the process that ended with ``word``'s mark wrote, once the mark is read (``timeout`` at most).
        Marks read before it are forgotten: the worker's own come one a process, so those were written by
        a process into what it wrote (``first_mark_is`` relies on there being none left)."""
        with self.changed:
            self.changed.wait_for(lambda: word in self.marked, timeout)
            if word not in self.marked:
                return b""
            for earlier in list(self.marked):
                if earlier == word:
                    break
                del self.marked[earlier]
            return self.marked.pop(word)

    def first_mark_is(self, word: str, timeout: float) -> bool:
        """Whether the first mark read since the last one taken is ``word``'s (``timeout`` at most), which is
        then taken. After a process whose output the worker passes on none of (a measured one), that first
        mark is the worker's own: a process cannot write to this output itself, nor know the word."""
        with self.changed:
            self.changed.wait_for(lambda: bool(self.marked), timeout)
            first = next(iter(self.marked), None)
            if first != word:
                return False
            del self.marked[word]
            return True

    def drop(self) -> None:
        """From now on keep nothing more of what this start writes, and forget what it wrote since its last
        mark (a tainted process's: see Worker.guarding)."""
        with self.changed:
            self.unmarked, self.pending, self.room = [], b"", 0

    def take_unmarked(self) -> bytes:
        with self.changed:
            text, self.unmarked = b"".join(self.unmarked) + self.pending, []
            self.pending = b""
            return text


def new_tag() -> str:
    """A call's tag: 64 random bits, which the worker learns only as the call is asked (``Worker._answer``)."""
    return os.urandom(8).hex()


MARK = re.compile(protocol.STRAY_MARK_PATTERN)
MARK_BYTES = len(protocol.stray_mark("0" * 32))


class WorkerState(enum.Enum):
    """Where a worker is in its life. ``Worker._move`` makes every change, along ``NEXT_STATES``."""

    STOPPED = "stopped"  # no interpreter: the next call starts one
    SPAWNED = "spawned"  # an interpreter setting itself up, then waiting for its config (a spare, until a hand-in)
    CONFIGURED = "configured"  # its config sent; its first message (protocol.STARTED) not read yet
    STARTED = "started"  # set up, and loading what its config gave it; the message that it is ready not read yet
    READY = "ready"  # waiting for calls, with no process forked for a part
    SERVING = "serving"  # a process it forked for one part (``Worker.live_module``) runs the calls into it


# Where each state may go next, besides STOPPED, which every state may go to (``Worker.stop``).
NEXT_STATES: dict[WorkerState, frozenset[WorkerState]] = {
    WorkerState.STOPPED: frozenset({WorkerState.SPAWNED}),
    WorkerState.SPAWNED: frozenset({WorkerState.CONFIGURED}),
    WorkerState.CONFIGURED: frozenset({WorkerState.STARTED}),
    WorkerState.STARTED: frozenset({WorkerState.READY}),
    WorkerState.READY: frozenset({WorkerState.SERVING}),
    WorkerState.SERVING: frozenset({WorkerState.READY}),
}


@dataclass(frozen=True)
class Reply:
    """One answer from the worker, decoded into plain values."""

    message: dict[str, Any]

    @property
    def ok(self) -> bool:
        return bool(self.message.get("ok"))

    @property
    def kind(self) -> str:
        return str(self.message.get("kind", ""))


class Worker:
    """One caged interpreter for one submission; restarted after a timeout or crash."""

    def __init__(
        self, cage: Cage, limits: CageLimits, script: dict[str, Any], *, progress: Callable[[str], None] | None = None
    ) -> None:
        self.cage = cage
        self.progress = progress  # told when loading takes long enough to wonder about (the student's loop)
        self.limits = limits
        self.script = script  # how to load the submission: kind, cells, script name
        self.state = WorkerState.STOPPED
        self.process: subprocess.Popen[bytes] | None = None  # there is one in every state but STOPPED
        # Each part's process started, not forked, and the pipes read by threads (cage/inside/spawns).
        self.portable = portable_path()
        self.replies: codec.FrameReader | None = None  # the worker's answers, read as they are awaited
        self.notices: list[str] = []
        # What each process started wrote to fd 1 and 2, outside the channel: one per start.
        self.stray_output: list[StrayOutput] = []
        self.starts = 0
        # The calls run in a process the worker forks for a part's tests (forks), SERVING that part's module.
        self.processes = 0
        self.live_module = ""
        # Where what student code makes may show a student no call of a test they passed (the hidden suite),
        # a worker one of whose processes has served a passing test is "tainted": what its processes write
        # past their calls is dropped, and a test that fails in it is run again in a fresh worker (the
        # plugin asks: ``holds_passed_calls``, ``isolate``). The worker, not the process: what one process
        # leaves in the machine's counters (the sandbox's next pid, its tmpfs's next inode) the next one can
        # read. So ``tainted`` is kept beside the state, not in it: it holds through READY and SERVING alike,
        # until the worker stops (``_move``). ``guarding`` is the runner's setting, whatever the state.
        self.guarding = False
        self.tainted = False
        self.kept_output: list[str] = []  # what untainted processes wrote past their calls, for stray_text
        self.loaded: set[str] = set()  # modules a process imported without failing: calls into them may stream
        self.served_measured = False  # the last call ran in a measured process, ended since (measured_request)
        # What the processes' imports said, before any call: notebook cells that raised, and what was printed.
        self.cell_reports: list[dict[str, Any]] = []
        self.printed_while_loading: list[str] = []
        # The hand-in's files read, by part module, as the worker's messages said (part_cache).
        self.read: dict[str, set[str]] = {}
        # Loads that failed for good (ran out of time, ended the worker), by module ("" for a notebook's cells):
        # every later call into it fails at once.
        self._load_failures: dict[str, WorkerNotLoaded] = {}
        # Part modules whose code the grader's policy refused (hand_in.policy_parts), with what to say: no
        # process is ever forked to import them. Set by whoever starts the worker (starting.start_worker).
        self.refused: dict[str, PolicyRefused] = {}
        # Answers still to come of the calls sent in one message (send_calls): a count within SERVING, kept
        # beside the state as ``tainted`` is, and set to 0 as the worker stops (``_move``).
        self.streaming = 0
        self._stream_tags: list[str] = []  # the tags those answers must bring back, in order
        self._draining: threading.Thread | None = None
        self._output_read = threading.Event()
        # The worker the next ``isolate`` starts, booted ahead in a cage of its own (``prepare_fresh``).
        self._twin: Worker | None = None

    # -- life cycle -------------------------------------------------------
    def _move(self, state: WorkerState) -> None:
        """Go to ``state``: every change of state is made here. A new interpreter, or none, has served no
        test and owes no answer."""
        if state is not WorkerState.STOPPED and state not in NEXT_STATES[self.state]:
            raise RuntimeError(f"a worker that is {self.state.value} cannot become {state.value}")
        if state in (WorkerState.STOPPED, WorkerState.SPAWNED):
            self.tainted = False
            self.streaming = 0
            self._stream_tags = []
        self.state = state

    def start(self) -> None:
        """Launch the interpreter and give it its config; the first call waits for it to be ready."""
        self.spawn()
        self.configure()

    def spawn(self) -> None:
        """Launch the interpreter, which sets itself up and then waits for its config (``configure``)."""
        kwargs: dict[str, Any] = {}
        if sys.platform == "win32":
            kwargs["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP
        else:
            kwargs["start_new_session"] = True
        kwargs.update(self.cage.spawn_options(parent_death_signal))
        if self.starts:
            self.cage.prepare_start()  # a start again: not what the worker before left
        self.process = subprocess.Popen(
            self.cage.command(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=self.cage.working_directory,
            env=self.cage.environment(),
            **kwargs,
        )
        self._move(WorkerState.SPAWNED)  # a new worker, in a new sandbox where there is one, which has seen no call
        try:
            self.cage.adopt(self.process.pid)
        except OSError as error:  # a control group that refuses it: no student code runs uncounted
            self.stop()
            raise WorkerCouldNotStart(f"the worker could not enter its control groups: {error}") from None
        self.cage.watch_disk()
        self.starts += 1
        assert self.process.stdout is not None  # a pipe: asked for above
        reader = ThreadedFrameReader if self.portable else codec.FrameReader
        self.replies = reader(self.process.stdout.fileno())
        kept = sum(each.kept for each in self.stray_output)  # the room is for all starts
        written = StrayOutput(max(self.limits.output_kb * 1024 - kept, 0))
        self.stray_output.append(written)
        self._output_read = threading.Event()  # set when the worker is stopped: its output reader may end
        self._draining = threading.Thread(
            target=self._drain_output, args=(self.process, written, self._output_read), daemon=True
        )
        self._draining.start()

    def configure(self) -> None:
        """Send the spawned worker its config: what to load and how, whom to become, its limits."""
        config = {**self.script, **self.cage.worker_config(), "limits": self.limits.as_dict()}
        if self.portable:
            config["portable"] = True
        self._move(WorkerState.CONFIGURED)
        try:
            self._send(config)
        except WorkerGone:
            # It ended before it could read its config (a sandbox that refused to start, on a busy machine
            # even before this line): waiting for its first message finds the end, and says the worker
            # could not start, with what it wrote, rather than blame the first call's student code.
            pass

    def _ensure_ready(self) -> None:
        """Start the worker if it is not running, and wait for it to load the submission.

        Loading has its own limit, apart from the calls', and is waited for
        before a call's clock starts.
        """
        if "" in self._load_failures:
            raise self._load_failures[""]
        if self.state is WorkerState.SPAWNED:
            raise RuntimeError("a spawned worker takes no call before its config: configure() it first")
        # A worker that ended is started again, unless it ended before saying it started: that end is
        # reported below (it could not start), not hidden by a second attempt.
        if self.state is WorkerState.STOPPED or (self.state is not WorkerState.CONFIGURED and self._ended()):
            self.stop()
            self.start()
        if self.state is WorkerState.CONFIGURED:
            self._wait_until_started()
        if self.state is WorkerState.STARTED:
            try:  # nothing of the student's runs before this message: what fails here is the grader's
                reply = self._receive(self.limits.load_seconds)
            except (WorkerGone, WorkerTimedOut) as failure:
                self.stop()
                raise WorkerCouldNotStart(f"the worker did not get ready: {failure}") from None
            self._move(WorkerState.READY)
            for notice in reply.get("notices", []):
                if notice not in self.notices:
                    self.notices.append(notice)

    def _wait_until_started(self) -> None:
        """Wait for the worker's first message, sent before it runs anything of the student's."""
        try:
            first = self._receive(self.limits.load_seconds)
            if not first.get(protocol.STARTED):  # the bootstrap says nothing else before it is set up
                raise WorkerGone(f"its first message was not {protocol.STARTED!r}")
        except (WorkerGone, WorkerTimedOut) as failure:
            self.stop()
            self._await_last_words()  # for the message below
            # Bubblewrap's or Python's words, not the student's output: out of what the student is shown, with
            # anything a process it left behind still writes there.
            written = self.stray_output.pop() if self.stray_output else None
            said = (written.take_unmarked() if written else b"").decode("utf-8", "replace").strip()
            why = str(failure) or f"no answer in {self.limits.load_seconds:g} s"
            raise WorkerCouldNotStart(
                f"the worker could not start ({why}): {said[-500:] or 'it said nothing'}"
            ) from None
        self._move(WorkerState.STARTED)

    def _ended(self) -> bool:
        """Whether the worker's interpreter is gone, seen or not."""
        return self.process is None or self.process.poll() is not None

    def stop(self) -> None:
        """Kill the worker and everything it started."""
        process, self.process = self.process, None
        self.replies = None
        if self.state is WorkerState.SERVING and self.guarding and self.tainted and self.stray_output:
            self.stray_output[-1].drop()  # a tainted process ended: what it wrote past its calls goes unread
        self._move(WorkerState.STOPPED)
        if process is None:
            return
        if process.poll() is None:
            try:
                if hasattr(os, "killpg"):
                    os.killpg(process.pid, signal.SIGKILL)
                else:
                    if sys.platform == "win32":  # no group there: its tree, with the part's process it started
                        subprocess.run(
                            ["taskkill", "/F", "/T", "/PID", str(process.pid)], capture_output=True, check=False
                        )
                    process.kill()
            except (ProcessLookupError, PermissionError):
                pass
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        self.cage.end_processes()  # what left the worker's group, where no namespace ends it
        self.cage.stop_watching_disk()
        self._output_read.set()  # its reader closes the output pipe (_drain_output)
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass

    # -- calls -------------------------------------------------------------
    def request(self, message: dict[str, Any], timeout: float) -> Reply:
        """Send one call and wait at most ``timeout`` seconds for its answer, in the process that serves its
        module's part (``_enter``: started, and its module imported, first)."""
        if self.streaming:
            raise RuntimeError("a request was sent while calls sent together are still being answered")
        self._enter(str(message.get("module", "")))
        tag = new_tag()
        self._send({**message, "tag": tag})
        try:
            return self._answer(timeout, tag)
        except WorkerTimedOut:
            self.stop()
            raise

    def _load(self, module: str, *, trusted: bool) -> None:
        """Wait for the new process to import ``module`` (or run the notebook's cells), under ``load_seconds``.
        ``trusted``: the process was forked in a worker that has served no passing test (``_enter``)."""
        loading = "running your notebook's cells" if self.script.get("kind") == "script" else f"importing {module}.py"
        try:
            self._take_import(module, self._receive_loading(loading), trusted=trusted)
        except WorkerTimedOut:
            self.stop()
            if self.script.get("kind") == "script":
                failure = (
                    f"your notebook's cells did not finish running in {self.limits.load_seconds:g} s: look for a "
                    "loop or a long computation at the top level of a cell"
                )
            else:
                failure = (
                    f"{module}.py did not finish importing in {self.limits.load_seconds:g} s: look for a loop or a "
                    "long computation at its top level"
                )
            raise self._fail_load(module, failure, trusted=trusted) from None
        except ChannelBroken:
            raise self._fail_load(module, f"while {loading}, {CHANNEL_WRITTEN}", trusted=trusted) from None
        except WorkerGone as gone:  # it would again at every start: the load fails once, for good
            ended = f"{loading} ended the worker"
            raise self._fail_load(module, f"{ended}: {gone}", trusted=trusted, summary=ended) from None

    def _fail_load(self, module: str, failure: str, *, trusted: bool, summary: str = "") -> WorkerNotLoaded:
        """A load that ran out of time, broke the channel or ended the worker fails every later call into it at
        once: for a notebook, every call. Not where the process was forked in a tainted worker: its code may
        have failed on purpose, by what it read of the tests before, so the next call loads it again (in a
        fresh worker: such a failure ends the one it happened in)."""
        failed = WorkerNotLoaded(failure, summary=summary, trusted=trusted)
        if trusted:
            self._load_failures["" if self.script.get("kind") == "script" else module] = failed
        return failed

    # -- the processes calls run in ---------------------------------------------
    @property
    def holds_passed_calls(self) -> bool:
        """Whether the next call runs in a tainted worker: one that has served a passing test and is not
        stopped (one stopped is started afresh for the next call; one that ended unseen counts as tainted)."""
        return self.tainted  # cleared as the worker stops (_move)

    def passed_test(self) -> None:
        """A test passed in the live process (or in the measured one just ended): from now on the worker holds
        calls the student must not see."""
        if self.state is WorkerState.SERVING or self.served_measured:
            self.tainted = True

    def isolate(self) -> None:
        """End the live process and the worker (what they wrote past their calls dropped where it is
        tainted): the next call starts a fresh worker, in a fresh sandbox, which has seen no call; the one
        ``prepare_fresh`` booted, where there is one."""
        self.end_process()
        self.stop()
        self._take_twin()

    def prepare_fresh(self) -> None:
        """Start booting now, in a cage of its own, the fresh worker the next ``isolate`` will need (a test
        failed in a tainted worker: it is decided again in a fresh one once the other tests have run), so
        that the grader does not wait for it then. Its interpreter runs the grader's start-up alone until
        the worker it stands in for has ended (student code runs in a process forked for a part: ``_enter``),
        and it shares no user, folder or control group with that worker. The sandbox only, where a start
        costs most; elsewhere the next start is made then, as is one that fails here."""
        if self._twin is not None or not self.cage.level.full:
            return
        cage = self.cage.twin()
        twin = Worker(cage, self.limits, self.script)
        try:
            twin.start()
        except Exception:
            twin.close()
            return
        except BaseException:
            twin.close()
            raise
        self._twin = twin

    def _take_twin(self) -> None:
        """Carry on in the twin ``prepare_fresh`` booted, in its cage, as a start of this worker: this
        worker's stopped interpreter's cage goes, and the room its output has is the room left."""
        twin, self._twin = self._twin, None
        if twin is None:
            return
        if twin._ended():
            twin.close()  # a twin that did not live: the next call starts a worker as it would have
            return
        ended, self.cage = self.cage, twin.cage
        ended.remove()
        self.process, self.replies = twin.process, twin.replies
        self._draining, self._output_read = twin._draining, twin._output_read
        written = twin.stray_output[-1]
        with written.changed:
            written.room = max(self.limits.output_kb * 1024 - sum(each.kept for each in self.stray_output), 0)
        self.stray_output.append(written)
        self.starts += 1
        self._move(WorkerState.SPAWNED)  # a new interpreter, which has served no test
        self._move(WorkerState.CONFIGURED)

    def close(self) -> None:
        """The end of a worker's life: stop it and everything it started, remove the cage it runs in now (one
        that was isolated may have moved to its twin's), and close the twin booted for it, if any."""
        self.stop()
        self.cage.remove()
        twin, self._twin = self._twin, None
        if twin is not None:
            twin.close()

    def measured_request(self, message: dict[str, Any], timeout: float) -> tuple[Reply, int | None]:
        """Send one call to a process forked for it alone, pristine (its module imported, no other call made),
        and wait at most ``timeout`` seconds for its answer; then end that process. With the answer, how far
        the process's memory grew past what it held at birth, in bytes: read from the kernel by the worker
        that forked it, which runs no student code (``forks.growth``); None where the platform gives none."""
        if self.streaming:
            raise RuntimeError("a request was sent while calls sent together are still being answered")
        self.end_process()  # the live process has made other calls: the measured one makes this one only
        self._enter(str(message.get("module", "")), measured=True)
        tag = new_tag()
        self._send({**message, "tag": tag})
        try:
            reply = self._answer(timeout, tag)
        except WorkerTimedOut:
            self.stop()
            raise
        # What a passing test leaves the worker holds as for any other process (passed_test), ended or not.
        self.served_measured = True
        ended = self.end_process()
        if not ended:  # the worker ended, or did not say it had ended the process: no figure
            return reply, None
        # The figure is the worker's, not a frame the process wrote into the channel in its name: the
        # worker marks the output that the process had no hand in with the word its end names.
        if not self.stray_output[-1].first_mark_is(str(ended.get(protocol.ENDED, "")), LINGER_SECONDS):
            self.stop()
            raise ChannelBroken(f"while your call's memory was measured, {CHANNEL_WRITTEN}")
        grown = ended.get(protocol.GROWN_BYTES)
        return reply, grown if type(grown) is int and grown >= 0 else None

    def _enter(self, module: str, *, measured: bool = False) -> None:
        """Make ready the process the next call into ``module`` runs in: the worker up, and a process that
        serves ``module``'s part, its module imported (another part's process ends first); ``measured``: a
        new process, whose memory its worker measures (``measured_request``)."""
        if module in self.refused:
            raise self.refused[module]
        for key in ("", module):
            if key in self._load_failures:
                raise self._load_failures[key]
        self._stop_if_stale()
        if self.state is WorkerState.SERVING and self.live_module != module:
            self.end_process()
        self._ensure_ready()
        if self.state is WorkerState.SERVING:
            return
        self.processes += 1
        # What a process forked in a tainted worker says as it imports, it may have read in the counters the
        # processes before it changed: none of it is kept, and a load it fails is decided again.
        trusted = not (self.guarding and self.tainted)
        # No call is sent before the process says its module is imported: code run at import sees none.
        fork: dict[str, Any] = {"op": protocol.FORK, "number": self.processes, "module": module}
        if measured:
            fork["measure"] = True
        self.served_measured = False
        self._send(fork)
        self._move(WorkerState.SERVING)
        self.live_module = module
        self._load(module, trusted=trusted)

    def end_process(self) -> dict[str, Any]:
        """End the live process: the worker kills what it started and puts back what it wrote, then says so;
        what it said (empty where no process was live or the worker ended). What the process wrote past its
        calls is kept for ``stray_text``, unless it is tainted (``guarding``)."""
        if self.state is not WorkerState.SERVING:
            return {}
        keep = not (self.guarding and self.tainted)
        self._stop_if_stale()
        if self.state is not WorkerState.SERVING:
            return {}
        try:
            self._send({"op": protocol.END})
            ended = self._receive(self.limits.load_seconds)
            if protocol.ENDED not in ended:
                raise OutOfStep("a message that is not the end of a process was read in its place")
        except (WorkerGone, WorkerTimedOut):
            self.stop()  # still SERVING: what it wrote is dropped, or kept, as the process was
            return {}
        self._move(WorkerState.READY)
        if ended.get("restart"):
            self.stop()  # what the process wrote could not all be put back: the next one starts anew
        if ended.get("stray"):  # what the process wrote past its calls, read up to its mark
            said = self._said(self.stray_output[-1].take(str(ended.get(protocol.ENDED, "")), LINGER_SECONDS))
            if said and keep:
                self.kept_output.append(said)
        return ended

    @staticmethod
    def _said(text: bytes) -> str:
        return text.decode("utf-8", "replace").strip()

    def _answer(self, timeout: float, tag: str) -> Reply:
        """The next answer, within ``timeout`` seconds: the one to the call asked with ``tag``. Any other (a
        stale answer, one forged for a call not yet asked) stops the worker, unread past it: the call fails
        with ``OutOfStep``, and the next starts a fresh worker."""
        message = self._receive(timeout)
        if message.get("tag") != tag:
            self.stop()
            raise OutOfStep(f"{CHANNEL_WRITTEN} (an answer that was not this call's was read in its place)")
        return Reply(message)

    def _stop_if_stale(self) -> None:
        """Stop a worker that has sent what no request asked for (bytes left in its channel by student code
        once every answer asked for was read): the next request goes to a fresh one, never to a channel
        whose next message may be an earlier call's."""
        if self.state not in (WorkerState.READY, WorkerState.SERVING) or self.streaming:
            return
        if self.replies is not None and self.replies.waiting():
            self.stop()

    def runs_at_once(self, modules: set[str]) -> bool:
        """Whether calls into ``modules`` (one part's) may be sent together: the worker is up, and a process
        imported them before without failing (a new process's import is waited for first, under its own
        limit, before the calls are sent: ``_enter``; a restart is waited for one call at a time)."""
        if self.state not in (WorkerState.READY, WorkerState.SERVING) or "" in self._load_failures:
            return False
        if self._ended() or len(modules) != 1:
            return False
        return modules <= self.loaded and not modules & (self._load_failures.keys() | self.refused.keys())

    def send_calls(self, module: str, bodies: list[bytes]) -> None:
        """Send calls (each a request as ``codec.request_body`` writes it) in one message.

        The worker runs them one after another until one fails, and writes their answers together
        (``bootstrap.run_calls``); read them with ``next_answer``, and the ones not wanted with
        ``drop_answers``, before any other request.
        """
        if self.streaming:
            raise RuntimeError("calls were sent together while earlier ones are still being answered")
        self._enter(module)
        tags = [new_tag() for _ in bodies]
        self._write(codec.dump_request({"op": protocol.CALLS, "calls": bodies, "tags": tags}))
        self.streaming = len(bodies)
        self._stream_tags = tags

    def next_answer(self, timeout: float) -> Reply:
        """The answer to the next of the calls sent together; a failed one is their last."""
        if not self.streaming:
            raise RuntimeError("no calls sent together are waiting for an answer")
        answer = self._answer(timeout, self._stream_tags[len(self._stream_tags) - self.streaming])
        self.streaming = self.streaming - 1 if answer.ok else 0
        return answer

    def drop_answers(self, timeout: float) -> None:
        """Read and drop the answers still to come; a worker that cannot give them in time is stopped."""
        deadline = time.monotonic() + timeout
        try:
            while self.streaming:
                self.next_answer(max(deadline - time.monotonic(), 0.0))
        except (WorkerGone, WorkerTimedOut):
            self.stop()

    def _send(self, message: dict[str, Any]) -> None:
        self._write(codec.dump_request(message))

    def _write(self, frame: bytes, *, flush: bool = True) -> None:
        if self.process is None or self.process.stdin is None:
            raise WorkerGone("the worker is not running: start() it before sending")
        try:
            self.process.stdin.write(frame)
            if flush:
                self.process.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise WorkerGone(self._ending()) from error

    def _receive_loading(self, what: str) -> dict[str, Any]:
        """Wait for a load under ``load_seconds``; after a second, say what it waits for (a loop looks like this)."""
        if self.progress is None:
            return self._receive(self.limits.load_seconds)
        patience = min(1.0, self.limits.load_seconds)
        try:
            return self._receive(patience)
        except WorkerTimedOut:
            self.progress(f"{what}… (it may take up to {self.limits.load_seconds:g} s: the load_seconds limit)")
        return self._receive(self.limits.load_seconds - patience)

    def _receive(self, timeout: float) -> dict[str, Any]:
        if self.replies is None:
            raise WorkerGone("the worker is not running: start() it before waiting for it")
        refused: AnswerTooLarge | ChannelBroken | None = None
        try:
            message = self.replies.read(timeout)
        except TimeoutError:
            raise WorkerTimedOut() from None
        except codec.TooLarge as error:
            refused = AnswerTooLarge(str(error))
        except codec.CodecError as error:
            refused = ChannelBroken(f"{CHANNEL_WRITTEN} ({str(error)[:200]})")
        except OSError:
            message = None  # the pipe is gone: as good as its end
        if refused is not None:
            # Raised here, past the handler: the codec's error, and with it the frames that held the body
            # (up to message_bytes), is freed now, not kept as its context by every test report that holds
            # this one. No waiting for an exit: a worker that garbles the channel may go on running; one
            # past the budget is not waited for, nor is its next message.
            self.stop()
            raise refused
        if message is None:
            ending = self._ending()
            if self._draining is not None:
                self._await_last_words()  # keep what it wrote as it ended (a traceback, bubblewrap's words)
            self.stop()
            raise WorkerGone(ending)
        self._note(message)
        return message

    def _note(self, message: dict[str, Any]) -> None:
        """Keep the hand-in's files a message says were read (for the student's own cache: student code can
        forge any message of a process that runs it, so nothing else a message carries is taken beside
        what was asked)."""
        read = message.get("read")
        if isinstance(read, dict):
            for module, names in read.items():
                self.read.setdefault(str(module), set()).update(map(str, names))

    def _take_import(self, module: str, message: dict[str, Any], *, trusted: bool) -> None:
        """A new process's first message, sent as its import ended and before it was sent any call: what it
        printed and the notebook cells that raised may be shown where it was ``trusted`` (``_enter``)."""
        if message.get(protocol.IMPORTED) != module:
            self.stop()
            raise ChannelBroken(f"its first message did not say {module} was imported")
        if message.get("loaded"):
            self.loaded.add(module)
        if not trusted:
            return
        cells = message.get("cells")
        for cell in cells if isinstance(cells, list) else []:
            if isinstance(cell, dict) and cell not in self.cell_reports:
                self.cell_reports.append(cell)
        printed = str(message.get("output", "")).rstrip()
        if printed.strip() and printed not in self.printed_while_loading:
            self.printed_while_loading.append(printed)

    def _ending(self) -> str:
        """Why the worker is gone, in words."""
        process = self.process
        if process is None:
            return "the worker was stopped"
        try:
            code = process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            return "the worker stopped answering"
        if code < 0:
            name = signal.Signals(-code).name if -code in signal.Signals.__members__.values() else str(-code)
            if name == "SIGXCPU":
                return f"the worker used more than {self.limits.cpu_seconds} s of CPU time and was stopped"
            if name == "SIGKILL" and self.cage.disk_exceeded():
                return f"your code and what it started wrote more than {self.limits.disk_mb} MiB of files in all"
            if name == "SIGKILL" and self.cage.memory_exceeded():
                return f"your code and what it started used more than {self.limits.memory_mb} MiB of memory"
            return f"the worker process was killed by {name}"
        return f"the worker process exited with code {code}"

    def _await_last_words(self) -> None:
        """Wait, ``LINGER_SECONDS`` at most, for the last process's output to be read to its end."""
        if self._draining is not None:
            self._draining.join(timeout=LINGER_SECONDS)

    def stray_text(self) -> str:
        """What the worker's processes wrote outside the channel, as far as it may be shown (``end_process``
        keeps it, a tainted process's dropped), each text once, with how many starts wrote it. Waits for the
        last process's output to be read to its end (``_await_last_words``)."""
        self._await_last_words()
        counts: dict[str, int] = dict.fromkeys(self.kept_output, 1)
        for written in self.stray_output:
            text = self._said(written.take_unmarked())
            if text:
                counts[text] = counts.get(text, 0) + 1
        return "\n".join(
            text if count == 1 else f"{text}\n(written {count} times: once by each worker started for your code)"
            for text, count in counts.items()
        )

    def _drain_output(self, process: subprocess.Popen[bytes], written: StrayOutput, stopped: threading.Event) -> None:
        """Keep the first part of what the worker wrote to fds 1 and 2 in ``written``, cut at its marks.

        Reads to the pipe's end, or, once the worker is ``stopped``, until the pipe is quiet (or at most
        ``LINGER_SECONDS``): outside the sandbox a process the worker started in a session of its own
        outlives it, holding the pipe for as long as it likes, and neither this reader nor the grader may
        wait for it. This reader alone closes the pipe: a close elsewhere waits for its read to return.
        """
        stream = process.stderr
        if stream is None:
            raise ValueError("the worker was started without a pipe for its output: start() makes one")
        until = math.inf  # when a stopped worker's output is left unread
        with stream:
            while time.monotonic() < until:
                if self.portable:  # select() takes no pipes on Windows: a read that blocks, in this thread
                    chunk = stream.read1(65536)  # type: ignore[attr-defined]
                else:
                    if stopped.is_set() and until == math.inf:
                        until = time.monotonic() + LINGER_SECONDS
                    if not select.select([stream], [], [], QUIET_SECONDS)[0]:
                        if stopped.is_set():
                            return
                        continue
                    chunk = os.read(stream.fileno(), 65536)
                if not chunk:
                    return
                written.add(chunk)
