"""The result GitHub Classroom's grading reporter reads (autograding-grading-reporter, runner result v1).

The reporter takes this JSON, base64-encoded, from ``<RUNNER>_RESULTS``; it
adds up the tests' ``score`` against ``max_score`` and posts "Points X/Y".
"""

from __future__ import annotations

import json
from typing import Any


def render(document: dict[str, Any]) -> str:
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
    passed = all(test["status"] == "pass" for test in tests)
    status = ("pass" if passed else "fail") if tests else "error"  # nothing ran: fail the run, not 0/0
    result = {"version": 1, "status": status, "max_score": document["max_score"], "tests": tests}
    return json.dumps(result, ensure_ascii=False) + "\n"


def _status(test: dict[str, Any]) -> str:
    if test["status"] == "passed":
        return "pass"
    return "error" if test["extra_data"]["outcome"] == "grader error" else "fail"

