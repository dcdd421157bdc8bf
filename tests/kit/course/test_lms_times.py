"""One rule for time: a download's file times are wall-clock readings, read in the course's zone, whether the
download is graded as its zip or unpacked (by Info-ZIP's unzip, which sets each file to its reading in the
unpacking machine's zone) and graded on that machine, in any zone."""

from __future__ import annotations

import os
import subprocess
import zipfile
from pathlib import Path

import pytest
from classroom import SOLUTIONS
from commands import batch_command
from lms_names import canvas_name
from results import gradebook_rows

TOKENIZERS = (SOLUTIONS / "simple_tokenizers.py").read_bytes()
PART = ("--part", "simple_tokenizers")
COURSE = '[late]\ndue = 2026-11-20T23:59:00\ntime_zone = "Europe/Berlin"\ngrace_minutes = 10\npercent = 10\n'
# the zip's readings, Berlin wall-clock as Canvas's server wrote them: 6 minutes late (in the grace), 1 h 6 min late
HANDED_IN = {
    canvas_name("Lovelace, Ada", 1001, 5001, "simple_tokenizers.py", late=True): (2026, 11, 21, 0, 5, 0),
    canvas_name("Bee, Bea", 1002, 5002, "simple_tokenizers.py", late=True): (2026, 11, 21, 1, 5, 0),
}


def _grade(submissions: Path, out: Path, zone: str) -> dict[str, str]:
    environment = {**os.environ, "TZ": zone}
    process = subprocess.run(
        batch_command(submissions, out, *PART),
        capture_output=True,
        text=True,
        timeout=600,
        cwd=out.parent,
        env=environment,
    )
    assert process.returncode == 0, process.stderr
    return {student: row["late"] for student, row in gradebook_rows(out).items()}


@pytest.mark.slow
def test_the_same_download_is_as_late_as_its_zip_unpacked_in_any_zone(tmp_path):
    (tmp_path / "course.toml").write_text(COURSE, encoding="utf-8")
    archive = tmp_path / "submissions.zip"
    with zipfile.ZipFile(archive, "w") as download:
        for name, reading in HANDED_IN.items():
            download.writestr(zipfile.ZipInfo(name, date_time=reading), TOKENIZERS)
    as_zip = _grade(archive, tmp_path / "out-zip", "UTC")
    assert as_zip["1002"].startswith("1 h 6 min late") and as_zip["1001"].startswith("on time"), as_zip
    for zone in ("UTC", "Asia/Tokyo"):
        folder = tmp_path / f"unzipped-{zone.replace('/', '-')}"
        subprocess.run(["unzip", "-q", str(archive), "-d", str(folder)], check=True, env={**os.environ, "TZ": zone})
        assert _grade(folder, tmp_path / f"out-{zone.replace('/', '-')}", zone) == as_zip, zone
