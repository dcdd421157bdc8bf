"""Every error that stops a whole run shares one base, so the command line turns each into its one-line
message and exit code in one handler, and none slips past it as a traceback."""

from __future__ import annotations

import importlib

import pytest

from autograder.run_errors import CANNOT_GRADE, RunError

# Each run-level error the batch and the course commands raise, by module and class name.
RUN_LEVEL = (
    ("autograder.course.jobs", "JobsError"),
    ("autograder.course.nbgrader_export", "NbgraderExportError"),
    ("autograder.course.course_file", "CourseFileError"),
    ("autograder.course.late", "LateError"),
    ("autograder.course.batch.manual_files", "ManualFilesError"),
    ("autograder.course.batch.choices", "ChoicesError"),
    ("autograder.course.batch.roster", "RosterError"),
    ("autograder.course.batch.selection", "SelectionError"),
    ("autograder.course.batch.adjustments", "AdjustmentsError"),
    ("autograder.course.batch.discover", "DiscoveryError"),
    ("autograder.course.batch.request", "CageRefused"),
    ("autograder.course.batch.request", "FolderRefused"),
    ("autograder.course.batch.plan", "ResultsMissing"),
)


@pytest.mark.unit
@pytest.mark.parametrize(("module", "name"), RUN_LEVEL)
def test_each_run_level_error_is_a_run_error_that_cannot_grade(module: str, name: str) -> None:
    error = getattr(importlib.import_module(module), name)
    assert issubclass(error, RunError)
    assert error.exit_code == CANNOT_GRADE
