"""The grade result in memory and results.json on disk are one thing: a record the kit writes reads back to
the same result and writes the same bytes again, whatever optional parts it has."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from classroom import SOLUTIONS

from autograder.grading.hand_in import grade_path
from autograder.reports import disclosure, json_report
from autograder.scoring.grade_result import AdjustmentEntry, BatchStamp, GradeResult


def written_again(result: GradeResult) -> tuple[GradeResult, str, str]:
    text = json_report.render(result)
    read = GradeResult.from_json(json.loads(text))
    return read, text, json_report.render(read)


def test_a_graded_hand_in_round_trips_byte_for_byte(tmp_path):
    folder = tmp_path / "hand-in"
    folder.mkdir()
    source = (SOLUTIONS / "simple_tokenizers.py").read_text(encoding="utf-8")
    (folder / "simple_tokenizers.py").write_text(source.replace("return list(text)", "return text.split()"), "utf-8")
    graded = grade_path(folder, suite="public")
    assert graded.tests and not all(test.passed for test in graded.tests), "a hand-in with a failing test"
    stamped = replace(
        graded,
        batch=BatchStamp(
            "ada",
            "f" * 64,
            "c" * 64,
            similarity=(("simple_tokenizers", (3, 1)), ("", (7,))),
            similarity_version=7,
            imports=(),
            builds_code=(),
        ),
        adjustments=(AdjustmentEntry("Part 1", -1.5, "late, by a day"),),
        read={"": ("simple_tokenizers.py",)},
        graded_from={"simple_tokenizers": "modules"},
    )
    for result in (graded, stamped, *(disclosure.view(stamped, mode) for mode in disclosure.MODES)):
        read, text, again = written_again(result)
        assert read == result
        assert again == text


@pytest.mark.unit
def test_an_older_record_reads_and_keeps_what_this_kit_does_not_know():
    """A record written before some fields were added reads, with them absent; what its extra_data holds
    that this kit does not know is written back (after the fields it knows)."""
    older = {
        "score": 1,
        "max_score": 2,
        "execution_time": 0.5,
        "output": "",
        "tests": [],
        "extra_data": {"submission": "bob", "suite": "hidden", "their_own": {"kept": [1, 2]}},
    }
    result = GradeResult.from_json(older)
    assert result.notes is None and result.batch is None and result.student_seconds is None
    assert json.loads(json_report.render(result))["extra_data"]["their_own"] == {"kept": [1, 2]}
    assert written_again(result)[1:][0] == written_again(result)[1:][1]


@pytest.mark.unit
def test_gradescopes_upload_moves_full_marks_into_extra_data():
    from autograder.course.gradescope import for_gradescope

    result = GradeResult(score=3.0, max_score=4.0, execution_time=1.0, output="", tests=())
    upload = for_gradescope(result)
    assert "max_score" not in upload and upload["extra_data"]["max_score"] == 4.0
    read = GradeResult.from_json(upload)
    assert read.max_score == 4.0 and read.to_gradescope() == upload, "the upload round-trips too"
