"""Root's cages go where every worker's user can reach them, whatever TMPDIR is, or nothing is graded and the
one line says which folder is closed and how to open it. The same in a real container:
test_container_batch grades a class there with TMPDIR a 0700 folder of root's."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from results import full_marks

from autograder.cage import cage_place


@pytest.fixture
def open_place() -> Iterator[Path]:
    """A folder in /tmp that other users may pass through (pytest's own folders are 0700), removed after."""
    folder = Path(tempfile.mkdtemp(prefix="bpe-kit-test-place-", dir="/tmp"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


needs_root = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root's workers are users of their own"
)


@pytest.mark.unit
def test_a_temporary_folder_others_may_pass_through_is_used_as_it_is(open_place, monkeypatch):
    open_one = open_place / "open"
    open_one.mkdir(mode=0o777)
    open_one.chmod(0o777)
    monkeypatch.setattr(tempfile, "tempdir", str(open_one))
    if cage_place.closed_on_the_way(open_one) is not None:
        pytest.skip(f"a folder above {open_one} is closed to other users here")
    assert cage_place.reachable_temp() == open_one


@pytest.mark.unit
def test_a_private_tmpdir_sends_the_cages_to_the_first_open_fallback(open_place, monkeypatch):
    private = open_place / "private"
    private.mkdir(mode=0o700)
    private.chmod(0o700)
    opened = open_place / "opened"
    opened.mkdir()
    opened.chmod(0o777)
    monkeypatch.setattr(tempfile, "tempdir", str(private))
    assert cage_place.closed_on_the_way(private) == private
    if cage_place.closed_on_the_way(opened) is not None:
        pytest.skip(f"a folder above {opened} is closed to other users here")
    monkeypatch.setattr(cage_place, "FALLBACKS", (private / "inside", opened))
    assert cage_place.reachable_temp() == opened


@pytest.mark.unit
def test_with_no_open_temporary_folder_the_refusal_names_the_folder_and_the_fix(open_place, monkeypatch):
    private = open_place / "private"
    private.mkdir(mode=0o700)
    private.chmod(0o700)
    monkeypatch.setattr(tempfile, "tempdir", str(private))
    monkeypatch.setattr(cage_place, "FALLBACKS", (private / "inside",))
    with pytest.raises(cage_place.CagesUnreachable) as refused:
        cage_place.reachable_temp()
    said = str(refused.value)
    assert said.startswith(cage_place.SAID) and "\n" not in said
    assert f"{private} (mode 700)" in said and f"chmod o+x {private}" in said and "TMPDIR=/tmp" in said


@needs_root
def test_as_root_a_private_tmpdir_grades_an_honest_hand_in_in_full(reference_with, tmp_path):
    """Outside a container, as root: the honest reference with TMPDIR a 0700 folder of root's scores full
    marks in every cage root can get here, and `grade doctor` says where the cages went."""
    private = tmp_path / "private-tmp"
    private.mkdir(mode=0o700)
    private.chmod(0o700)
    submission = reference_with("student", only=("simple_tokenizers",))
    environment = {**os.environ, "TMPDIR": str(private)}
    for forced in ({}, {"BPE_KIT_CAGE": "process"}):  # the best cage, then the container cage root gets without it
        process = subprocess.run(
            [
                sys.executable,
                "-m",
                "autograder.cli",
                str(submission),
                "--format",
                "json",
                "--part",
                "simple_tokenizers",
            ],
            capture_output=True,
            text=True,
            timeout=600,
            env={**environment, **forced},
            cwd=tmp_path,
        )
        doctor = subprocess.run(
            [sys.executable, "-m", "autograder.cli", "doctor"],
            capture_output=True,
            text=True,
            timeout=120,
            env={**environment, **forced},
        )
        if doctor.stdout.startswith("cage: none"):  # an interpreter other users may not run (pyenv under /root)
            assert "could not" in process.stderr or process.returncode != 0, process.stderr[-2000:]
            continue
        assert "cages: in " in doctor.stdout and str(private) not in doctor.stdout.split("cages: in ")[1].split()[0]
        document = json.loads(process.stdout)
        assert f"{document['score']:g}" == full_marks("simple_tokenizers"), process.stderr[-2000:]
