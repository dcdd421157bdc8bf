"""A batch's request is checked inside ``run_batch``, so a caller other than the command line (a script, a
test) is refused exactly as ``grade batch`` is."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from click.testing import CliRunner

from autograder.cage import isolation
from autograder.cli import EXIT_CANNOT_GRADE, main
from autograder.course.batch import request
from autograder.course.batch.request import BatchOptions, CageRefused
from autograder.course.batch.run import run_batch
from autograder.course.batch.selection import Selection


@pytest.mark.unit
def test_run_batch_refuses_the_process_cage_unasked_as_the_command_line_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The process cage: hand-ins could read the kit and each other, and no one passed the flag accepting it.
    monkeypatch.setattr(isolation, "_probed", [isolation.Probe(isolation.Isolation.PROCESS)])
    monkeypatch.chdir(tmp_path)  # no course file but the one given: none
    submissions = tmp_path / "submissions"
    (submissions / "ada").mkdir(parents=True)
    (submissions / "ada" / "bpe.py").write_text("def merge_pair(tokens, pair):\n    return tokens\n")
    out = tmp_path / "out"

    with pytest.raises(CageRefused) as refused:
        run_batch(submissions, out, BatchOptions())
    assert not out.exists(), "refused before anything is written"

    interrupts = signal.getsignal(signal.SIGINT)  # the command sets its own Ctrl-C handler: put ours back
    try:
        said = CliRunner().invoke(main, ["batch", str(submissions), "-o", str(out), "--quiet"])
    finally:
        signal.signal(signal.SIGINT, interrupts)
    assert said.exit_code == EXIT_CANNOT_GRADE == refused.value.exit_code, said.output
    assert said.stderr == f"grade batch: {refused.value}\n"
    assert not out.exists()

    # The flag's meaning holds for a caller of run_batch too: with it, the process cage passes the checks.
    assert request.check(submissions, out, BatchOptions(uncaged=True), Selection.every()) == []
