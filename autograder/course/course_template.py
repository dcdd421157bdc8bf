"""The course file ``grade make-course`` writes: every setting at its default, commented out, each explained.

The points it lists are the tests' own marks, read from the hidden suite as it is now, so uncommenting a
line changes nothing until its number is changed.
"""

from __future__ import annotations

from collections import defaultdict

from autograder.course.course_file import BLANK, DEFAULT_NAME, VISIBILITIES, ZERO
from autograder.course.late import PER, LatePolicy
from autograder.grading.grading_limits import Limits
from autograder.parts import PARTS
from autograder.scoring import feedback_policy
from autograder.scoring.course_points import test_function
from autograder.scoring.points import suite_tests
from autograder.scoring.scoring import points_number

HEAD = """\
# The course file: what this course changes of the kit's defaults, in one place.
#
# grade, grade batch, grade points and grade gradescope read course.toml in the folder they run in, or the
# file that --course names. Every setting is written below at its default, commented out: take the # off a
# line to change it. An option given on the command line wins over this file for that run.
# The course's secret, .course-secret, lives beside this file: keep it (it seeds the hidden examples), copy it
# to every machine that grades this course, and never commit it.
"""


def template() -> str:
    """The course file's text, with the hidden suite's points as they are now."""
    late = LatePolicy()
    tests, bonus = suite_tests("hidden")
    module, function, test, _ = tests[0]
    sections = [
        HEAD,
        "[assignment]",
        "# The assignment's name: the class summary's title and the Canvas import's column (name it exactly as",
        "# the Canvas assignment). grade batch --title overrides it.",
        f'# name = "{DEFAULT_NAME}"',
        "",
        "[points]",
        '# What a function is worth, as "module.function" = points: split evenly over its tests, or as [weights]',
        '# says. Or what one test is worth, as "module.function::test_name" = points (each case of a parametrized',
        "# test), for a function not given as a whole. The numbers below are the tests' own marks, which hold",
        "# wherever this file says nothing: a function's line is its marks' sum, its tests' lines how the marks",
        "# split it (to keep that split at a new total, copy them into [weights]). A bonus function stays a bonus.",
        "# Changed points regrade every hand-in at the next grade batch; grade points --update README.md rewrites",
        "# the README's table.",
        "",
        *_points_lines(tests, bonus),
        "[weights]",
        "# How a function's points in [points] are split over its tests, by relative weight (1 for a test not",
        '# named), as "module.function::test_name" = weight. None by default: an even split. For example:',
        f'# "{module}.{function}::{test_function(test)}" = 2',
        "",
        "[feedback]",
        '# What students see of the hidden tests, in grade batch\'s feedback and on Gradescope: "failures" (the',
        '# failing call, expected, got and the hint), "scores" (points, and the failed checks in words only) or',
        '# "full" (every test with its call: it shows the hidden inputs). --feedback overrides it.',
        f'# policy = "{feedback_policy.DEFAULT}"',
        "# Gradescope's visibility of the whole result, built into the package by grade gradescope:",
        "# " + ", ".join(f'"{choice}"' for choice in VISIBILITIES) + ".",
        f'# gradescope_visibility = "{VISIBILITIES[0]}"',
        "",
        "[limits]",
        "# What a hand-in and its worker may take (the docs' Limits page says what each is); --limit NAME=VALUE",
        "# overrides one for a run. Changed limits regrade every hand-in.",
        *[f"# {name} = {value!r}" for name, value in Limits().as_dict().items()],
        "",
        "[late]",
        "# The due date, as a TOML date and time in time_zone (or with an offset of its own,",
        "# 2026-11-20T23:59:00+01:00). Without one, nothing is late and nothing is taken.",
        "# due = 2026-11-20T23:59:00",
        "# The zone of the due date and of every time written without one (Moodle's worksheet, a zip's files).",
        f'# time_zone = "{late.time_zone}"',
        "# Minutes past a due date (or an extension's) that still count as on time; past them, lateness counts",
        "# from the due date.",
        f"# grace_minutes = {late.grace.total_seconds() / 60:g}",
        "# The late rule, as Canvas's late policy: percent of full marks off per "
        + " or ".join(f'"{name}"' for name in PER)
        + " late (a",
        "# part of one counts whole), never below floor percent of full marks (a score already below it stays),",
        "# and a late hand-in scores at most cap percent of full marks. Applied at every grade batch, nothing",
        "# graded again; each late student's feedback says how late and what it cost.",
        f'# per = "{late.per}"',
        f"# percent = {late.percent:g}",
        f"# floor = {late.floor:g}",
        f"# cap = {late.cap:g}",
        "# A CSV beside this file, one row a student with an extension: student,due (the id as the gradebook",
        "# shows it, and their own due date: 2026-11-27 23:59, in time_zone).",
        '# extensions = "extensions.csv"',
        "",
        "[exports]",
        "# What canvas.csv and moodle.csv give a roster student with no grade (nothing handed in, or a hand-in",
        f'# that could not be graded): "{BLANK}" (the LMS leaves their grade as it is) or "{ZERO}". canvas.csv\'s',
        "# Notes column says why either way.",
        f'# without_grade = "{BLANK}"',
    ]
    return "\n".join(sections) + "\n"


def _points_lines(tests: list[tuple[str, str, str, float]], bonus: frozenset[tuple[str, str]]) -> list[str]:
    marks: dict[tuple[str, str], dict[str, float]] = defaultdict(dict)
    totals: dict[tuple[str, str], float] = defaultdict(float)
    for module, function, test, marked in tests:
        marks[(module, function)][test_function(test)] = marked
        totals[(module, function)] += marked
    lines: list[str] = []
    for part in PARTS:
        lines += [f"# Part {part.number}. {part.title}"]
        for function in part.functions:
            key = (part.module, function)
            if key not in totals:
                continue
            extra = "  # bonus" if key in bonus else ""
            lines.append(f'# "{part.module}.{function}" = {points_number(totals[key])}{extra}')
            lines += [
                f'#   "{part.module}.{function}::{test}" = {points_number(marked)}'
                for test, marked in marks[key].items()
            ]
        lines.append("")
    return lines
