"""The result GitHub Classroom's grading reporter reads (autograding-grading-reporter, runner result v1).

The reporter takes this JSON, base64-encoded, from ``<RUNNER>_RESULTS``; it
adds up the tests' ``score`` against ``max_score`` and posts "Points X/Y".
"""

from __future__ import annotations

import json

from autograder.scoring.grade_result import GradeResult, TestResult
from autograder.testing.outcomes import Outcome


def render(graded: GradeResult) -> str:
    tests = [
        {
            "name": test.name,
            "status": _status(test),
            "message": test.output or None,
            "score": test.score,
            "filename": f"{test.module}.py",
            "line_no": 0,
            "execution_time": "",
            "test_code": "",
        }
        for test in graded.tests
    ]
    all_passed = all(test["status"] == "pass" for test in tests)
    status = ("pass" if all_passed else "fail") if tests else "error"  # nothing ran: fail the run, not 0/0
    result = {"version": 1, "status": status, "max_score": graded.max_score, "tests": tests}
    return json.dumps(result, ensure_ascii=False) + "\n"


def _status(test: TestResult) -> str:
    if test.passed:
        return "pass"
    return "error" if test.outcome is Outcome.GRADER_ERROR else "fail"
