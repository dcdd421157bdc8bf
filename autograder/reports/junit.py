"""JUnit XML, for CI dashboards: one test case per graded test."""

from __future__ import annotations

from typing import Any
from xml.etree import ElementTree


def render(document: dict[str, Any]) -> str:
    tests = document["tests"]
    failures = [test for test in tests if test["extra_data"]["outcome"] == "failed"]
    errors = [test for test in tests if test["status"] != "passed" and test not in failures]
    suite = ElementTree.Element(
        "testsuite",
        name=str(document.get("extra_data", {}).get("submission", "submission")),
        tests=str(len(tests)),
        failures=str(len(failures)),
        errors=str(len(errors)),
        time=f"{document['execution_time']:.3f}",
    )
    for test in tests:
        extra = test["extra_data"]
        case = ElementTree.SubElement(suite, "testcase", classname=f"{extra['module']}.{extra['function']}",
                                      name=extra["test"])
        if test["status"] != "passed":
            tag = "failure" if test in failures else "error"
            element = ElementTree.SubElement(case, tag, message=f"{extra['outcome']}: {extra['doc']}")
            element.text = test["output"]
    ElementTree.indent(suite)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(suite, encoding="unicode") + "\n"
