"""The kit's own tests' configuration: the environment every test and every `grade` it starts sees, and the
fixtures. The helpers tests import are modules of support/ beside this one (commands, results, classroom),
on sys.path through pytest's pythonpath; each test lives in the folder of the step of the package it tests."""

from __future__ import annotations

import _posixsubprocess
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from classroom import SOLUTIONS

from autograder.hand_in.policy_parts import WITHOUT_POLICY_VARIABLE
from autograder.parts import PARTS
from autograder.testing.example_sets import SECRET_VARIABLE

# The kit's own tests grade with one fixed secret for the hidden examples (example_sets), and so does every
# `grade` they start: the clone's own secret, if any, is never read or made.
os.environ[SECRET_VARIABLE] = "the kit's own tests"
# Every grading a test starts is a fresh one: the student's cache of unchanged parts (a folder under the
# user's home) is off, except where a test of the cache turns it on with a folder of its own.
os.environ["BPE_KIT_CACHE"] = "off"


@pytest.fixture(autouse=True, scope="module")
def _without_policy(request: pytest.FixtureRequest) -> Iterator[None]:
    """A module marked ``without_policy`` grades with the plain-Python policy off (policy_parts): its hand-ins
    step outside the policy on purpose (os._exit, os.write, exec) to test the worker and the cage, which
    must hold whatever runs. test_policy tests the policy itself. Module-wide, and first among the module's
    fixtures (an autouse one), so that a batch graded once for the module grades without it too."""
    if request.node.get_closest_marker("without_policy") is None:
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(WITHOUT_POLICY_VARIABLE, "1")
        yield


@pytest.fixture(autouse=True)
def _unit_tests_start_no_process(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A test marked ``unit`` (what ``nox -s fast`` runs) fails if it starts a process: a worker, the CLI, an
    outside program. The mark then always means what it says. (A fixture wider than a test runs before this
    one: the tests marked were found by refusing processes from the end of collection on.)"""
    if request.node.get_closest_marker("unit") is None:
        return

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"{request.node.name} is marked unit, and started a process")

    monkeypatch.setattr(subprocess.Popen, "__init__", refused)
    monkeypatch.setattr(_posixsubprocess, "fork_exec", refused)  # what multiprocessing's spawn calls directly
    for name in ("fork", "forkpty", "system", "posix_spawn", "posix_spawnp"):
        monkeypatch.setattr(os, name, refused, raising=False)


@pytest.fixture
def reference_with(tmp_path: Path) -> Callable[..., Path]:
    """A submission folder: the reference solutions, with code appended to some modules.

    A later ``def`` replaces an earlier one, so appending a function swaps in
    that one mistake (or cheat) and leaves the rest honest.
    """

    def build(name: str = "student", *, only: tuple[str, ...] = (), **appended: str) -> Path:
        """``only``: just these part modules (the others are then not started)."""
        folder = tmp_path / name
        folder.mkdir()
        for part in PARTS:
            if only and part.module not in only:
                continue
            text = (SOLUTIONS / f"{part.module}.py").read_text(encoding="utf-8")
            if part.module in appended:
                text += "\n\n" + appended[part.module]
            (folder / f"{part.module}.py").write_text(text, encoding="utf-8")
        return folder

    return build
