"""What leaves the instructor's repository: the student release and the Gradescope autograder.

The student release holds the generated stubs, the exercise notebooks, the
public tests and the grader, and never a solution or a hidden test: the
build reads every file it wrote and fails if one holds a line of a solution
region or a statement of a hidden test, whatever the file is called.
The Gradescope package holds the whole grader with the hidden tests, since
Gradescope never shows it to students.
"""

from __future__ import annotations

import ast
import importlib.metadata
import shutil
import tempfile
import tomllib
import zipfile
from collections.abc import Iterable
from pathlib import Path

from autograder import __version__
from autograder.atomic_files import replacing
from autograder.authoring.stubs import expected_stubs, leaked, solution_lines
from autograder.course.course_file import COURSE_FILE, CourseFile
from autograder.hand_in.notebook_format import import_nbformat
from autograder.hand_in.policy import POLICY_PAGE
from autograder.kit_root import KIT_ROOT
from autograder.parts import PARTS
from autograder.run_errors import RunError
from autograder.scoring import feedback_policy
from autograder.testing.example_sets import SECRET_FILE, course_secret

RELEASE_NAME = "bpe-kit-student"
NOTEBOOKS_EXTRA = "notebooks"  # what working in the notebooks adds to the grader: pip install -e ".[notebooks]"
MARKER = ".bpe-kit-release"  # names a folder this module built, so a rebuild may replace it
TEMPLATES = Path(__file__).parents[1] / "templates"  # package data, beside cli.py
STUDENT_PAGE = Path("docs") / "students.md"
ENGINE_IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc")
EXECUTABLES = ("setup.sh", "run_autograder")  # Gradescope runs these two


class ReleaseError(RunError):
    """The release or package cannot be built: one line naming the problem and the fix."""


def build_release(
    out: Path, *, github_classroom: bool = False, kit: Path = KIT_ROOT, course: CourseFile | None = None
) -> tuple[Path, Path]:
    """Write ``OUT/bpe-kit-student/`` and ``OUT/bpe-kit-student.zip``; return both. The release carries the
    ``course`` file's visible part (course.student_course), which its ``grade`` reads."""
    _require_instructor_kit(kit)
    _outside_copied(out, kit, RELEASE_COPIES)
    course = course or CourseFile()
    folder = out / RELEASE_NAME
    if folder.exists() and not (folder / MARKER).exists():
        raise ReleaseError(f"{folder}: exists and was not made by `grade release`; choose another OUT")
    with tempfile.TemporaryDirectory(prefix=".release-", dir=_made(out)) as staging:
        built = Path(staging) / RELEASE_NAME
        _write_release(built, kit, github_classroom=github_classroom)
        _write_course(built, course)
        problems = release_leaks(built, kit)
        if problems:
            shown = "; ".join(problems[:3]) + (f" and {len(problems) - 3} more" if len(problems) > 3 else "")
            raise ReleaseError(f"the release would leak instructor material: {shown}; nothing was written")
        archive = _zip(built, out / f"{RELEASE_NAME}.zip", top=RELEASE_NAME)
        if folder.exists():
            shutil.rmtree(folder)
        built.rename(folder)
    return folder, archive


def _require_instructor_kit(kit: Path) -> None:
    for needed in ("solutions", "tests/hidden"):
        if not (kit / needed).is_dir():
            raise ReleaseError(
                f"{kit / needed}: missing; run this in the instructor's copy of the kit, not in a student release"
            )


# The kit's folders each build copies whole: an output inside one would be copied into itself.
# The release's copies: the kit's folder -> where it lands in the release.
RELEASE_COPIES = {"autograder": "autograder", "tests/public": "tests/public", "exercises/data": "notebooks/data"}
GRADESCOPE_COPIES = ("autograder", "solutions", "tests/hidden", "tests/public", "exercises/data")


def _outside_copied(out: Path, kit: Path, copies: Iterable[str]) -> None:
    for part in copies:
        if out.resolve().is_relative_to((kit / part).resolve()):
            raise ReleaseError(f"{out}: inside {kit / part}, which the build copies whole; choose a folder outside it")


def _made(out: Path) -> Path:
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ReleaseError(f"{out}: cannot be created ({error.strerror}); choose another folder") from None
    return out


def _write_release(folder: Path, kit: Path, *, github_classroom: bool) -> None:
    for copied, landing in RELEASE_COPIES.items():
        shutil.copytree(kit / copied, folder / landing, ignore=ENGINE_IGNORED)
    modules = folder / "modules"
    modules.mkdir()
    for name, text in expected_stubs(kit / "solutions").items():
        (modules / name).write_text(text, encoding="utf-8")
    notebooks = folder / "notebooks"
    for part in PARTS:
        notebook = kit / "exercises" / f"{part.module}.ipynb"
        if notebook.exists():
            shutil.copy2(notebook, notebooks / notebook.name)
    shutil.copy2(kit / STUDENT_PAGE, folder / "README.md")  # the docs site's page for students, word for word
    (folder / POLICY_PAGE).parent.mkdir(parents=True)
    shutil.copy2(kit / POLICY_PAGE, folder / POLICY_PAGE)  # a refusal names this page: the student has it too
    (folder / "pyproject.toml").write_text(student_pyproject(kit), encoding="utf-8")
    if github_classroom:
        workflows = folder / ".github" / "workflows"
        workflows.mkdir(parents=True)
        shutil.copy2(TEMPLATES / "classroom.yml", workflows / "classroom.yml")
    (folder / MARKER).write_text("made by `grade release`; rebuilt in place\n", encoding="utf-8")


def _write_course(folder: Path, course: CourseFile) -> None:
    """The course file's visible part, as the release's course.toml, read back as the release will read it."""
    from autograder.course.course_file import CourseFileError, read
    from autograder.course.student_course import student_course_text

    written = folder / COURSE_FILE
    try:
        written.write_text(student_course_text(course, course.suite_points("hidden")), encoding="utf-8")
        read(written)
    except CourseFileError as error:
        raise ReleaseError(f"the release's {COURSE_FILE} cannot be made: {error}") from None


def student_pyproject(kit: Path = KIT_ROOT) -> str:
    """The release's pyproject.toml: the kit's own project, without the instructor's extras."""
    project = tomllib.loads((kit / "pyproject.toml").read_text(encoding="utf-8"))
    meta = project["project"]
    setuptools = project["tool"]["setuptools"]
    dependencies = "".join(f'    "{requirement}",\n' for requirement in meta["dependencies"])
    notebooks = ", ".join(f'"{requirement}"' for requirement in meta["optional-dependencies"][NOTEBOOKS_EXTRA])
    packages = ", ".join(f'"{package}"' for package in setuptools["packages"])
    data = ", ".join(f'"{pattern}"' for pattern in setuptools["package-data"]["autograder"])
    return (
        '[build-system]\nrequires = ["setuptools>=68"]\nbuild-backend = "setuptools.build_meta"\n\n'
        f'[project]\nname = "{RELEASE_NAME}"\nversion = "{__version__}"\n'
        'description = "Byte Pair Encoding exercises, with their grader"\n'
        f'requires-python = "{meta["requires-python"]}"\ndependencies = [\n{dependencies}]\n\n'
        f"[project.optional-dependencies]\n{NOTEBOOKS_EXTRA} = [{notebooks}]\n\n"
        '[project.scripts]\ngrade = "autograder.cli:main"\n\n'
        f"[tool.setuptools]\npackages = [{packages}]\n\n"
        f"[tool.setuptools.package-data]\nautograder = [{data}]\n"
    )


def release_leaks(folder: Path, kit: Path = KIT_ROOT) -> list[str]:
    """Each file of ``folder`` that is or holds instructor material, as "path: what"."""
    secret = solution_lines(kit / "solutions") | hidden_test_lines(kit)
    problems: list[str] = []
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder).as_posix()
        if not path.is_file():
            continue
        if {"solutions", "hidden"} & set(path.relative_to(folder).parts):
            problems.append(f"{relative}: lies in a solutions or hidden-tests folder")
            continue
        text = _text_of(path)
        if text is None:
            continue
        found = leaked(text, secret)
        if found:
            problems.append(f"{relative}: holds {found[0]!r}")
    return problems


def _text_of(path: Path) -> str | None:
    """The text a reader sees: a notebook's cell sources, a text file's lines, nothing for binary files."""
    try:
        raw = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None
    if path.suffix == ".ipynb":
        return "\n".join(cell.source for cell in import_nbformat().reads(raw, as_version=4).cells)
    return raw


def hidden_test_lines(kit: Path = KIT_ROOT) -> set[str]:
    """The statements of every hidden test (not their docstrings, which students are meant to read).

    A line the public tests hold as well counts too: the public suite uses inputs of its own, so a shared
    line is a hidden input shipped in the release."""
    lines: set[str] = set()
    for path in (kit / "tests" / "hidden").rglob("test_*.py"):
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                body = node.body[1:] if ast.get_docstring(node) else node.body
                for statement in body:
                    segment = ast.get_source_segment(source, statement) or ""
                    lines.update(line.strip() for line in segment.splitlines() if len(line.strip()) >= 20)
    return lines


def pinned(requirement: str) -> str:
    """``requirement`` as the Gradescope image installs it: the version this grader runs (``name==version``, its
    marker kept as written), so that the image grades as the instructor's machine does; the range where it is
    not installed here (a marker that is false on this machine)."""
    from packaging.requirements import Requirement

    parsed = Requirement(requirement)
    try:
        version = importlib.metadata.version(parsed.name)
    except importlib.metadata.PackageNotFoundError:
        return requirement
    extras = f"[{','.join(sorted(parsed.extras))}]" if parsed.extras else ""
    _, _, marker = requirement.partition(";")
    return f"{parsed.name}{extras}=={version}" + (f"; {marker.strip()}" if marker else "")


def build_gradescope(
    destination: Path,
    *,
    kit: Path = KIT_ROOT,
    feedback: str = feedback_policy.DEFAULT,
    course: CourseFile | None = None,
) -> Path:
    """Write Gradescope's autograder .zip: setup.sh and run_autograder at the top, the kit in kit/, which
    shows students the hidden tests as ``feedback`` says (scoring.feedback_policy), with the ``course`` file (its
    points, limits and Gradescope visibility) as kit/course.toml and the secret beside it."""
    course = course or CourseFile()
    if feedback not in feedback_policy.MODES:
        raise ReleaseError(f"feedback {feedback!r}: choose one of {', '.join(feedback_policy.MODES)}")
    _require_instructor_kit(kit)
    if destination.suffix != ".zip":
        raise ReleaseError(f"{destination}: Gradescope takes a .zip; name the output something.zip")
    _outside_copied(destination.parent, kit, GRADESCOPE_COPIES)
    _made(destination.parent)
    with tempfile.TemporaryDirectory(prefix=".gradescope-", dir=destination.parent) as staging:
        source = Path(staging)
        for target in EXECUTABLES:
            shutil.copy2(TEMPLATES / f"gradescope_{target}", source / target)
        meta = tomllib.loads((kit / "pyproject.toml").read_text(encoding="utf-8"))["project"]
        pins = [pinned(requirement) for requirement in meta["dependencies"]]
        (source / "requirements.txt").write_text("\n".join(pins) + "\n", encoding="utf-8")
        for part in GRADESCOPE_COPIES:
            shutil.copytree(kit / part, source / "kit" / part, ignore=ENGINE_IGNORED)
        shutil.copy2(kit / "pyproject.toml", source / "kit" / "pyproject.toml")
        # The hidden examples' secret (example_sets), made now if it is new; the package's kit folder is closed
        # to the worker's user in Gradescope's container (shield), and the zip gives the file 0600.
        secret_folder = course.folder if course.path is not None else kit
        (source / "kit" / SECRET_FILE).write_bytes(course_secret(secret_folder) + b"\n")
        if course.path is not None:
            shutil.copyfile(course.path, source / "kit" / COURSE_FILE)
        (source / "kit" / feedback_policy.PACKAGE_FILE).write_text(feedback + "\n", encoding="utf-8")
        return _zip(source, destination, top="")


def _zip(folder: Path, destination: Path, *, top: str) -> Path:
    """Zip ``folder`` (under ``top/`` when given), the Gradescope scripts executable; written atomically."""
    with replacing(destination) as partial, zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                name = path.relative_to(folder).as_posix()
                info = zipfile.ZipInfo((f"{top}/{name}" if top else name), date_time=(2020, 1, 1, 0, 0, 0))
                mode = 0o755 if path.name in EXECUTABLES else 0o600 if path.name == SECRET_FILE else 0o644
                info.external_attr = mode << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, path.read_bytes())
    return destination
