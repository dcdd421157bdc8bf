"""``grade -o`` writes its report the way every other file of the kit is written: whole or not at all."""

from __future__ import annotations

import json

from classroom import SOLUTIONS
from commands import grade


def test_grade_writes_its_report_into_a_folder_it_makes(tmp_path):
    report = tmp_path / "not" / "made" / "yet" / "report.json"
    process, _ = grade(SOLUTIONS, "--suite", "public", "-o", str(report))
    assert process.returncode == 0, process.stderr
    assert json.loads(report.read_text(encoding="utf-8"))["tests"]
    assert not list(report.parent.glob(".partial-*"))  # no temporary file left beside it
