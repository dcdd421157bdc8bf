"""The result GitHub Classroom's grading reporter reads (autograding-grading-reporter, runner result v1).

The reporter takes this JSON, base64-encoded, from ``<RUNNER>_RESULTS``; it
adds up the tests' ``score`` against ``max_score`` and posts "Points X/Y".
"""

from __future__ import annotations

import json

from autograder.engine.document import GradedTest, ResultsDocument
from autograder.engine.outcomes import Outcome
from autograder.engine.scoring import outcome_of, passed


def render(document: ResultsDocument) -> str:
    tests = [
        {
            "name": test["name"],
            "status": _status(test),
            "message": test["output"] or None,
            "score": test["score"],
            "filename": f"{test['extra_data']['module']}.py",
            "line_no": 0,
            "execution_time": "",
            "test_code": "",
        }
        for test in document["tests"]
    ]
    all_passed = all(test["status"] == "pass" for test in tests)
    status = ("pass" if all_passed else "fail") if tests else "error"  # nothing ran: fail the run, not 0/0
    result = {"version": 1, "status": status, "max_score": document["max_score"], "tests": tests}
    return json.dumps(result, ensure_ascii=False) + "\n"


def _status(test: GradedTest) -> str:
    if passed(test):
        return "pass"
    return "error" if outcome_of(test) is Outcome.GRADER_ERROR else "fail"
