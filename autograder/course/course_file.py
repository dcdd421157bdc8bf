"""The course file: one TOML file an instructor edits instead of the kit's code.

It holds the assignment's name, points per function or per test (over the tests' own marks), the feedback
policy and Gradescope's visibility, the limits, and the late rules (due date, time zone, grace period, the
rule, an extensions file), and what Canvas's import gives a student with no grade. ``grade make-course``
writes it with every setting at its default, commented out; anything it does not set stays the kit's.

Where it is: the file ``--course`` names, else ``course.toml`` in the folder the command runs in, else none
(every default). The course's secret (``.course-secret``, the hidden examples' seed) lives beside it.
"""

from __future__ import annotations

import difflib
import os
import shutil
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from autograder.course.late import PER, LateError, LatePolicy, read_extensions, read_time, zone_named
from autograder.grading.grading_limits import Limits
from autograder.kit_root import KIT_ROOT
from autograder.parts import PARTS
from autograder.run_errors import RunError
from autograder.scoring import feedback_policy
from autograder.scoring.course_points import CoursePoints
from autograder.testing.example_sets import SECRET_FILE, SECRET_FOLDER_VARIABLE
from autograder.testing.example_store import STORE_FOLDER
from autograder.testing.outcomes import Visibility

if TYPE_CHECKING:
    from autograder.scoring.points import SuitePoints

COURSE_FILE = "course.toml"
DEFAULT_NAME = "BPE exercises"
# Gradescope's visibility of a result (its "Autograder Specifications"), the default first.
VISIBILITIES = tuple(choice.value for choice in Visibility)
# What canvas.csv gives a roster student without a grade.
BLANK, ZERO = "blank", "zero"
TABLES = {
    "assignment": ("name",),
    "points": (),  # any "module.function" or "module.function::test"
    "weights": (),
    "feedback": ("policy", "gradescope_visibility"),
    "limits": tuple(Limits.names()),
    "late": ("due", "time_zone", "grace_minutes", "per", "percent", "floor", "cap", "extensions"),
    "exports": ("without_grade",),
    "policy": ("allow_modules",),  # modules a course's hand-ins may import besides the policy's (hand_in.policy)
}


class CourseFileError(RunError, ValueError):
    """The course file says something the kit cannot use; the message names the file, the setting and the fix."""


@dataclass(frozen=True)
class CourseFile:
    """What the course file sets; a default for everything it leaves out."""

    path: Path | None = None
    name: str | None = None
    points: CoursePoints = field(default_factory=CoursePoints)
    feedback: str | None = None
    gradescope_visibility: str | None = None
    limits: Mapping[str, Any] = field(default_factory=dict)  # by name, as --limit names them
    late: LatePolicy = field(default_factory=LatePolicy)
    without_grade: str = BLANK

    @property
    def folder(self) -> Path:
        """Where the course's own files live: beside the course file, or the kit's folder without one."""
        return self.path.parent if self.path is not None else KIT_ROOT

    def extensions(self) -> dict[str, datetime]:
        """Each student's own due date, from the extensions file; none without one."""
        if self.late.extensions is None:
            return {}
        try:
            return read_extensions(self.late.extensions, self.late)
        except LateError as error:
            raise CourseFileError(str(error)) from None

    def limits_with(self, changes: Mapping[str, Any]) -> Limits:
        """The course's limits, each of ``changes`` (a command line's) over them."""
        return Limits.from_dict({**self.limits, **changes})

    def suite_points(self, suite: str) -> SuitePoints:
        """What each function of ``suite`` is worth under this course file; CourseFileError where it names a test
        the suite does not have."""
        from autograder.scoring.points import CoursePointsError, suite_points  # pytest: not for a plain `grade`

        try:
            return suite_points(suite, self.points)
        except CoursePointsError as error:
            raise CourseFileError(f"{self.path}: [points]: {error}") from None


def find(given: Path | None, folder: Path | None = None) -> Path | None:
    """The course file: ``given``, else ``course.toml`` in ``folder`` (the working folder), else, in a student
    release, the one it carries (wherever the student runs ``grade``), else None."""
    if given is not None:
        return given
    here = (folder or Path.cwd()) / COURSE_FILE
    if here.is_file():
        return here
    released = KIT_ROOT / COURSE_FILE
    return released if released.is_file() and not (KIT_ROOT / "solutions").is_dir() else None


def load(given: Path | None, folder: Path | None = None) -> CourseFile:
    """The course file ``find`` finds, read; every default where there is none. The course's secret is then
    the one beside it, for this process and the graders it starts."""
    path = find(given, folder)
    if path is None:
        return CourseFile()
    course = read(path)
    os.environ[SECRET_FOLDER_VARIABLE] = str(course.folder.resolve())
    return course


def read(path: Path) -> CourseFile:
    """The course file at ``path``; CourseFileError naming the setting and the fix on anything it cannot use."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except OSError as error:
        raise CourseFileError(f"{path}: cannot be read ({error.strerror}); give the course file's path") from None
    except UnicodeDecodeError:
        raise CourseFileError(f"{path}: is not UTF-8 text; save it as UTF-8") from None
    except tomllib.TOMLDecodeError as error:
        raise CourseFileError(f"{path}: is not TOML ({error}); fix that line, as `key = value`") from None
    for table, value in raw.items():
        if table not in TABLES:
            raise CourseFileError(f"{path}: no table [{table}]; the tables are {', '.join(f'[{t}]' for t in TABLES)}")
        if not isinstance(value, dict):
            raise CourseFileError(f"{path}: {table} must be a table, [{table}], with its settings below it")
        allowed = TABLES[table]
        unknown = [key for key in value if allowed and key not in allowed]
        if unknown:
            raise CourseFileError(
                f"{path}: [{table}] has no setting {unknown[0]!r}; its settings are {', '.join(allowed)}"
            )
    reader = _Reader(path, raw)
    return CourseFile(
        path=path,
        name=reader.text("assignment", "name"),
        points=reader.points(),
        feedback=reader.choice("feedback", "policy", feedback_policy.MODES),
        gradescope_visibility=reader.choice("feedback", "gradescope_visibility", VISIBILITIES),
        limits=reader.limits() | reader.allowed_modules(),
        late=reader.late(),
        without_grade=reader.choice("exports", "without_grade", (BLANK, ZERO)) or BLANK,
    )


class _Reader:
    """Each setting of one course file, checked as it is read."""

    def __init__(self, path: Path, raw: dict[str, Any]) -> None:
        self.path = path
        self.raw = raw

    def fail(self, table: str, key: str, fix: str) -> CourseFileError:
        return CourseFileError(f"{self.path}: [{table}] {key}: {fix}")

    def value(self, table: str, key: str) -> Any:
        return self.raw.get(table, {}).get(key)

    def text(self, table: str, key: str) -> str | None:
        value = self.value(table, key)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise self.fail(table, key, 'write it as text in quotes, such as "BPE exercises"')
        return value

    def choice(self, table: str, key: str, choices: tuple[str, ...]) -> str | None:
        value = self.value(table, key)
        if value is not None and value not in choices:
            raise self.fail(table, key, f"{value!r} is not one of {', '.join(repr(choice) for choice in choices)}")
        return value

    def number(self, table: str, key: str, default: float, *, low: float = 0.0, high: float | None = None) -> float:
        value = self.value(table, key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float) or value < low or (high and value > high):
            bound = f"from {low:g} to {high:g}" if high is not None else f"{low:g} or more"
            raise self.fail(table, key, f"{value!r} is not a number {bound}")
        return float(value)

    def points(self) -> CoursePoints:
        functions = {(part.module, function) for part in PARTS for function in part.functions}
        given: dict[str, dict[tuple[str, ...], float]] = {"points": {}, "weights": {}}
        for table in given:
            for key, value in self.raw.get(table, {}).items():
                module, dot, rest = key.partition(".")
                function, separator, test = rest.partition("::")
                if not dot or (module, function) not in functions or (table == "weights" and not separator):
                    shape = "module.function::test_name" if table == "weights" else "module.function"
                    close = difflib.get_close_matches(f"{module}.{function}", [f"{m}.{f}" for m, f in functions], 1)
                    meant = f" (did you mean {close[0]!r}?)" if close else ""
                    raise self.fail(
                        table,
                        repr(key),
                        f"names no graded function{meant}; write {shape}, as `grade make-course` lists them",
                    )
                if separator and not (test.startswith("test_") and test.isidentifier()):
                    raise self.fail(table, repr(key), "name a test by its function's name: test_..., with no [case]")
                if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                    raise self.fail(table, repr(key), f"{value!r} is not a number of 0 or more")
                given[table][(module, function, test) if separator else (module, function)] = float(value)
        whole = {key: value for key, value in given["points"].items() if len(key) == 2}
        tests = {key: value for key, value in given["points"].items() if len(key) == 3}
        for module, function, test in tests:
            if (module, function) in whole:
                raise self.fail(
                    "points",
                    repr(f"{module}.{function}::{test}"),
                    f"{module}.{function} is given points as a whole too; give one or the other, and split a "
                    "function's points with [weights]",
                )
        for module, function, test in given["weights"]:
            if (module, function) not in whole:
                raise self.fail(
                    "weights",
                    repr(f"{module}.{function}::{test}"),
                    f"weights split the points [points] gives {module}.{function}; give it points there too",
                )
        return CoursePoints(whole, tests, given["weights"])  # type: ignore[arg-type]

    def limits(self) -> dict[str, Any]:
        defaults = Limits().as_dict()
        chosen: dict[str, Any] = {}
        for name, value in self.raw.get("limits", {}).items():
            kind = type(defaults[name])
            fits = isinstance(value, int) if kind is int else isinstance(value, int | float)
            if isinstance(value, bool) or not fits or value <= 0:
                raise self.fail("limits", name, f"{value!r} is not {'a whole' if kind is int else 'a'} number above 0")
            chosen[name] = kind(value)
        return chosen

    def allowed_modules(self) -> dict[str, Any]:
        """``[policy] allow_modules``, as the limits carry it (HandInLimits.allow_modules); none by default."""
        value = self.value("policy", "allow_modules")
        if value is None:
            return {}
        if not isinstance(value, list) or not all(isinstance(name, str) and name for name in value):
            raise self.fail("policy", "allow_modules", 'give a list of module names, as allow_modules = ["numpy"]')
        return {"allow_modules": tuple(sorted(set(value)))}

    def late(self) -> LatePolicy:
        zone_name = self.text("late", "time_zone") or "UTC"
        try:
            zone = zone_named(zone_name)
        except LateError as error:
            raise self.fail("late", "time_zone", str(error)) from None
        due = self.value("late", "due")
        if isinstance(due, str):
            due = read_time(due, zone) or due
        if isinstance(due, date) and not isinstance(due, datetime):
            raise self.fail("late", "due", f"give a time too: due = {due.isoformat()}T23:59:00")
        if isinstance(due, time) or (due is not None and not isinstance(due, datetime)):
            raise self.fail("late", "due", "write a date and time: due = 2026-11-20T23:59:00")
        if isinstance(due, datetime) and due.tzinfo is None:
            due = due.replace(tzinfo=zone)
        per = self.choice("late", "per", tuple(PER)) or "day"
        extensions = self.text("late", "extensions")
        return LatePolicy(
            due=due,
            time_zone=zone_name,
            grace=timedelta(minutes=self.number("late", "grace_minutes", 0.0)),
            per=per,
            percent=self.number("late", "percent", 0.0, high=100.0),
            floor=self.number("late", "floor", 0.0, high=100.0),
            cap=self.number("late", "cap", 100.0, high=100.0),
            extensions=(self.path.parent / extensions) if extensions else None,
        )


def keep_secret_beside(course: Path) -> list[str]:
    """Put the course's secret beside a new course file: the kit's own, where it has one (the hidden examples
    then stay those graded so far), and keep it and the examples kept beside it (example_store) out of git
    there. Lines saying what was done."""
    folder = course.parent
    said: list[str] = []
    secret, kit_secret = folder / SECRET_FILE, KIT_ROOT / SECRET_FILE
    if not secret.exists() and kit_secret.is_file() and folder.resolve() != KIT_ROOT.resolve():
        shutil.copyfile(kit_secret, secret)
        secret.chmod(0o600)
        said.append(f"copied the kit's {SECRET_FILE} to {secret}: hand-ins draw the hidden examples they drew before")
    ignore = folder / ".gitignore"
    kept = ignore.read_text(encoding="utf-8") if ignore.is_file() else ""
    missing = [name for name in (SECRET_FILE, f"{STORE_FOLDER}/") if name not in kept.splitlines()]
    if missing:
        with ignore.open("a", encoding="utf-8") as written:
            written.write(("\n" if kept and not kept.endswith("\n") else "") + "".join(f"{name}\n" for name in missing))
        said.append(f"added {', '.join(missing)} to {ignore}: the secret and its examples are never committed")
    return said
