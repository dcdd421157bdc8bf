"""The batch's progress bar on the terminal (stderr): done / total, failures so far, time left."""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeRemainingColumn


class BarProgress:
    def __init__(self) -> None:
        self._bar = Progress(
            TextColumn("grading"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("[red]{task.fields[failures]} could not be graded"),
            TextColumn("·"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[last]}", style="dim"),
            console=Console(stderr=True),
            transient=False,
        )
        self._task: TaskID | None = None
        self._failures = 0

    def __enter__(self) -> BarProgress:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._task is not None:
            self._bar.stop()

    def start(self, total: int, already: int, *, unreadable: int = 0) -> None:
        """``unreadable``: hand-ins already known not to be gradable (unreadable, or two for one student).

        The bar is drawn from here, once the batch knows what it grades: a run refused before then (a
        request that cannot be, a roster naming no one) says so in its one line, with no bar above it."""
        self._bar.start()
        if already:
            self._bar.console.print(f"{already} result(s) already up to date: not graded again (--force regrades)")
        self._failures = unreadable
        self._task = self._bar.add_task("grading", total=total, failures=unreadable, last="")

    def advance(self, student: str, *, graded: bool) -> None:
        if self._task is None:
            return
        self._failures += 0 if graded else 1
        self._bar.update(self._task, advance=1, failures=self._failures, last=student)
