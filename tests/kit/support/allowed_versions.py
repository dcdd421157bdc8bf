"""The kit in a venv of its own with one dependency at an end of the range pyproject.toml allows it.

A plain venv (from a venv's python, one on its base interpreter; never --system-site-packages), so that
the packages of this run cannot stand in for the ones chosen. Every other runtime dependency is at the
version this run has, so the one chosen is the only difference.
"""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

from autograder.kit_root import KIT_ROOT


def pyproject() -> dict[str, object]:
    return tomllib.loads((KIT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def dependencies() -> list[Requirement]:
    """The kit's runtime dependencies that apply on this machine (their markers hold)."""
    project = pyproject()["project"]
    assert isinstance(project, dict)
    requirements = [Requirement(line) for line in project["dependencies"]]
    return [requirement for requirement in requirements if requirement.marker is None or requirement.marker.evaluate()]


def dependency(name: str) -> Requirement:
    """pyproject.toml's requirement on ``name``."""
    for requirement in dependencies():
        if requirement.name == name:
            return requirement
    raise ValueError(f"pyproject.toml's dependencies do not name {name}: add it with a >= bound")


def oldest_allowed(name: str) -> str:
    """The oldest release of ``name`` that the kit's dependencies allow: its one ``>=`` bound."""
    requirement = dependency(name)
    floors = [clause.version for clause in requirement.specifier if clause.operator == ">="]
    if len(floors) != 1 or floors[0] not in requirement.specifier:
        raise ValueError(f"pyproject.toml's {requirement}: give {name} one >= bound it allows, its oldest")
    return floors[0]


def pinned_as_here(chosen: str) -> list[str]:
    """The kit's runtime dependencies at the versions this run has (as pyproject.toml states those it
    lacks), with ``chosen`` (a requirement, ``pytest==8.3.3``) in place of its name's; and setuptools to
    install the kit without build isolation."""
    chosen_name = Requirement(chosen).name
    pins = []
    for requirement in dependencies():
        if requirement.name == chosen_name:
            pins.append(chosen)
            continue
        try:
            pins.append(f"{requirement.name}=={importlib.metadata.version(requirement.name)}")
        except importlib.metadata.PackageNotFoundError:
            pins.append(str(requirement))
    build_system = pyproject()["build-system"]
    assert isinstance(build_system, dict)
    for line in build_system["requires"]:
        build = Requirement(line)
        try:
            here = importlib.metadata.version(build.name)
        except importlib.metadata.PackageNotFoundError:
            here = ""
        pins.append(f"{build.name}=={here}" if here and here in build.specifier else str(build))
    return pins


def run(command: list[str | Path], *, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``command`` run to its end, which must be a success; what it printed. Not with this run's PYTHONPATH:
    the venv's own kit is the one under test."""
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    done = subprocess.run(
        [str(part) for part in command], capture_output=True, text=True, timeout=600, cwd=cwd, env=environment
    )
    assert done.returncode == 0, f"{' '.join(map(str, command))}\n{done.stdout[-2000:]}{done.stderr[-3000:]}"
    return done


def kit_venv(folder: Path, chosen: str) -> Path:
    """A venv in ``folder`` holding the kit (editable) and its dependencies pinned as here but ``chosen``;
    its python."""
    run([sys.executable, "-m", "venv", folder])
    python = folder / "bin" / "python"
    pip: list[str | Path] = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    run([*pip, *pinned_as_here(chosen)])
    run([*pip, "--no-deps", "--no-build-isolation", "--editable", KIT_ROOT])
    return python


def installed_version(python: Path, module: str) -> str:
    return run([python, "-c", f"import {module}; print({module}.__version__)"]).stdout.strip()
