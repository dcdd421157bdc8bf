"""Every error that stops a whole run shares one base, so the command line turns each into its one-line
message and exit code in one handler, and none slips past it as a traceback."""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import autograder
from autograder import cli
from autograder.cage import doctor, isolation
from autograder.cage.bubblewrap_pin import BubblewrapChanged
from autograder.run_errors import CANNOT_GRADE, RunError

PACKAGE = Path(autograder.__file__).parent
CLI = PACKAGE / "cli.py"
ONE_PLACE = ("DefaultCommandGroup", "invoke")  # the class and method where the command line catches RunError

# Each run-level error the batch, the course and the authoring commands raise, by module and class name.
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
    ("autograder.hand_in.lms.found", "DiscoveryError"),
    ("autograder.course.batch.request", "CageRefused"),
    ("autograder.course.batch.request", "FolderRefused"),
    ("autograder.course.batch.plan", "ResultsMissing"),
    ("autograder.testing.example_sets", "SecretUnreadable"),
    ("autograder.testing.suites", "SuiteMissing"),
    ("autograder.authoring.release", "ReleaseError"),
    ("autograder.authoring.notebooks", "ExerciseSourceError"),
    ("autograder.authoring.stubs", "MarkerError"),
    ("autograder.scoring.points", "CoursePointsError"),
    ("autograder.scoring.points", "PointsTableMissing"),
    ("autograder.cage.cage", "CageUnavailable"),
    ("autograder.cage.bubblewrap_pin", "BubblewrapChanged"),
)

# The package's exceptions that are not run errors (run_errors.py's rule), each with why none stops a command.
HAND_IN_RESULTS = {
    "autograder.grading.hand_in.CannotGrade": "one hand-in could not be graded: the Gradescope runner makes it "
    "that student's result; `grade PATH`, whose run is that one hand-in, says it as a RunError",
    "autograder.hand_in.bounded.HandInError": "a hand-in that cannot be read: a failed row of the batch",
    "autograder.hand_in.lms.uploads.UploadConflict": "a student's uploads that disagree: that hand-in's conflict",
    "autograder.hand_in.lms.downloads._Named": "a HandInError that names the student it is about",
    "autograder.cage.inside.bootstrap.LoadFailed": "student code did not load, in its worker: its parts' outcome",
    "autograder.cage.inside.call_folders.FolderError": "a call's folder in the worker: that call's outcome",
    "autograder.cage.inside.codec.CodecError": "a message the worker or its code sent that is not plain data",
    "autograder.cage.inside.codec.TooLarge": "an answer too large to send back: that call's outcome",
    "autograder.cage.inside.streams.ReadTooFar": "raised into student code that read an endless stream too far: "
    "that call's outcome",
    "autograder.cage.inside.tripwire.BuiltCodeRefused": "raised in student code's worker, as its own exception",
    "autograder.cage.client.WorkerGone": "the hand-in's worker ended: that test's outcome",
    "autograder.cage.client.WorkerNotLoaded": "the hand-in's code did not load in its worker",
    "autograder.cage.client.PolicyRefused": "the hand-in's code is refused by the plain-Python policy",
    "autograder.cage.client.ChannelBroken": "the hand-in's worker broke its channel",
    "autograder.cage.client.AnswerTooLarge": "the hand-in's answer is over the limit",
    "autograder.cage.client.OutOfStep": "the hand-in's worker answered out of step",
    "autograder.cage.client.WorkerTimedOut": "the hand-in's call took too long",
    "autograder.cage.client.WorkerCouldNotStart": "the hand-in's worker did not start: its tests' outcome",
    "autograder.testing.proxy.StudentRaised": "student code raised: the test it raised in fails",
    "autograder.testing.proxy.WrongType": "student code answered the wrong type: the test fails",
    "autograder.testing.tokenizer_files.TokenizerFileError": "the files a hand-in saved cannot be read: the "
    "test that reads them fails",
    "autograder.notebook.jupyter.CheckFailed": "a student's own check in their notebook: raised in their kernel",
}
# Raised only for the kit's own caller, which catches each by name and goes on (a cage steps down) or words
# it as its own error (the batch's request, as a RunError).
CAUGHT_BY_THE_KIT = {
    "autograder.cage.cage_place.CagesUnreachable": "the probe steps down to no cage, which doctor explains",
    "autograder.cage.landlock.LandlockUnavailable": "the cage goes on without Landlock",
    "autograder.cage.tree_limits.TreeLimitsUnavailable": "the cage goes on without its control groups",
    "autograder.cage.isolation.CageRequired": "the batch's request words it as CageRefused",
    "autograder.cage.shield.GuardError": "the batch's request words it as FolderRefused",
}
# Handlers in cli.py of a class that some run errors also derive from, and why they can catch none of them.
CLI_HANDLERS_ALLOWED = {
    ("parse_limits", "ValueError"): "around int() or float() of one --limit value: no kit code runs in it",
}


def package_exceptions() -> Iterator[tuple[str, type[Exception]]]:
    """Every exception class the package defines, by its dotted name. StudentStopped and its kind derive
    from BaseException so that no test's ``except Exception`` stops them: they end a test, never a command."""
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        for value in vars(importlib.import_module(name)).values():
            if inspect.isclass(value) and issubclass(value, Exception) and value.__module__ == name:
                yield f"{name}.{value.__qualname__}", value


@pytest.mark.unit
@pytest.mark.parametrize(("module", "name"), RUN_LEVEL)
def test_each_run_level_error_is_a_run_error_that_cannot_grade(module: str, name: str) -> None:
    error = getattr(importlib.import_module(module), name)
    assert issubclass(error, RunError)
    assert error.exit_code == CANNOT_GRADE


@pytest.mark.unit
def test_every_exception_of_the_package_is_a_run_error_or_placed_outside_with_why() -> None:
    found = dict(package_exceptions())
    outside = {**HAND_IN_RESULTS, **CAUGHT_BY_THE_KIT}
    unplaced = [name for name, error in found.items() if not issubclass(error, RunError) and name not in outside]
    assert not unplaced, f"a RunError (run_errors.py's rule), or listed here with why it stops no command: {unplaced}"
    assert not set(HAND_IN_RESULTS) & set(CAUGHT_BY_THE_KIT)
    for name in outside:
        assert name in found, f"{name}: no such exception any more; take it off the list"
        assert not issubclass(found[name], RunError), f"{name}: a RunError now; take it off the list"
    assert {f"{module}.{name}" for module, name in RUN_LEVEL} <= set(found)


def caught_names(tree: ast.AST) -> Iterator[tuple[ast.ExceptHandler, ast.expr | None]]:
    """Each handler of ``tree`` with each type it names (None for a bare ``except:``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ExceptHandler):
            if node.type is None:
                yield node, None
            else:
                yield from (
                    (node, each) for each in (node.type.elts if isinstance(node.type, ast.Tuple) else [node.type])
                )


def spelled(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


@pytest.mark.unit
def test_each_error_the_kit_catches_for_its_caller_is_caught_by_name_outside_the_command_line() -> None:
    caught = {
        spelled(each)
        for path in PACKAGE.rglob("*.py")
        if path != CLI
        for _, each in caught_names(ast.parse(path.read_text(encoding="utf-8")))
        if each is not None
    }
    for name, why in CAUGHT_BY_THE_KIT.items():
        assert name.rsplit(".", 1)[1] in caught, f"{name} ({why}): caught nowhere, so it would reach the CLI"


def within(tree: ast.Module) -> dict[ast.AST, tuple[str, ...]]:
    """Each node of ``tree`` with the names of the classes and functions it is inside, outermost first."""
    places: dict[ast.AST, tuple[str, ...]] = {}

    def visit(node: ast.AST, names: tuple[str, ...]) -> None:
        places[node] = names
        inner = (*names, node.name) if isinstance(node, ast.ClassDef | ast.FunctionDef) else names
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    visit(tree, ())
    return places


def imports_of(tree: ast.Module) -> dict[str, Any]:
    """What each name cli.py imports (anywhere in it) stands for."""
    names: dict[str, Any] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                names[alias.asname or alias.name] = importlib.import_module(alias.name)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                names[alias.asname or alias.name] = getattr(importlib.import_module(node.module), alias.name)
    return names


def resolved(node: ast.expr, names: dict[str, Any]) -> Any:
    if isinstance(node, ast.Attribute):
        return getattr(resolved(node.value, names), node.attr)
    assert isinstance(node, ast.Name), ast.unparse(node)
    return names[node.id] if node.id in names else getattr(builtins, node.id)


@pytest.mark.unit
def test_the_command_line_catches_run_errors_and_exits_for_them_in_one_place() -> None:
    tree = ast.parse(CLI.read_text(encoding="utf-8"))
    places = within(tree)
    names = imports_of(tree)
    # A class some run errors derive from (ValueError, Exception) catches them too where it is caught.
    under_run_errors = {
        base for _, error in package_exceptions() if issubclass(error, RunError) for base in error.__mro__
    }
    in_one_place = []
    for handler, each in caught_names(tree):
        place = places[handler]
        caught = resolved(each, names) if each is not None else BaseException
        if place[-2:] == ONE_PLACE:
            in_one_place.append(caught)
            continue
        allowed = (place[-1] if place else "", spelled(each) if each is not None else "") in CLI_HANDLERS_ALLOWED
        assert allowed or caught not in under_run_errors, (
            f"cli.py line {handler.lineno}, in {'.'.join(place)}: catches {caught.__name__}, a run error or a base "
            f"of some; let it reach {'.'.join(ONE_PLACE)}, which says it and exits"
        )
    assert in_one_place == [RunError], "the one place catches RunError, and only it"

    for node in ast.walk(tree):
        where = ".".join(places[node])
        if isinstance(node, ast.Call):
            called = ast.unparse(node.func)
            assert called not in ("sys.exit", "exit", "quit"), f"cli.py line {node.lineno}, in {where}: {called}"
            # Ctrl-C's way out of a batch: Python's own exit would wait on the stopped pool (see _stopped).
            assert called != "os._exit" or where == "_stopped", f"cli.py line {node.lineno}, in {where}: os._exit"
        elif isinstance(node, ast.Raise) and node.exc is not None:
            raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            assert spelled(raised) != "SystemExit", f"cli.py line {node.lineno}, in {where}: raises SystemExit"
        elif isinstance(node, ast.ImportFrom) and node.module == "sys":
            assert "exit" not in {alias.name for alias in node.names}, f"cli.py line {node.lineno}: sys's exit"


@pytest.mark.unit
def test_a_run_error_is_one_line_after_its_commands_name_and_ends_with_its_exit_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    course = tmp_path / "course.toml"
    course.write_text("", encoding="utf-8")
    said = CliRunner().invoke(cli.main, ["make-course", str(course)])
    assert (said.exit_code, said.stderr) == (
        CANNOT_GRADE,
        f"grade make-course: {course}: exists; edit it, or give another path\n",
    )
    assert said.stdout == ""

    # grade PATH probes the cage while it reads the hand-in: a probe found already, so no process starts.
    monkeypatch.setattr(isolation, "_probed", [isolation.Probe(isolation.Isolation.PROCESS)])
    missing = tmp_path / "missing"
    said = CliRunner().invoke(cli.main, [str(missing), "--course", str(course)])  # grade PATH: the default command
    assert said.exit_code == CANNOT_GRADE, said.output
    assert said.stderr.startswith(f"grade: {missing}: ") and said.stderr.count("\n") == 1, said.stderr


@pytest.mark.unit
def test_doctors_run_error_ends_with_its_answer_that_grading_would_refuse_here(monkeypatch: pytest.MonkeyPatch) -> None:
    def changed() -> None:
        raise BubblewrapChanged("bwrap: changed")

    monkeypatch.setattr(doctor, "diagnose", changed)
    said = CliRunner().invoke(cli.main, ["doctor"])
    assert (said.exit_code, said.stderr) == (cli.EXIT_DOCTOR_REFUSES, "grade doctor: bwrap: changed\n")
    assert BubblewrapChanged.exit_code != cli.EXIT_DOCTOR_REFUSES, "the command's code, not the error's"


@pytest.mark.unit
@pytest.mark.parametrize(
    ("command", "module", "function", "error"),
    [
        ("make-stubs", "autograder.authoring.stubs", "write_stubs", "MarkerError"),
        ("make-notebooks", "autograder.authoring.notebooks", "write_notebooks", "ExerciseSourceError"),
    ],
)
def test_a_mistake_in_the_sources_an_authoring_command_reads_is_one_line(
    monkeypatch: pytest.MonkeyPatch, command: str, module: str, function: str, error: str
) -> None:
    """A marker or an @exercise solutions/ or exercises/src get wrong (it used to end in a traceback)."""
    home = importlib.import_module(module)
    raised = getattr(home, error)

    def mistaken(*_: object, **__: object) -> None:
        raise raised("solutions/bpe.py:3: the mistake; the fix")

    monkeypatch.setattr(home, function, mistaken)
    said = CliRunner().invoke(cli.main, [command])
    assert (said.exit_code, said.stderr) == (
        CANNOT_GRADE,
        f"grade {command}: solutions/bpe.py:3: the mistake; the fix\n",
    )
    assert said.stdout == "", "nothing is said to be written"
