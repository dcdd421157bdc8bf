"""The grader's end of the pipe: start, call, time out, restart, stop a worker."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any

from autograder.worker import codec
from autograder.worker.cage import Cage
from autograder.worker.limits import Limits

START_SECONDS = 30.0


class WorkerGone(Exception):
    """The worker ended (or broke the protocol) while the grader waited for it."""


class WorkerTimedOut(Exception):
    """The worker did not answer in time and was killed."""


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

    def __init__(self, cage: Cage, limits: Limits, script: dict[str, Any]) -> None:
        self.cage = cage
        self.limits = limits
        self.script = script  # how to load the submission: kind, cells, script name
        self.process: subprocess.Popen[bytes] | None = None
        self.replies: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.notices: list[str] = []
        self.stray_output: list[bytes] = []
        self.starts = 0

    # -- life cycle -------------------------------------------------------
    def start(self) -> None:
        """Launch the interpreter; the first call waits for it to be ready."""
        kwargs: dict[str, Any] = {}
        if sys.platform == "win32":
            kwargs["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP
        else:
            kwargs["start_new_session"] = True
        self.process = subprocess.Popen(
            self.cage.command(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=self.cage.tmp,
            env=self.cage.environment(),
            **kwargs,
        )
        self.starts += 1
        self.replies = queue.Queue()
        threading.Thread(target=self._read_replies, args=(self.process, self.replies), daemon=True).start()
        threading.Thread(target=self._drain_output, args=(self.process,), daemon=True).start()
        config = {
            **self.script,
            "submission_dir": str(self.cage.work),
            "limits": self.limits.as_dict(),
            "sandbox": self.cage.sandbox_config(),
            "environment": {},
        }
        self._send(config)
        self._pending_ready = True

    def _ensure_ready(self, deadline: float) -> None:
        if self.process is None or self.process.poll() is not None:
            self.stop()
            self.start()
        if getattr(self, "_pending_ready", False):
            reply = self._receive(min(START_SECONDS, max(deadline - time.monotonic(), 0.1) + START_SECONDS))
            self._pending_ready = False
            for notice in reply.get("notices", []):
                if notice not in self.notices:
                    self.notices.append(notice)

    def stop(self) -> None:
        """Kill the worker and everything it started."""
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            try:
                if sys.platform == "win32":
                    process.kill()
                else:
                    os.killpg(process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass

    # -- calls -------------------------------------------------------------
    def request(self, message: dict[str, Any], timeout: float) -> Reply:
        """Send one request and wait at most ``timeout`` seconds for its answer."""
        deadline = time.monotonic() + timeout
        self._ensure_ready(deadline)
        self._send(message)
        try:
            answer = self._receive(max(deadline - time.monotonic(), 0.0))
        except WorkerTimedOut:
            self.stop()
            raise
        return Reply(answer)

    def _send(self, message: dict[str, Any]) -> None:
        assert self.process is not None and self.process.stdin is not None
        try:
            self.process.stdin.write(codec.dump_message(message))
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise WorkerGone(self._ending()) from error

    def _receive(self, timeout: float) -> dict[str, Any]:
        try:
            message = self.replies.get(timeout=timeout)
        except queue.Empty:
            raise WorkerTimedOut() from None
        if message is None:
            ending = self._ending()
            self.stop()
            raise WorkerGone(ending)
        return message

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
            return f"the worker process was killed by {name}"
        return f"the worker process exited with code {code}"

    @staticmethod
    def _read_replies(process: subprocess.Popen[bytes], replies: queue.Queue[dict[str, Any] | None]) -> None:
        try:
            while True:
                message = codec.read_message(process.stdout)
                replies.put(message)
                if message is None:
                    return
        except (codec.CodecError, OSError, ValueError):
            replies.put(None)

    def _drain_output(self, process: subprocess.Popen[bytes]) -> None:
        """Keep the first part of what the worker wrote to fds 1 and 2; drop the rest."""
        assert process.stderr is not None
        room = self.limits.output_kb * 1024
        while True:
            try:
                chunk = process.stderr.read1(65536)  # type: ignore[attr-defined]
            except (OSError, ValueError):
                return
            if not chunk:
                return
            kept = sum(len(part) for part in self.stray_output)
            if kept < room:
                self.stray_output.append(chunk[: room - kept])
