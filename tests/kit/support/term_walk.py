"""One term of one assignment, walked through the real commands with a class of ten: what docs/instructors/term.md
shows in its walkthrough, command by command, with what each printed and the first lines of every file the
instructor uploads.

test_term_walk runs it and checks the page shows this walk as it ran; ``python tests/kit/support/term_walk.py --docs``
runs it and writes it into the page. Every command runs in a shell from the course folder, as the page says,
with the ``grade`` of the Python running this; the clock is the course's (TZ), so that unzip gives the
download's files the times the LMS gave them.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from autograder.kit_root import KIT_ROOT

PAGE = KIT_ROOT / "docs" / "instructors" / "term.md"
BEGIN = "<!-- term-walk: begin (written by tests/kit/support/term_walk.py --docs: do not edit) -->"
END = "<!-- term-walk: end -->"
ZONE = "Europe/Berlin"
SOLUTION = (KIT_ROOT / "solutions" / "simple_tokenizers.py").read_bytes()
STUBS = (KIT_ROOT / "student_template" / "simple_tokenizers.py").read_bytes()
# A try with char_tokenize not started: worth Part 1's full marks less that function's points.
OLDER = SOLUTION + b"\n\ndef char_tokenize(text):\n    raise NotImplementedError\n"
# The walk's own options, which the page's general commands leave out: this term's assignment is Part 1, and
# the walk prints no progress bar (its clock would differ at every run).
OWN_OPTIONS = ("--part simple_tokenizers", "-q")
BATCH = f"grade batch submissions/ -o graded/ --roster roster.csv {' '.join(OWN_OPTIONS)}"
# The course file's settings the walk sets: (table, key, value as TOML writes it).
COURSE_SETTINGS = (
    ("assignment", "name", '"Tokenizers (Part 1)"'),
    ("points", '"simple_tokenizers.char_tokenize"', "10"),
    ("late", "due", "2026-11-20T23:59:00"),
    ("late", "time_zone", f'"{ZONE}"'),
    ("late", "percent", "10"),
    ("late", "floor", "50"),
    ("late", "extensions", '"extensions.csv"'),
)
# The class: Canvas's user id, the name as Canvas's roster has it, and the uploads as Canvas names them, each
# with its content and the time it was handed in (the course's local time, as a zip keeps it).
CLASS: dict[str, tuple[str, dict[str, tuple[bytes, tuple[int, ...]]]]] = {
    "1001": ("Lovelace, Ada", {"lovelaceada_1001_5001_simple_tokenizers.py": (SOLUTION, (2026, 11, 20, 18, 0, 0))}),
    "1002": ("Bee, Bea", {"beebea_LATE_1002_5002_simple_tokenizers.py": (SOLUTION, (2026, 11, 22, 3, 0, 0))}),
    "1003": ("Cole, Cyd", {"colecyd_LATE_1003_5003_simple_tokenizers.py": (SOLUTION, (2026, 11, 22, 10, 0, 0))}),
    "1004": ("Dee, Dan", {"deedan_1004_5004_simple_tokenizers.py": (STUBS, (2026, 11, 19, 9, 30, 0))}),
    "1005": ("Eden, Eve", {"edeneve_1005_5005_simple_tokenizers.py": (OLDER, (2026, 11, 20, 21, 45, 0))}),
    "1006": (
        "Fox, Fay",
        {
            "foxfay_1006_5006_simple_tokenizers.py": (SOLUTION, (2026, 11, 20, 22, 10, 0)),
            "foxfay_1006_5007_backup.zip": (b"", (2026, 11, 20, 22, 11, 0)),  # holds OLDER: made in build_class
        },
    ),
    "1007": ("Gale, Guy", {"galeguy_1007_5008_simple_tokenizers.ipynb": (b"{not json", (2026, 11, 20, 23, 0, 0))}),
    "1008": ("Hunt, Hal", {"hunthal_1008_5009_simple_tokenizers.py": (SOLUTION, (2026, 11, 20, 12, 0, 0))}),
    "1009": ("Iris, Ivy", {"irisivy_1009_5010_simple_tokenizers.py": (OLDER, (2026, 11, 20, 23, 30, 0))}),
    "1010": ("Jay, Jon", {}),
}
# A second section of the course, on Moodle: its download's folders and its grading worksheet's rows.
MOODLE_HEADER = (
    "Identifier,Full name,Email address,Status,Grade,Maximum Grade,Grade can be changed,"
    "Last modified (submission),Online text,Last modified (grade),Feedback comments"
)
MOODLE_CLASS = {
    "Kim Kay_201": (SOLUTION, "Friday, 20 November 2026, 10:15 PM"),
    "Lea Lu_202": (SOLUTION, "Sunday, 22 November 2026, 8:00 AM"),
    "Max Moe_203": (None, "-"),
}


@dataclass
class Walk:
    """The walk as the page shows it: Markdown, with each command and what it printed in a text block."""

    root: Path
    environment: dict[str, str]
    parts: list[str]

    def say(self, text: str) -> None:
        self.parts.append(text.strip() + "\n")

    def run(self, *commands: str, shown: Callable[[str], str] = lambda text: text) -> None:
        """Run ``commands`` one after another in a shell from the course folder: each must succeed; show each,
        and what it printed (its error stream, then its output, as a terminal shows a grade command's)."""
        lines = []
        for command in commands:
            process = subprocess.run(
                ["bash", "-euo", "pipefail", "-c", command],
                cwd=self.root,
                capture_output=True,
                text=True,
                env=self.environment,
                timeout=900,
            )
            if process.returncode != 0:
                raise RuntimeError(f"{command!r} failed:\n{process.stdout[-3000:]}\n{process.stderr[-3000:]}")
            lines.append(f"$ {command}")
            printed = shown(process.stderr + process.stdout).rstrip("\n")
            lines += printed.splitlines() if printed else []
        self.block("\n".join(lines))

    def show(self, *files: str, first: int | None = None) -> None:
        """Show ``files`` of the course folder (their ``first`` lines), as `head` would."""
        lines = []
        for name in files:
            text = (self.root / name).read_text(encoding="utf-8").splitlines()
            lines += [f"==> {name} <==", *text[:first], *(["…"] if first is not None and len(text) > first else [])]
        self.block("\n".join(lines))

    def block(self, text: str) -> None:
        self.parts.append(f"```text\n{text}\n```\n")

    def markdown(self) -> str:
        return "\n".join(self.parts)


def walk(root: Path) -> str:
    """Walk one term in the empty folder ``root``; the page's walkthrough, as Markdown."""
    environment = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "TZ": ZONE,
        "COLUMNS": "200",
    }
    steps = Walk(root, environment, [])
    steps.say(
        "A course of ten students on Canvas hands in Part 1 (`simple_tokenizers.py`), due 20 November 2026 at "
        "23:59 in Berlin. The course folder starts empty; every command runs in it."
    )
    steps.run("grade make-course", shown=_without_the_secrets_line)
    _set_course(root / "course.toml")
    steps.say(
        "In `course.toml` the course sets its name, what `char_tokenize` is worth, and the late rule (10% of "
        "full marks a day or part of one, never below half), with one extension:"
    )
    _write(root / "extensions.csv", "student,due\n1003,2026-11-23 12:00\n")
    steps.block(_set_lines(root / "course.toml") + "\n\n==> extensions.csv <==\n" + _read(root / "extensions.csv"))
    steps.run("grade points", shown=_first_lines(6))
    steps.run("grade release out/", "grade gradescope out/autograder.zip")
    steps.say(
        "Students hand in on Canvas. After the due date: Download Submissions (`submissions.zip`) and the "
        "gradebook's export as the roster (`roster.csv`)."
    )
    build_class(root)
    steps.show("roster.csv", first=4)
    steps.run("unzip -q submissions.zip -d submissions/", "ls submissions/ | head -n 4", BATCH)
    steps.say(
        "Dan handed in the stubs, Eve and Ivy an older try; Bea is late, Cyd within her extension; Fay's two "
        "uploads disagree; Guy's notebook cannot be read (he mails the code, graded by hand); Jon handed nothing "
        "in. The instructor settles Fay's choice, adds Eve's point and Guy's total:"
    )
    _write(
        root / "choices.csv",
        "1006,simple_tokenizers.py,foxfay_1006_5006_simple_tokenizers.py\n",
        append=True,
    )
    _write(
        root / "adjustments.csv",
        '1005,simple_tokenizers.char_tokenize,4,"right idea, the order is off"\n'
        "1007,,=30,graded by hand: the code came by email\n",
        append=True,
    )
    steps.show("choices.csv", "adjustments.csv")
    steps.run(BATCH)
    steps.say(
        "Ivy's upload was cut short; she mails the whole file. It replaces hers in the download, with the time "
        "she handed in, and she alone is graded again:"
    )
    _write(root / "irisivy-whole.py", SOLUTION.decode("utf-8"))
    ivy = "submissions/irisivy_1009_5010_simple_tokenizers.py"
    steps.run(f"touch -r {ivy} irisivy-whole.py && cp -p irisivy-whole.py {ivy}", f"{BATCH} --student 1009")
    steps.say("The gradebook, and `canvas.csv`, which the instructor imports in Canvas's gradebook:")
    steps.block(_columns(root / "graded" / "gradebook.csv", ("id", "name", "total", "late", "late_penalty", "status")))
    steps.show("graded/canvas.csv")
    steps.say(
        "The same class into nbgrader's gradebook, for a course that keeps its grades there, through "
        "nbgrader's own API; formgrader then shows:"
    )
    steps.run(f"{BATCH} --nbgrader-db gradebook.db --assignment ps1", shown=_only_written)
    steps.block(formgrader_view(root / "gradebook.db", "ps1"))
    steps.say(
        "A second section is on Moodle: Download all submissions (unzipped to `section-b/moodle/`) and the grading "
        "worksheet (`section-b/grading-worksheet.csv`). It is graded in that folder of its own with the same course "
        "file (and so the same secret, kept beside it), the worksheet as the roster: the first section's extension "
        "is named and given to no one. `section-b/graded/moodle.csv` is the worksheet to upload, its grades out of "
        "its Maximum Grade (100.00):"
    )
    build_moodle_section(root / "section-b")
    steps.run(
        "cd section-b && grade batch moodle/ -o graded/ --roster grading-worksheet.csv --course ../course.toml "
        + " ".join(OWN_OPTIONS),
    )
    steps.show("section-b/graded/moodle.csv")
    return steps.markdown()


def build_class(root: Path) -> None:
    """Canvas's download of the class (``submissions.zip``) and its roster, as Canvas gives them."""
    with zipfile.ZipFile(root / "submissions.zip", "w") as archive:
        for _, uploads in CLASS.values():
            for name, (content, when) in uploads.items():
                if name.endswith("backup.zip"):
                    content = _zipped({"simple_tokenizers.py": OLDER})
                archive.writestr(zipfile.ZipInfo(name, date_time=when), content)  # type: ignore[arg-type]
    rows = [
        f'"{name}",{student},s{student},{name.split(", ")[1].lower()}@uni.edu,Section A'
        for student, (name, _) in CLASS.items()
    ]
    _write(root / "roster.csv", "Student,ID,SIS User ID,SIS Login ID,Section\n" + "\n".join(rows) + "\n")


def build_moodle_section(root: Path) -> None:
    """Moodle's download of the second section (one folder a student) and its grading worksheet, in ``root``."""
    root.mkdir()
    lines = [MOODLE_HEADER]
    for folder, (content, when) in MOODLE_CLASS.items():
        name, participant = folder.rsplit("_", 1)
        if content is not None:
            (root / "moodle" / f"{folder}_assignsubmission_file_").mkdir(parents=True)
            (root / "moodle" / f"{folder}_assignsubmission_file_" / "simple_tokenizers.py").write_bytes(content)
        status = "Submitted for grading" if content is not None else "No submission"
        shown = f'"{when}"' if "," in when else when
        lines.append(
            f"Participant {participant},{name},{name.split()[0].lower()}@uni.edu,{status},,100.00,Yes,{shown},,-,"
        )
    _write(root / "grading-worksheet.csv", "\n".join(lines) + "\n")


def formgrader_view(database: Path, assignment: str) -> str:
    """Each student's submission as nbgrader's API gives formgrader it: its score, the late penalty nbgrader takes
    off it (its export's total), full marks, and whether anything is left to grade by hand."""
    from nbgrader.api import Gradebook

    lines = ["student  score  late_penalty  total  max_score  needs_manual_grade"]
    with Gradebook(f"sqlite:///{database.resolve()}") as book:
        for entry in sorted(book.submission_dicts(assignment), key=lambda entry: entry["student"]):
            submission = book.find_submission(assignment, entry["student"])
            penalty = sum(notebook.late_submission_penalty or 0 for notebook in submission.notebooks)
            lines.append(
                f"{entry['student']:<8} {entry['score']:>5g}  {penalty:>12g}  {entry['score'] - penalty:>5g}  "
                f"{entry['max_score']:>9g}  {entry['needs_manual_grade']!s}"
            )
        missing = sorted(student.id for student in book.students if not student.submissions)
    return "\n".join([*lines, f"in the course, with no submission: {', '.join(missing)}"])


def _set_course(path: Path) -> None:
    """Take the walk's settings out of their comments in the course file, each with its value."""
    text = path.read_text(encoding="utf-8")
    for table, key, value in COURSE_SETTINGS:
        start = text.index(f"\n[{table}]\n")
        line = re.compile(rf"^# {re.escape(key)} = .*$", flags=re.MULTILINE).search(text, start)
        if line is None:
            raise RuntimeError(f"course.toml: no line for {key} in [{table}]")
        text = text[: line.start()] + f"{key} = {value}" + text[line.end() :]
    path.write_text(text, encoding="utf-8")


def _set_lines(path: Path) -> str:
    """The course file's lines that set something, under their tables, as the walk set them."""
    shown: list[str] = [f"==> {path.name} (the lines it sets) <=="]
    table = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("["):
            table = line
        elif line and not line.startswith("#"):
            if table:
                shown.append(table)
                table = ""
            shown.append(line)
    return "\n".join(shown)


def _columns(path: Path, names: tuple[str, ...]) -> str:
    with path.open(encoding="utf-8", newline="") as stream:
        rows = list(csv.DictReader(stream))
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(names)
    writer.writerows([row[name] for name in names] for row in rows)
    return f"==> {path.parent.name}/{path.name} (some of its columns) <==\n" + buffer.getvalue().rstrip("\n")


def _without_the_secrets_line(text: str) -> str:
    """make-course's lines, but for the one that says it copied the kit's secret: a clone that has graded has
    one, a fresh one not, and the walk reads the same either way."""
    return "\n".join(line for line in text.splitlines() if not line.startswith("copied the kit's"))


def _first_lines(count: int) -> Callable[[str], str]:
    def first(text: str) -> str:
        lines = text.splitlines()
        return "\n".join(lines[:count] + (["…"] if len(lines) > count else []))

    return first


def _only_written(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if "gradebook.db" in line)


def _zipped(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in files.items():
            archive.writestr(zipfile.ZipInfo(name, date_time=(2026, 11, 18, 12, 0, 0)), content)
    return buffer.getvalue()


def _write(path: Path, text: str, *, append: bool = False) -> None:
    with path.open("a" if append else "w", encoding="utf-8") as stream:
        stream.write(text)


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8").rstrip("\n")


def page_walk(text: str) -> str:
    """The walkthrough as ``text`` (the page) shows it, between its markers."""
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[start:end].strip("\n") + "\n"


def with_walk(text: str, walked: str) -> str:
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return f"{text[:start]}\n\n{walked.strip()}\n\n{text[end:]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--docs", action="store_true", help=f"write the walk into {PAGE.relative_to(KIT_ROOT)}")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="term-walk-") as folder:
        walked = walk(Path(folder))
    if arguments.docs:
        PAGE.write_text(with_walk(PAGE.read_text(encoding="utf-8"), walked), encoding="utf-8")
        print(f"wrote the walk into {PAGE}")
    else:
        print(walked)


if __name__ == "__main__":
    main()
