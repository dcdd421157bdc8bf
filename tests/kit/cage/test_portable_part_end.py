"""What a part's process started ends with the part on the portable path, on Windows: the Job Object that
does it, checked through a stand-in for kernel32 (it cannot run on Linux)."""

from __future__ import annotations

import ctypes
import os
from typing import Any

import pytest

from autograder.cage.inside import spawns

# Its hand-in starts a process, which the plain-Python policy refuses.
pytestmark = pytest.mark.without_policy


class Kernel32StandIn:
    """Records what join_killing_job asks of kernel32 (by its own names), answering as Windows does when
    each call succeeds."""

    def __init__(self, fail: str = "") -> None:
        self.calls: list[str] = []
        self.fail = fail
        self.flags: int | None = None
        self.assigned: tuple[int, int] | None = None

    def _answer(self, name: str, value: int) -> int:
        self.calls.append(name)
        return 0 if name == self.fail else value

    def CreateJobObjectW(self, attributes: object, name: object) -> int:
        return self._answer("CreateJobObjectW", 77)

    def SetInformationJobObject(self, job: int, kind: int, limits: Any, size: int) -> int:
        assert kind == spawns.JOB_OBJECT_EXTENDED_LIMIT_INFORMATION
        structure: Any = ctypes.cast(limits, ctypes.POINTER(spawns._job_limits_type())).contents
        assert size == ctypes.sizeof(structure)
        self.flags = structure.BasicLimitInformation.LimitFlags
        return self._answer("SetInformationJobObject", 1)

    def GetCurrentProcess(self) -> int:
        return -1  # Windows' pseudo-handle for the calling process

    def AssignProcessToJobObject(self, job: int, process: int) -> int:
        self.assigned = (job, process)
        return self._answer("AssignProcessToJobObject", 1)

    def CloseHandle(self, handle: int) -> int:
        return self._answer("CloseHandle", 1)


def test_a_part_on_windows_joins_a_job_that_kills_its_processes_when_it_closes(monkeypatch):
    """own_group takes the Windows branch where there is no setpgid, and the job it joins kills on close."""
    monkeypatch.setattr(spawns, "WINDOWS", True)
    monkeypatch.delattr(os, "setpgid")
    kernel32 = Kernel32StandIn()
    spawns.own_group(kernel32)
    assert kernel32.calls == ["CreateJobObjectW", "SetInformationJobObject", "AssignProcessToJobObject"]
    assert kernel32.flags == spawns.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE == 0x2000
    assert kernel32.assigned == (77, -1)
    assert spawns._JOBS[-1] == 77  # held for the part's life: its end closes the job


@pytest.mark.parametrize("failing", ["CreateJobObjectW", "SetInformationJobObject", "AssignProcessToJobObject"])
def test_a_job_that_cannot_be_made_leaves_the_part_running_and_no_handle_open(failing):
    kernel32 = Kernel32StandIn(fail=failing)
    assert spawns.join_killing_job(kernel32) is None
    assert ("CloseHandle" in kernel32.calls) == (failing != "CreateJobObjectW")
