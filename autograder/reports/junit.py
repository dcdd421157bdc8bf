"""JUnit XML, for CI dashboards: one test case per graded test, one test suite per submission."""

from __future__ import annotations

from xml.etree import ElementTree

from autograder.engine.document import ResultsDocument
from autograder.engine.outcomes import Outcome
from autograder.engine.scoring import outcome_of, passed

DECLARATION = '<?xml version="1.0" encoding="utf-8"?>\n'


def render(document: ResultsDocument) -> str:
    suite = suite_element(document, document["extra_data"].get("submission", "submission"))
    return _serialise(suite)


def render_batch(documents: list[tuple[str, ResultsDocument]]) -> str:
    """A whole batch: ``documents`` are (student id, results document) pairs."""
    root = ElementTree.Element("testsuites", name="bpe-kit batch")
    for student, document in documents:
        root.append(suite_element(document, student))
    for total in ("tests", "failures", "errors"):
        root.set(total, str(sum(int(suite.get(total, "0")) for suite in root)))
    return _serialise(root)


def suite_element(document: ResultsDocument, name: str) -> ElementTree.Element:
    tests = document["tests"]
    failures = [test for test in tests if outcome_of(test) is Outcome.FAILED]
    errors = [test for test in tests if not passed(test) and test not in failures]
    suite = ElementTree.Element(
        "testsuite",
        name=name,
        tests=str(len(tests)),
        failures=str(len(failures)),
        errors=str(len(errors)),
        time=f"{document['execution_time']:.3f}",
    )
    for test in tests:
        extra = test["extra_data"]
        case = ElementTree.SubElement(
            suite, "testcase", classname=f"{extra['module']}.{extra['function']}", name=extra["test"]
        )
        if not passed(test):
            tag = "failure" if test in failures else "error"
            element = ElementTree.SubElement(case, tag, message=f"{extra['outcome']}: {extra['doc']}")
            element.text = test["output"]
    return suite


def _serialise(element: ElementTree.Element) -> str:
    ElementTree.indent(element)
    return DECLARATION + ElementTree.tostring(element, encoding="unicode") + "\n"
