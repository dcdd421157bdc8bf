"""Feedback back to the students, in the shapes the LMSs take in bulk (``grade batch --return-feedback``).

Moodle's "Upload multiple feedback files in a zip" (mod/assign/feedback/file/importziplib.php) finds each
file's student from a folder named ``<full name>_<participant id>_assignfeedback_file``: it splits the name at
its first underscores, so the id must be the second field and the full name may hold no underscore (nor a
slash, which would start another folder). The offline worksheet takes a short comment per student in its
"Feedback comments" column (see gradebook.moodle_csv); the page itself travels in the zip.
"""

from __future__ import annotations

import io
import shutil
import zipfile
from collections.abc import Iterable
from pathlib import Path

from autograder.course.batch.gradebook import GRADED_BY_HAND, StudentRecord
from autograder.course.batch.store import FEEDBACK_PAGE
from autograder.scoring.scoring import percent, points_number

MOODLE_ZIP = "moodle-feedback.zip"
MOODLE_PLUGIN = "assignfeedback_file"  # the feedback files plugin, as Moodle's importer names it
NBGRADER_FEEDBACK = "feedback"  # nbgrader's CourseDirectory.feedback_directory, in the course folder
NBGRADER_KEPT = ("timestamp.txt", "submission_secret.txt")  # what generate_feedback copies beside the pages
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # one fixed time: the same results give the same zip, byte for byte


def moodle_folder(record: StudentRecord) -> str:
    """The folder Moodle's zip importer reads as ``record``'s: the id in second place whatever the name holds."""
    name = " ".join(record.name.replace("_", " ").replace("/", " ").replace("\\", " ").split()) or "Participant"
    return f"{name}_{record.id}_{MOODLE_PLUGIN}"


def moodle_zip(out: Path, records: Iterable[StudentRecord]) -> tuple[bytes, list[str]]:
    """The zip of each graded Moodle participant's feedback page, and a line for the students left out:
    Moodle names participants by number, so an id that is not one cannot be taken back."""
    buffer = io.BytesIO()
    not_moodle: list[str] = []
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for record in sorted(records, key=lambda record: record.id):
            page = out / record.id / FEEDBACK_PAGE
            if not page.is_file():
                continue  # nothing handed in: no page to return
            if not record.id.isdigit():
                not_moodle.append(record.id)
                continue
            entry = zipfile.ZipInfo(f"{moodle_folder(record)}/{FEEDBACK_PAGE}", date_time=ZIP_TIME)
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, page.read_bytes())
    warnings = (
        [
            f"{MOODLE_ZIP}: left out {', '.join(not_moodle)}, whose ids are not Moodle participant numbers "
            "(grade Moodle's own download to return their feedback)"
        ]
        if not_moodle
        else []
    )
    return buffer.getvalue(), warnings


def comment(record: StudentRecord) -> str:
    """The worksheet's comment for a graded student: the total, and where the whole feedback is."""
    if record.result is None:
        return ""
    score = points_number(record.result.score)
    graded = "Graded by hand" if record.status == GRADED_BY_HAND else "Autograded"  # a total set in adjustments.csv
    return (
        f"{graded}: {score} of {points_number(record.result.max_score)} points ({percent(record.result):.0f}%). "
        f"Every test is in {FEEDBACK_PAGE}, under Feedback files."
    )


def nbgrader_folders(out: Path, records: Iterable[StudentRecord]) -> tuple[list[Path], list[str]]:
    """Write each graded nbgrader hand-in's page into its course's feedback folder; return what was written and
    a line for the students release_feedback could not hand theirs to (no notebook, no submission secret)."""
    written: list[Path] = []
    no_notebook: list[str] = []
    no_secret: list[str] = []
    for record in sorted(records, key=lambda record: record.id):
        page = out / record.id / FEEDBACK_PAGE
        handed_in = Path(record.origin) if record.origin else None
        if not page.is_file() or handed_in is None or handed_in.parent.parent.name != "submitted":
            continue  # not a hand-in from submitted/<student>/<assignment>/ (one set by hand, a conflict)
        notebooks = sorted(path.stem for path in handed_in.glob("*.ipynb"))
        if not notebooks:
            no_notebook.append(record.id)
            continue
        if not (handed_in / NBGRADER_KEPT[1]).is_file():
            no_secret.append(record.id)
            continue
        # The names nbgrader gave the folders (the student's, the assignment's), not the kit's id for them.
        folder = handed_in.parent.parent.parent / NBGRADER_FEEDBACK / handed_in.parent.name / handed_in.name
        folder.mkdir(parents=True, exist_ok=True)
        for kept in NBGRADER_KEPT:
            if (handed_in / kept).is_file():
                shutil.copyfile(handed_in / kept, folder / kept)
        for notebook in notebooks:
            shutil.copyfile(page, folder / f"{notebook}.html")
            written.append(folder / f"{notebook}.html")
    warnings = []
    if no_notebook:
        warnings.append(
            f"nbgrader feedback: {', '.join(no_notebook)} handed in no notebook, and release_feedback hands out "
            "a page per notebook: give them their feedback.html yourself"
        )
    if no_secret:
        warnings.append(
            f"nbgrader feedback: {', '.join(no_secret)} have no submission_secret.txt (not collected by nbgrader "
            "0.7 or later), which release_feedback needs: give them their feedback.html yourself"
        )
    return written, warnings
