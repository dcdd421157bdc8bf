"""The grade result in memory and results.json on disk are one thing: a record the kit writes reads back to
the same result and writes the same bytes again, whatever optional parts it has."""

from __future__ import annotations

import json
from dataclasses import MISSING, fields, replace
from typing import Any

import pytest
from classroom import SOLUTIONS

from autograder.grading.hand_in import grade_path
from autograder.reports import json_report
from autograder.scoring import feedback_policy, grade_result
from autograder.scoring.grade_result import AdjustmentEntry, BatchStamp, GradeResult
from autograder.testing.outcomes import Outcome, Visibility


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
    for result in (graded, stamped, *(feedback_policy.view(stamped, mode) for mode in feedback_policy.MODES)):
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


# Imported by module: pytest would take a class named Test... for a test class.
# A value for each type a test's field is declared with: not its default, nor what the JSON leaves out.
SAMPLES: dict[str, Any] = {
    "str": "some text",
    "float": 1.5,
    "bool": True,
    "tuple[str, ...]": ("one", "two"),
    "Outcome": Outcome.ERROR,
    "TestStatus": grade_result.TestStatus.FAILED,
    "Visibility": Visibility.AFTER_DUE_DATE,
    "str | None": "some text",
    "tuple[str, ...] | None": ("one",),
}


@pytest.mark.unit
def test_every_field_of_a_test_is_written_and_read_back():
    """Each field TestResult declares reaches results.json and comes back as it was, enums as enums."""
    unknown = {each.type for each in fields(grade_result.TestResult)} - SAMPLES.keys()
    assert not unknown, f"give SAMPLES a value for {unknown}"
    test = grade_result.TestResult(**{each.name: SAMPLES[str(each.type)] for each in fields(grade_result.TestResult)})
    written = json.loads(json.dumps(test.to_gradescope()))
    assert set(written) - {"extra_data"} | set(written["extra_data"]) == {
        each.name for each in fields(grade_result.TestResult)
    }
    assert written["status"] == "failed" and written["extra_data"]["outcome"] == "error", "enums as their values"
    read = grade_result.TestResult.from_json(written)
    assert read == test
    assert read.status is grade_result.TestStatus.FAILED and read.visibility is Visibility.AFTER_DUE_DATE


@pytest.mark.unit
def test_an_older_test_record_reads_with_its_later_fields_at_their_defaults_and_one_missing_a_need_is_refused():
    test = grade_result.TestResult(**{each.name: SAMPLES[str(each.type)] for each in fields(grade_result.TestResult)})
    written = test.to_gradescope()
    later = [each for each in fields(grade_result.TestResult) if each.default is not MISSING]
    older = {
        **written,
        "extra_data": {
            key: value for key, value in written["extra_data"].items() if key not in {each.name for each in later}
        },
    }
    read = grade_result.TestResult.from_json(older)
    assert all(getattr(read, each.name) == each.default for each in later), "each later field at its default"
    without_part = {
        **written,
        "extra_data": {key: value for key, value in written["extra_data"].items() if key != "part"},
    }
    with pytest.raises(KeyError, match="part"):
        grade_result.TestResult.from_json(without_part)
