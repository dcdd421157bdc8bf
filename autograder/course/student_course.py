"""The part of the course file a student release carries: what students may see, as their own ``grade`` reads it.

Each function's points as the course makes them (from the hidden suite, so the public checks are worth the
same per function and the score line counts towards the same full marks), the feedback policy and Gradescope's
visibility, the limits, and the late rule with its due date. Never the secret, the extensions (other students'
dates), what the exports do, or a test's own points or weight: those name hidden tests.
"""

from __future__ import annotations

import json
from datetime import timedelta

from autograder.course.course_file import COURSE_FILE, CourseFile
from autograder.parts import PARTS
from autograder.scoring import feedback_policy
from autograder.scoring.points import SuitePoints

HEAD = f"""\
# The course's settings that students may see, read by this release's `grade`: written by the instructor's
# `grade release` from their {COURSE_FILE}. Edit the course's own file and build the release again instead.
"""


def student_course_text(course: CourseFile, points: SuitePoints) -> str:
    """The release's course file: ``course``'s visible settings, with ``points`` (the hidden suite's under
    ``course``) as each function's total."""
    lines = [HEAD, "[assignment]", f"name = {_text(course.name)}" if course.name else "", "", "[points]"]
    lines += [
        f'"{part.module}.{function}" = {points.of((part.module, function)):g}'
        for part in PARTS
        for function in part.functions
        if (part.module, function) in points.worth
    ]
    lines += ["", "[feedback]", f"policy = {_text(course.feedback or feedback_policy.DEFAULT)}"]
    lines += [f"gradescope_visibility = {_text(course.gradescope_visibility)}"] if course.gradescope_visibility else []
    lines += ["", "[limits]", *(f"{name} = {value!r}" for name, value in sorted(course.limits.items()))]
    late = course.late
    if late.due is not None:
        lines += [
            "",
            "[late]",
            f"due = {late.due.isoformat()}",
            f"time_zone = {_text(late.time_zone)}",
            f"grace_minutes = {late.grace / timedelta(minutes=1):g}",
            f"per = {_text(late.per)}",
            f"percent = {late.percent:g}",
            f"floor = {late.floor:g}",
            f"cap = {late.cap:g}",
        ]
    return "\n".join(line for line in lines if line is not None) + "\n"


def _text(value: str | None) -> str:
    """A TOML basic string: JSON's escapes (\\n, \\", \\uXXXX) are TOML's too, non-ASCII kept as it is."""
    return json.dumps(value or "", ensure_ascii=False)
