"""The closing pictures of the whole term (term_class): the Canvas section's summary, its first screen as
headless Chromium shows it (a PNG), and the first lines of each export as text::

    python tests/kit/support/term_pictures.py --png term-summary.png --text term-exports.txt

The exports: canvas.csv, moodle.csv, moodle-feedback.zip's listing, and nbgrader's feedback folders' listing.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import zipfile
from pathlib import Path

import term_class

from autograder.testing.example_sets import SECRET_VARIABLE

FIRST_LINES = 6
SCREEN = (1280, 800)  # a laptop's first screen


def graded(root: Path) -> tuple[term_class.Term, Path, Path, Path]:
    """The class built in ``root`` and graded: its term, and the Canvas, Moodle and nbgrader OUTs."""
    term = term_class.build(root)
    canvas, moodle, nbgrader = root / "out-canvas", root / "out-moodle", root / "out-nbgrader"
    term_class.grade(term.canvas_zip, canvas, term.canvas_roster, term, "--return-feedback")
    term_class.grade(term.moodle_zip, moodle, term.moodle_worksheet, term, "--return-feedback")
    term_class.grade_nbgrader(term, nbgrader)
    return term, canvas, moodle, nbgrader


def screenshot(page: Path, png: Path) -> None:
    from browser import driven

    with driven(width=SCREEN[0], height=SCREEN[1]) as driver:
        driver.get(page.as_uri())
        if not driver.save_screenshot(str(png)):
            raise RuntimeError(f"{png}: Chromium saved no screenshot of {page}")


def exports(term: term_class.Term, canvas: Path, moodle: Path) -> str:
    """The first lines of each export, as `head` shows files, and the listings of the feedback that goes back."""

    def head(label: str, lines: list[str]) -> list[str]:
        return [f"==> {label} <==", *lines[:FIRST_LINES], *(["…"] if len(lines) > FIRST_LINES else []), ""]

    shown = head("canvas.csv (Canvas section)", (canvas / "canvas.csv").read_text(encoding="utf-8").splitlines())
    shown += head("moodle.csv (Moodle section)", (moodle / "moodle.csv").read_text(encoding="utf-8").splitlines())
    with zipfile.ZipFile(moodle / "moodle-feedback.zip") as archive:
        listing = [f"{info.file_size:>8}  {info.filename}" for info in archive.infolist()]
    shown += head("moodle-feedback.zip (its listing)", listing)
    feedback = term.nbgrader_course / "feedback"
    listing = [
        f"{path.stat().st_size:>8}  feedback/{path.relative_to(feedback)}"
        for path in sorted(feedback.rglob("*"))
        if path.is_file()
    ]
    shown += head("nbgrader's feedback folders (their listing)", listing)
    return "\n".join(shown)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--png", type=Path, required=True, help="where the summary's first screen goes")
    parser.add_argument("--text", type=Path, required=True, help="where the exports' first lines go")
    arguments = parser.parse_args()
    # As the kit's own tests grade (conftest): one fixed secret, and no cache of earlier gradings.
    os.environ.setdefault(SECRET_VARIABLE, "the kit's own tests")
    os.environ["BPE_KIT_CACHE"] = "off"
    with tempfile.TemporaryDirectory(prefix="term-pictures-") as folder:
        term, canvas, moodle, _ = graded(Path(folder))
        screenshot(canvas / "summary.html", arguments.png)
        arguments.text.write_text(exports(term, canvas, moodle), encoding="utf-8")
    print(f"wrote {arguments.png} and {arguments.text}")


if __name__ == "__main__":
    main()
