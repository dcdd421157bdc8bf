"""Grade one hand-in end to end: load it, run the suite against it, build its result.

``grade_loaded`` is the one way from a loaded hand-in to its result: ``grade PATH``, the batch's
graders and a notebook's check cells all go through it.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from autograder.cage.cage import CageUnavailable
from autograder.cage.cage_limits import CageLimits
from autograder.cage.isolation import isolation
from autograder.cage.starting import start_worker
from autograder.grading.fingerprints import grading_hash
from autograder.grading.grading_limits import Limits
from autograder.grading.part_cache import PartCache, PartResult, file_digests, part_key
from autograder.hand_in import bounded, loading
from autograder.hand_in.hand_in_limits import HandInLimits
from autograder.hand_in.loaded import LoadedHandIn
from autograder.kit_root import KIT_ROOT
from autograder.parts import MODULES, part_of
from autograder.scoring.course_points import CoursePoints, repointed, repointed_tests
from autograder.scoring.grade_result import GradeResult, TestResult
from autograder.scoring.results import build_result
from autograder.scoring.student_text import visible
from autograder.testing import suites
from autograder.testing.grader import Grader
from autograder.testing.outcomes import Outcome

GRADABLE_SUFFIXES = (".py", ".ipynb", ".zip")
NO_HAND_IN = "no hand-in here: run grade inside your bpe-kit-student folder, or give the path"


class CannotGrade(Exception):
    """Grading could not start: the message is one line naming the problem and the fix."""


def grade_path(
    path: Path,
    *,
    suite: str | None = None,
    limits: Limits | None = None,
    parts: tuple[str, ...] = (),
    cache: PartCache | None = None,
    progress: Callable[[str], None] | None = None,
    grader: Grader | None = None,
    points: CoursePoints | None = None,
) -> GradeResult:
    """Grade ``path`` part by part; a release's own folder (or a repository made from it) grades its work folders.

    A student may work in the modules or in the notebooks, or in both: each part counts from the folder
    where it scores better, so Part 1 in a notebook and Part 2 in a module both count. ``parts`` (module
    names) grades only those parts; a file named after a part (``modules/bpe.py``) grades that part. With a
    ``cache``, a part whose files and grading did not change since it was last graded is not graded again.
    ``grader``: what a long-lived grader (a notebook's kernel) keeps between gradings; by default, one for
    this grading alone. ``points``: the course file's, over the tests' own marks (the cache keeps the marks').
    """
    # The sandbox probe (a caged `python -c pass`) waits on a child process: it runs while the hand-in is read.
    threading.Thread(target=isolation, daemon=True).start()
    limits = limits or Limits()
    suite_dir = _suite(suite)
    if not parts and path.is_file() and path.stem in MODULES:
        parts = (path.stem,)
    chosen = [module for module in MODULES if not parts or module in parts]
    hand_ins = _hand_ins(path, limits.hand_in)
    # After reading the hand-in: the hash names the cage, which the probe started above is finding meanwhile.
    grading = grading_hash(suite_dir, KIT_ROOT / "solutions", limits) if cache is not None else ""
    try:
        with contextlib.nullcontext(grader) if grader is not None else Grader() as using:
            graded = [
                _parts_of(loaded, chosen, suite_dir, limits.cage, cache, grading, progress, using)
                for loaded in hand_ins
            ]
    except CageUnavailable as error:  # root, and no cage that would keep student code from being root
        raise CannotGrade(str(error)) from None
    if cache is not None:
        cache.prune()
    name = hand_ins[0].name if len(hand_ins) == 1 else path.resolve().name
    return _combined(name, suite_dir, hand_ins, graded, chosen, points=points)


def _suite(name: str | None) -> Path:
    try:
        return suites.resolve(name)
    except suites.SuiteMissing as error:
        raise CannotGrade(str(error)) from None


def _hand_ins(path: Path, limits: HandInLimits) -> list[LoadedHandIn]:
    """What ``path`` holds: one hand-in, or a release's work folders (each that can be read)."""
    work = [path / folder for folder in loading.WORK_FOLDERS if path.is_dir() and (path / folder).is_dir()]
    if path.is_dir() and not work and _holds_nothing_gradable(path):
        raise CannotGrade(f"{path.resolve()}: {NO_HAND_IN}")  # before reading a home folder's thousands of files
    try:
        loaded = loading.load(path, limits)
    except bounded.HandInError as error:
        if not work:
            raise CannotGrade(str(error)) from None
        return [_load(folder, limits) for folder in work]
    return list(loaded.halves) or [loaded]  # a release's own folder: its work folders, each graded (and kept)


def _holds_nothing_gradable(folder: Path) -> bool:
    """No code, notebook or zip at the top, no part module in a folder just below it (src/ beside a README),
    and not one folder to look into (as a zip of a folder unpacks)."""
    try:
        entries = [entry for entry in folder.iterdir() if not entry.name.startswith(".")]
    except OSError:
        return False  # let loading say what is wrong
    if any(entry.suffix.lower() in GRADABLE_SUFFIXES for entry in entries if entry.is_file()):
        return False
    if any(_holds_a_part(entry) for entry in entries if entry.is_dir() and not entry.is_symlink()):
        return False
    return not (len(entries) == 1 and entries[0].is_dir())


def _holds_a_part(folder: Path) -> bool:
    """Whether ``folder`` holds a part module by name (one it cannot list does not: this is only a look)."""
    try:
        return any(loading.part_file(entry.name) is not None for entry in folder.iterdir())
    except OSError:
        return False


def _load(path: Path, limits: HandInLimits) -> LoadedHandIn:
    try:
        return loading.load(path, limits)
    except bounded.HandInError as error:
        raise CannotGrade(str(error)) from None


def _parts_of(
    loaded: LoadedHandIn,
    chosen: list[str],
    suite: Path,
    limits: CageLimits,
    cache: PartCache | None,
    grading: str,
    progress: Callable[[str], None] | None,
    grader: Grader,
) -> dict[str, tuple[PartResult, bool]]:
    """Each chosen part's result in this hand-in, and whether it came from the cache."""
    keys = {module: part_key(loaded, module, grading) for module in chosen} if cache is not None else {}
    found: dict[str, tuple[PartResult, bool]] = {}
    for module, key in keys.items():
        kept = cache.get(key) if cache is not None else None
        if kept is not None and kept.still_holds(loaded):
            found[module] = (kept, True)
    missing = [module for module in chosen if module not in found]
    if not missing:
        return found
    whole_suite = len(missing) == len(MODULES)
    only = () if whole_suite else tuple(suite / module for module in missing if (suite / module).is_dir())
    if not whole_suite and not only:  # this suite has no tests for them
        return found | {module: (PartResult(tests=[], notes=[], seconds=0.0), False) for module in missing}
    graded = grade_loaded(loaded, suite, limits=limits, grader=grader, only=only, progress=progress)
    read = graded.read
    for module, result in _by_part(graded, missing).items():
        names = None if read is None else [*read.get("", []), *read.get(module, []), *_own_files(module)]
        result = replace(result, depends=file_digests(loaded, names))
        found[module] = (result, False)
        # A collection's error (no part's module) or the grader's own error in a test is never kept.
        trouble = any(test.module not in MODULES or test.outcome is Outcome.GRADER_ERROR for test in result.tests)
        if cache is not None and not trouble:
            cache.put(keys[module], result)
    return found


def _own_files(module: str) -> list[str]:
    """The files that hold a part, read or not (one handed in later, say)."""
    return [f"{module}.py", f"{module}.ipynb"]


def _by_part(result: GradeResult, modules: list[str]) -> dict[str, PartResult]:
    """``result``'s tests of each of ``modules``; the grader's own errors (a collection's) go with each."""
    ours = [test for test in result.tests if test.module not in MODULES]  # collection errors
    return {
        module: PartResult(
            tests=[*result.tests_of(module), *ours],
            notes=list(result.notes or ()),  # each part's own list
            seconds=result.execution_time / len(modules),
            from_code=list(result.from_code or ()),
        )
        for module in modules
    }


def _combined(
    name: str,
    suite: Path,
    hand_ins: list[LoadedHandIn],
    graded: list[dict[str, tuple[PartResult, bool]]],
    chosen: list[str],
    student_seconds: float | None = None,
    points: CoursePoints | None = None,
) -> GradeResult:
    """One result named ``name``: each part from the hand-in where it scores better (the first on a tie), each
    test worth what ``points`` (the course file's) says."""
    points = points or CoursePoints()
    tests: list[TestResult] = []
    notes: list[str] = []
    from_code: list[str] = []  # of the notes, those the worker said (scoring.feedback_policy)
    seconds = 0.0
    graded_from: dict[str, str] = {}  # part module -> the hand-in it counted from, where there were several
    reused: list[str] = []
    for module in chosen:
        scores = [sum(test.score for test in repointed_tests(parts[module][0].tests, points)) for parts in graded]
        best = scores.index(max(scores))
        result, from_cache = graded[best][module]
        tests += [test for test in repointed_tests(result.tests, points) if test not in tests]
        notes += [note for note in result.notes if note not in notes]
        from_code += [note for note in result.from_code if note not in from_code]
        if len(hand_ins) > 1 and max(scores) > 0:
            graded_from[module] = hand_ins[best].name
        if from_cache:
            reused.append(f"Part {part_of(module).number}")
    for parts in graded:
        seconds += sum(result.seconds for result, from_cache in parts.values() if not from_cache)
    if graded_from:
        counted = ", ".join(f"Part {part_of(module).number} from {folder}/" for module, folder in graded_from.items())
        notes.insert(0, "each part counts from the folder where it scores better: " + counted)
    if reused:
        notes.append(f"unchanged since they were last graded: {', '.join(reused)} (results kept from then)")
    return GradeResult(
        score=round(sum(test.score for test in tests), 4),
        max_score=round(sum(test.max_score for test in tests), 4),
        execution_time=round(seconds, 3),
        output="\n".join(notes),
        tests=tuple(tests),
        submission=visible(name),
        suite=suite.name,
        notes=tuple(notes),
        from_code=tuple(from_code),
        student_seconds=round(student_seconds, 3) if student_seconds is not None else None,
        graded_from=graded_from or None,
    )


def grade_loaded(
    loaded: LoadedHandIn,
    suite: Path,
    *,
    limits: CageLimits,
    grader: Grader,
    only: tuple[Path, ...] = (),
    progress: Callable[[str], None] | None = None,
    points: CoursePoints | None = None,
) -> GradeResult:
    """The result of ``loaded`` graded with ``suite`` (or its test files ``only``) by ``grader``, each test worth
    what ``points`` (the course file's) says.

    The worker is set booting first; the runner (pytest, hypothesis) is imported while it boots. A release's
    own folder (``loaded.halves``) is graded folder by folder, each part counted where it scores better, as
    `grade` does.
    """
    if loaded.halves:
        graded, waited = [], 0.0
        for half in loaded.halves:
            half_graded = grade_loaded(half, suite, limits=limits, grader=grader, only=only, progress=progress)
            graded.append({module: (result, False) for module, result in _by_part(half_graded, list(MODULES)).items()})
            waited += half_graded.student_seconds or 0.0
        return _combined(
            loaded.name, suite, list(loaded.halves), graded, list(MODULES), student_seconds=waited, points=points
        )
    started = start_worker(loaded, limits, progress=progress, grader=grader)
    from autograder.testing.runner import grade_started

    return repointed(build_result(grade_started(started, suite, grader, only=only)), points or CoursePoints())
