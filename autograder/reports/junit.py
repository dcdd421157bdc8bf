"""JUnit XML, for CI dashboards: one test case per graded test, one test suite per submission."""

from __future__ import annotations

from xml.etree import ElementTree

from autograder.scoring.grade_result import GradeResult
from autograder.testing.outcomes import Outcome

DECLARATION = '<?xml version="1.0" encoding="utf-8"?>\n'


def render(result: GradeResult) -> str:
    suite = suite_element(result, result.submission or "submission")
    return _serialise(suite)


def render_batch(results: list[tuple[str, GradeResult]]) -> str:
    """A whole batch: ``results`` are (student id, result) pairs."""
    root = ElementTree.Element("testsuites", name="bpe-kit batch")
    for student, result in results:
        root.append(suite_element(result, student))
    for total in ("tests", "failures", "errors"):
        root.set(total, str(sum(int(suite.get(total, "0")) for suite in root)))
    return _serialise(root)


def suite_element(result: GradeResult, name: str) -> ElementTree.Element:
    tests = result.tests
    failures = [test for test in tests if test.outcome is Outcome.FAILED]
    errors = [test for test in tests if not test.passed and test not in failures]
    suite = ElementTree.Element(
        "testsuite",
        name=name,
        tests=str(len(tests)),
        failures=str(len(failures)),
        errors=str(len(errors)),
        time=f"{result.execution_time:.3f}",
    )
    for test in tests:
        case = ElementTree.SubElement(suite, "testcase", classname=f"{test.module}.{test.function}", name=test.test)
        if not test.passed:
            tag = "failure" if test in failures else "error"
            element = ElementTree.SubElement(case, tag, message=f"{test.outcome.value}: {test.doc}")
            element.text = test.output
    return suite


def _serialise(element: ElementTree.Element) -> str:
    ElementTree.indent(element)
    return DECLARATION + ElementTree.tostring(element, encoding="unicode") + "\n"
