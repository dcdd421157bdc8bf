"""The kit's own sessions: ``nox -s fast`` while editing, ``full`` before a change is done, ``lint``, ``docs``.

Each session installs the kit with its dev extra in a venv of its own. CI runs ``.ci/run``, which is the
same commands on a fresh machine, with the outside engines' tests in a second step.
"""

from __future__ import annotations

import nox

nox.options.sessions = ["fast", "lint"]
nox.options.default_venv_backend = "venv"
nox.options.reuse_venv = "yes"  # the kit is installed editable: a session's venv stays valid while you edit


@nox.session
def fast(session: nox.Session) -> None:
    """The kit's tests that start no process (marked ``unit``): seconds, not minutes."""
    session.install("-e", ".[dev]")
    session.run("pytest", "-m", "unit", "-n", "0", "--durations=5", *session.posargs)


@nox.session
def full(session: nox.Session) -> None:
    """The default run, as the README's test command runs it, then the slow tests and the attacks."""
    session.install("-e", ".[dev]")
    session.run("pytest", *session.posargs)
    session.run("pytest", "-m", "slow or attack", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """Style, format and types: the kit, the benchmarks and the kit's tests, then the graded suites."""
    session.install("-e", ".[dev]")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    session.run("mypy")
    session.run("mypy", "--explicit-package-bases", "tests/hidden", "tests/public", env={"MYPYPATH": "tests"})


@nox.session
def docs(session: nox.Session) -> None:
    """The docs site built strictly into site/ (a broken link or anchor fails), then the docs' own tests,
    the runnable command blocks included."""
    session.install("-e", ".[dev]")
    session.run("mkdocs", "build", "--strict", env={"NO_MKDOCS_2_WARNING": "1"})
    session.run("pytest", "-m", "docs", "-n", "0", *session.posargs)
