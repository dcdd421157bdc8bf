"""Suites graded one after the other in one process stay apart."""

from __future__ import annotations

import ast
import subprocess
import sys

from autograder.points import suite_points


def test_the_hidden_suite_after_the_public_one_runs_its_own_tests():
    """A notebook's nbgrader cell checks the public tests, then the hidden ones, in one kernel."""
    public = suite_points("public")
    hidden = suite_points("hidden")
    alone = subprocess.run([sys.executable, "-c", "from autograder.points import suite_points\n"
                            "print(suite_points('hidden').worth)"], capture_output=True, text=True, check=True)
    assert hidden.worth == ast.literal_eval(alone.stdout)
    assert hidden.worth != public.worth
