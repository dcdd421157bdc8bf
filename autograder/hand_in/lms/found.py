"""What reading a batch's folder by its names finds: one student's hand-in not yet read (``Found``), one way
to read a name of an LMS download (``Reading``), what a whole folder holds (``Download``), and the error for a
folder that reads as no batch."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from autograder.hand_in import bounded, loading
from autograder.hand_in.hand_in_limits import HandInLimits
from autograder.hand_in.loaded import LoadedHandIn
from autograder.parts import MODULES
from autograder.run_errors import RunError

SAFE_ID = re.compile(r"[^A-Za-z0-9._@+-]+")
# Canvas renames a resubmitted file bpe.py to bpe-1.py; the grader looks for bpe.py.
RESUBMITTED = re.compile(r"^(?P<stem>.+?)-\d+(?P<suffix>\.(?:py|ipynb))$")

# Reads one hand-in within the limits, each file that its uploads hold differently from the upload chosen.
Reader = Callable[[HandInLimits, Mapping[str, str]], LoadedHandIn]


class DiscoveryError(RunError):
    """The folder cannot be read as a batch; the message names it and the fix."""


@dataclass(frozen=True)
class Found:
    """One student's submission, not yet read."""

    student: str  # the id: a folder name under OUT, a gradebook key
    origin: str  # where it came from, for messages
    reader: Reader
    name_hint: str = ""  # the name an LMS put in the file name, when there is no roster
    raw_name: str = ""  # the name the id was cleaned from, where cleaning may have changed it
    timestamp: str = ""  # when it was handed in, as nbgrader's timestamp.txt says it, where there is one
    late: bool = False  # the LMS marked it late (Canvas's LATE in a file's name)
    lms: str = ""  # the LMS whose bulk download it came from (a key of names.LMS_READINGS), "" for none
    # The newest of its files' own times as a wall-clock reading with no zone (a zip member's as the zip holds it,
    # an unpacked file's as this machine reads it), read in the course's zone; looked up when called; None where
    # it has no file, and why in words where the time was set when the file was unpacked or copied here.
    file_time: Callable[[], datetime | str | None] = lambda: None
    downloaded: datetime | None = None  # the download's own time (its zip's), which no hand-in in it comes after

    def load(self, limits: HandInLimits, *, chosen: Mapping[str, str] | None = None) -> LoadedHandIn:
        """Read it now; anything that goes wrong is a HandInError naming it, never a crash of the batch.
        ``chosen``: which upload each file that the student's uploads hold differently comes from."""
        try:
            return self.reader(limits, chosen or {})
        except bounded.HandInError:
            raise
        except (OSError, ValueError, zipfile.BadZipFile) as error:
            raise bounded.HandInError(
                f"{self.origin}: cannot be read ({type(error).__name__}: {error}); hand it in again"
            ) from None


@dataclass(frozen=True)
class Reading:
    """One way to read a name of an LMS download: the student's id where the platform wrote it, the name it
    wrote before the id, and what follows (the student's own file name; "" for a Moodle folder)."""

    student: str
    slug: str
    file: str
    late: bool = False

    @property
    def shown(self) -> str:
        return f"{self.student} ({self.slug or 'no name'})"


@dataclass
class Download:
    """What a batch's folder holds, read by its names in the layout it has: every hand-in as its name gives its
    id (two may share one), and what could not be taken as one."""

    layout: str
    found: list[Found]
    ignored: list[str] = field(default_factory=list)
    assignment: str = ""  # nbgrader's assignment name, when the layout says it
    lms: str = ""  # the platform whose names an LMS download carries ("Canvas", "Moodle"), as a folder or its zip
    # names of an LMS download that do not fit the pattern chosen for the whole download
    unfit: list[str] = field(default_factory=list)
    # names of an LMS download that read as more than one student's, nothing settling which: graded as no one's
    ambiguous: dict[str, list[Reading]] = field(default_factory=dict)


def student_id(text: str) -> str:
    """A name safe as a folder and a CSV key: runs of other characters become one underscore."""
    cleaned = SAFE_ID.sub("_", text.strip()).strip("._")
    return cleaned or "unnamed"


def original(file: str) -> str:
    """The file's name as the student gave it: Canvas renames a resubmitted ``bpe.py`` to ``bpe-1.py``."""
    resubmitted = RESUBMITTED.match(file)
    if resubmitted and resubmitted.group("stem") in MODULES:
        return resubmitted.group("stem") + resubmitted.group("suffix")
    return file


def listing(folder: Path) -> list[Path]:
    """The folder's entries, hidden ones left out, sorted."""
    try:
        return sorted(entry for entry in folder.iterdir() if not entry.name.startswith("."))
    except OSError as error:
        raise DiscoveryError(f"{folder}: cannot be listed ({error.strerror}); check its permissions") from None


def loader(path: Path) -> Reader:
    """The reader of a hand-in that is one entry on disk (a folder, a notebook, a .py or a .zip)."""

    def load(limits: HandInLimits, chosen: Mapping[str, str]) -> LoadedHandIn:
        return loading.load(path, limits, chosen=chosen)

    return load
