"""The cage's limits: what a submission's worker, and each call into it, may take."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any


@dataclass(frozen=True)
class CageLimits:
    """How much a submission may take before the grader stops it.

    Wall-clock limits are enforced by the grader (it kills the worker).
    ``test_seconds`` and ``submission_seconds`` count the time spent waiting
    for the worker, never the grader's own work between calls. The rest are
    set inside the worker with ``resource`` and control groups where the
    platform has them.
    """

    # Every graded call runs on test-sized input: the reference takes a few
    # milliseconds, a beginner's quadratic loop tens; 2 s is ample and keeps a
    # hang from holding a batch slot for long.
    call_seconds: float = 2.0
    # Importing the modules, or running a notebook's cells, before the first
    # call. Defining functions takes milliseconds, and a notebook's demos
    # (training on a corpus, plots) are not run for grading (notebook_slice):
    # 10 s leaves a slow import a hundredfold room, and a student whose file
    # loops at the top level hears so in seconds, not in a minute.
    load_seconds: float = 10.0
    test_seconds: float = 30.0
    submission_seconds: float = 300.0
    cpu_seconds: int = 120
    memory_mb: int = 2048  # the whole tree where control groups can be used, else each process
    file_size_mb: int = 16
    # Everything the worker may write (its copy of the hand-in included) lives in a tmpfs of this
    # size, counted in its memory too; without the sandbox, only file_size_mb bounds a file.
    disk_mb: int = 256
    open_files: int = 256
    processes: int = 64
    output_kb: int = 64

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def names(cls) -> list[str]:
        return [field.name for field in fields(cls)]
