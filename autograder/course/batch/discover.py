"""Find the submissions in what an instructor hands to ``grade batch``.

Accepted layouts, looked at in this order:

- an LMS bulk download (Canvas, Moodle), as the .zip the LMS gave or
  unpacked into a folder: file names carry the student id, and one
  student's files are grouped into one submission;
- nbgrader's ``submitted/<student>/<assignment>/`` (the course folder, or
  its ``submitted`` folder);
- a folder holding one entry per student: a sub-folder, a notebook, a .py
  file or a .zip, named after the student.

Nothing is read here but names: each submission is loaded when its turn
comes, so a class of 500 never sits in memory at once. Its files' times are
looked up only when asked (``Found.file_time``: a late rule with no better
witness of when it came).
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import os
import re
import unicodedata
import zipfile
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath

from autograder.course.batch.store import CLASS_FILES
from autograder.handin import bounded, loading
from autograder.handin.bounded import SKIPPED_FOLDERS
from autograder.handin.limits import HandinLimits
from autograder.handin.loaded import LoadedSubmission
from autograder.handin.uploads import UploadConflict, Uploads, merged_uploads, unpacked
from autograder.parts import MODULES
from autograder.run_errors import RunError

GRADABLE_SUFFIXES = (".py", ".ipynb", ".zip")
# Canvas (instructure/canvas-lms, lib/content_zipper.rb): <slug>[_LATE]_<user id>_<attachment id>_<display name>,
# where the slug is the sortable name lower-cased with every character that is not a word character removed
# (Ruby's [[:word:]]: letters, marks, decimal digits, connector punctuation, in any script), and the user id is
# anon_<anonymous id> on an anonymous assignment, which has no slug. LATE marks a file received after the due date
# (older Canvas lower-cased it with the name).
CANVAS_TAIL = re.compile(r"^(?:(?P<late>LATE|late)_)?(?P<id>\d+|anon_[A-Za-z0-9]+)_\d+_(?P<file>.+)$", re.DOTALL)
CANVAS_WORD = ("L", "M", "Nd", "Pc")  # the Unicode categories Ruby's [[:word:]] keeps
# Moodle (moodle/moodle, mod/assign/classes/downloader.php): <full name>_<participant id>_assignsubmission_<plugin>,
# then "/<path>" (a folder per student, the default) or "_<file name>" (one flat name); an older Moodle ends the
# folder with "_". The full name has its "_" turned into spaces; what follows the plugin is the student's text.
MOODLE_ID = re.compile(r"_(?P<id>\d+)_assignsubmission_[a-z]+")
# Canvas renames a resubmitted file bpe.py to bpe-1.py; the grader looks for bpe.py.
RESUBMITTED = re.compile(r"^(?P<stem>.+?)-\d+(?P<suffix>\.(?:py|ipynb))$")
# nbgrader's record of when a hand-in was submitted, beside its notebooks: "2026-11-20 10:15:00.000000 UTC"
TIMESTAMP = "timestamp.txt"
NBGRADER_LAYOUT = "nbgrader submitted/"  # Discovery.layout of a course's submitted/ folder


def lms_layout(lms: str) -> str:
    """Discovery.layout of an LMS's bulk download (``lms``: "Canvas", "Moodle")."""
    return f"LMS bulk download ({lms})"


TIMESTAMP_BYTES = 100
TIMED_AT_MOST = 2000  # entries of a hand-in's folder looked at for its newest file's time
# Seconds a file's time may be before its arrival here and still be the arrival's own (a file system's
# timestamps are coarse: FAT's 2 s); a time given back by unzip or cp -p is the hand-in's, far older.
TIME_KEPT_SLACK = 2.0
SAFE_ID = re.compile(r"[^A-Za-z0-9._@+-]+")
# The most names read of an entry to see whether it is a whole class's LMS download: a class of 500 with 20
# uploads each has 10,000.
DOWNLOAD_NAMES_AT_MOST = 100_000


# Reads one hand-in within the limits, each file that its uploads hold differently from the upload chosen.
Reader = Callable[[HandinLimits, Mapping[str, str]], LoadedSubmission]


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
    lms: str = ""  # the LMS whose bulk download it came from (a key of LMS_READINGS), "" for none
    # The newest of its files' own times as a wall-clock reading with no zone (a zip member's as the zip holds it,
    # an unpacked file's as this machine reads it), read in the course's zone; looked up when called; None where
    # it has no file, and why in words where the time was set when the file was unpacked or copied here.
    file_time: Callable[[], datetime | str | None] = lambda: None
    downloaded: datetime | None = None  # the download's own time (its zip's), which no hand-in in it comes after

    def load(self, limits: HandinLimits, *, chosen: Mapping[str, str] | None = None) -> LoadedSubmission:
        """Read it now; anything that goes wrong is a SubmissionError naming it, never a crash of the batch.
        ``chosen``: which upload each file that the student's uploads hold differently comes from."""
        try:
            return self.reader(limits, chosen or {})
        except bounded.SubmissionError:
            raise
        except (OSError, ValueError, zipfile.BadZipFile) as error:
            raise bounded.SubmissionError(
                f"{self.origin}: cannot be read ({type(error).__name__}: {error}); hand it in again"
            ) from None


@dataclass
class Discovery:
    """What a batch's folder holds: the hand-ins, and what could not be taken as one."""

    layout: str
    found: list[Found] = field(default_factory=list)
    assignment: str = ""  # nbgrader's assignment name, when the layout says it
    lms: str = ""  # the platform whose names an LMS download carries ("Canvas", "Moodle"), as a folder or its zip
    conflicts: dict[str, list[Found]] = field(default_factory=dict)  # id -> two hand-ins or more, one student
    ignored: list[str] = field(default_factory=list)
    # id -> the other names that cleaned to it: each was graded under an id of its own (see _distinct_ids)
    collisions: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    # names of an LMS download that do not fit the pattern chosen for the whole download
    unfit: list[str] = field(default_factory=list)
    # names of an LMS download that read as more than one student's, nothing settling which: graded as no one's
    ambiguous: dict[str, list[Reading]] = field(default_factory=dict)
    # (the name, the id it is graded as) where the name is one of OUT's class files (store.CLASS_FILES)
    reserved: list[tuple[str, str]] = field(default_factory=list)

    def notes(self) -> dict[str, str]:
        """id -> a word for the gradebook on how the id was made, where a collision made it."""
        notes: dict[str, str] = {}
        for student, renamed in self.collisions.items():
            for raw, new_id in renamed:
                notes[new_id] = f"named {raw!r}, which cleans to the id {student} like another hand-in's"
            notes.setdefault(student, f"another hand-in's name cleans to this id too: see {renamed[0][1]}")
        for raw, new_id in self.reserved:
            notes[new_id] = f"named {raw!r}, the name of a class file in OUT"
        return notes

    def warnings(self) -> list[str]:
        """One line for each name that was not taken as it came."""
        lines = [
            f"{raw!r} cleans to the id {student} like another hand-in's name: graded as {new_id}"
            for student, renamed in self.collisions.items()
            for raw, new_id in renamed
        ]
        lines += [
            f"{name!r} does not fit the {self.layout}'s names (…_<id>_…): not graded; hand it in "
            "through the LMS, or grade it on its own"
            for name in self.unfit
        ]
        lines += [
            f"{name!r} reads as the file of more than one student ({' or '.join(r.shown for r in readings)}): "
            "not graded as anyone's; give the roster, or hand it in under a name of its own"
            for name, readings in self.ambiguous.items()
        ]
        lines += [f"{raw!r} is the name of a class file in OUT: graded as {new_id}" for raw, new_id in self.reserved]
        return lines


def discover(path: Path, *, assignment: str | None = None, roster_ids: set[str] | None = None) -> Discovery:
    """What ``path`` holds; ``roster_ids``, the roster's ids where there is one, settle an LMS name that reads as
    more than one student's."""
    if not path.exists():
        raise DiscoveryError(f"{path}: no such folder or file; give the folder (or LMS .zip) of submissions")
    if path.is_file():
        if path.suffix.lower() != ".zip":
            raise DiscoveryError(f"{path}: is a single file; give the folder of submissions, or the LMS's bulk .zip")
        return _lms_zip(path, roster_ids)
    nbgrader_root = path / "submitted" if (path / "submitted").is_dir() else path
    if nbgrader_root.name == "submitted":
        return _nbgrader(nbgrader_root, assignment)
    entries = _listing(path)
    lms = lms_pattern([entry.name for entry in entries], path)
    if lms is not None:
        return _lms_folder(path, entries, lms, roster_ids)
    return _per_student(path, entries)


def student_id(text: str) -> str:
    """A name safe as a folder and a CSV key: runs of other characters become one underscore."""
    cleaned = SAFE_ID.sub("_", text.strip()).strip("._")
    return cleaned or "unnamed"


def _listing(folder: Path) -> list[Path]:
    try:
        return sorted(entry for entry in folder.iterdir() if not entry.name.startswith("."))
    except OSError as error:
        raise DiscoveryError(f"{folder}: cannot be listed ({error.strerror}); check its permissions") from None


def _collect(layout: str, candidates: list[Found], ignored: list[str]) -> Discovery:
    discovery = Discovery(layout=layout, ignored=ignored)
    by_id: dict[str, list[Found]] = defaultdict(list)
    for candidate in _distinct_ids(_off_class_files(candidates, discovery.reserved), discovery.collisions):
        by_id[candidate.student].append(candidate)
    for student in sorted(by_id):
        same = by_id[student]
        if len(same) == 1:
            discovery.found.append(same[0])
        else:
            discovery.conflicts[student] = same
    return discovery


def _off_class_files(candidates: list[Found], reserved: list[tuple[str, str]]) -> list[Found]:
    """Give a hand-in whose id is the name of one of OUT's class files (a folder called ``gradebook.csv``) an id of
    its own: its id plus a digest of its raw name, the same in every run, so its results are found again."""
    kept: list[Found] = []
    for candidate in candidates:
        if candidate.student.casefold() in CLASS_FILES:
            raw = candidate.raw_name or candidate.student
            new_id = f"{candidate.student}-{hashlib.sha256(raw.encode('utf-8', 'surrogateescape')).hexdigest()[:8]}"
            if (raw, new_id) not in reserved:
                reserved.append((raw, new_id))
            candidate = replace(candidate, student=new_id)
        kept.append(candidate)
    return kept


def _distinct_ids(candidates: list[Found], collisions: dict[str, list[tuple[str, str]]]) -> list[Found]:
    """Give different names that clean to one id (``alice`` and ``alice`` plus a newline), or to ids apart only
    by case (``alice`` and ``Alice``, one folder on a case-insensitive disk), ids of their own.

    The name that is already clean (lower case first, then the first in sorted order; failing that, the first
    name in sorted order) keeps its id; each other
    gets its id plus a digest of its raw name, the same in every run, so a resumed batch finds its results.
    Entries of one raw name (``alice/`` and ``alice.zip``) stay together: that is a conflict, not a collision.
    """
    names_by_folder: dict[str, dict[str, str]] = defaultdict(dict)  # folder key -> raw name -> its id
    for candidate in candidates:
        names_by_folder[candidate.student.casefold()][candidate.raw_name or candidate.student] = candidate.student
    renamed: dict[tuple[str, str], str] = {}
    for names in names_by_folder.values():
        if len(names) < 2:
            continue
        clean = sorted((name for name, student in names.items() if name == student), key=lambda n: (n != n.lower(), n))
        keeper = clean[0] if clean else min(names)
        for name in sorted(set(names) - {keeper}):
            student = names[name]
            digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:8]
            renamed[(student, name)] = f"{student}-{digest}"
            collisions.setdefault(names[keeper], []).append((name, renamed[(student, name)]))
    return [
        replace(
            candidate,
            student=renamed.get((candidate.student, candidate.raw_name or candidate.student), candidate.student),
        )
        for candidate in candidates
    ]


# -- one entry per student ------------------------------------------------------
def _per_student(folder: Path, entries: list[Path]) -> Discovery:
    _refuse_class_downloads(folder, entries)
    candidates: list[Found] = []
    ignored: list[str] = []
    for entry in entries:
        if entry.is_symlink() or entry.name in SKIPPED_FOLDERS:
            ignored.append(entry.name)
        elif entry.is_dir() or entry.suffix.lower() in GRADABLE_SUFFIXES:
            name = entry.name if entry.is_dir() else entry.stem
            candidates.append(
                Found(student_id(name), str(entry), _loader(entry), raw_name=name, file_time=_newest_time([entry]))
            )
        else:
            ignored.append(entry.name)
    if not candidates:
        raise DiscoveryError(f"{folder}: holds no submissions; put one folder, notebook, .py or .zip per student in it")
    return _collect("one entry per student", candidates, ignored)


def _refuse_class_downloads(folder: Path, entries: list[Path]) -> None:
    """Refuse a folder of hand-ins that holds a whole class's LMS download (a Canvas .zip beside a Moodle
    folder, or among the students' own entries): the instructor's mistake, said as such with its fix, rather
    than graded as a student's hand-in that holds nothing gradable."""
    downloads = [(entry, lms) for entry in entries if not entry.is_symlink() and (lms := _class_download(entry))]
    if not downloads:
        return
    shown = " and ".join(f"{entry.name}{'/' if entry.is_dir() else ''} ({lms})" for entry, lms in downloads)
    if len(downloads) > 1:
        runs = ", then ".join(f"grade batch {entry} -o OUT-{number}" for number, (entry, _) in enumerate(downloads, 1))
        raise DiscoveryError(
            f"{folder}: {shown} are each a whole class's LMS download, not one student's hand-in; grade each on "
            f"its own, into an output folder of its own: {runs}"
        )
    entry = downloads[0][0]
    where = f"move it out of {folder} and grade it on its own" if len(entries) > 1 else "grade it on its own"
    raise DiscoveryError(
        f"{folder}: {shown} is a whole class's LMS download, not one student's hand-in; {where}: "
        f"grade batch {entry} -o OUT"
    )


def _class_download(entry: Path) -> str | None:
    """The LMS whose bulk download ``entry`` (a folder or a .zip) is, by its names: more than half in one
    LMS's shape, naming two students or more (one student's own upload may carry their id); else None.

    Every entry is a student's to fill, so no more than DOWNLOAD_NAMES_AT_MOST names are read of one: past
    that it is no class's download, and is left to be refused, as a hand-in, by the hand-in's limits."""
    try:
        if entry.is_dir():
            with os.scandir(entry) as listing:
                names = [item.name for item in itertools.islice(listing, DOWNLOAD_NAMES_AT_MOST + 1)]
        elif entry.suffix.lower() == ".zip":
            members = bounded.zip_members(entry)
            if members is None or members > DOWNLOAD_NAMES_AT_MOST:
                return None
            with zipfile.ZipFile(entry) as archive:
                names = sorted({PurePosixPath(name).parts[0] for name in archive.namelist() if name.strip("/")})
        else:
            return None
        if len(names) > DOWNLOAD_NAMES_AT_MOST:
            return None
        lms = lms_pattern(names, entry)
    except (DiscoveryError, OSError, zipfile.BadZipFile, ValueError):
        return None  # unreadable, or every name fits both LMSs: left to be graded, and said there, as a hand-in
    if lms is None:
        return None
    students = {found[0].student for name in names if (found := LMS_READINGS[lms](name))}
    return lms if len(students) > 1 else None


def _loader(path: Path) -> Reader:
    def load(limits: HandinLimits, chosen: Mapping[str, str]) -> LoadedSubmission:
        return loading.load(path, limits, chosen=chosen)

    return load


# -- nbgrader --------------------------------------------------------------------
def _nbgrader(submitted: Path, assignment: str | None) -> Discovery:
    candidates: list[Found] = []
    ignored: list[str] = []
    for student in _listing(submitted):
        if not student.is_dir() or student.is_symlink():
            ignored.append(student.name)
            continue
        listing = _listing(student)
        assignments = [entry for entry in listing if entry.is_dir() and entry.name not in SKIPPED_FOLDERS]
        has_files = any(entry.suffix.lower() in GRADABLE_SUFFIXES for entry in listing if entry.is_file())
        if assignment is not None:
            chosen = student / assignment
            if not chosen.is_dir():
                ignored.append(f"{student.name} (no {assignment}/)")
                continue
        elif len(assignments) == 1 and not has_files:
            chosen = assignments[0]
        elif has_files or not assignments:
            chosen = student  # a plain folder of submissions that happens to be called "submitted"
        else:
            names = ", ".join(entry.name for entry in assignments)
            raise DiscoveryError(f"{student}: holds assignments {names}; choose one with --assignment NAME")
        candidates.append(
            Found(
                student_id(student.name),
                str(chosen),
                _loader(chosen),
                raw_name=student.name,
                timestamp=_timestamp(chosen / TIMESTAMP),
                file_time=_newest_time([chosen]),
            )
        )
    if not candidates:
        raise DiscoveryError(f"{submitted}: no nbgrader submissions in it; give the course's submitted/ folder")
    discovery = _collect(NBGRADER_LAYOUT, candidates, ignored)
    chosen_names = {Path(candidate.origin).name for candidate in candidates}
    discovery.assignment = assignment or (chosen_names.pop() if len(chosen_names) == 1 else "")
    return discovery


def _newest_time(paths: list[Path]) -> Callable[[], datetime | str | None]:
    """The newest modification time of the files in ``paths`` (folders looked into, links never followed, at most
    ``TIMED_AT_MOST`` entries) as this machine's wall-clock reading, with no zone, as a function to call when it
    is wanted: the late rule reads it in the course's zone, as it reads a zip member's."""

    def newest() -> datetime | str | None:
        times: list[tuple[float, float]] = []
        waiting, seen = list(paths), 0
        while waiting and seen < TIMED_AT_MOST:
            path = waiting.pop()
            seen += 1
            try:
                if path.is_symlink():
                    continue
                if path.is_dir():
                    waiting += [entry for entry in path.iterdir() if entry.name not in SKIPPED_FOLDERS]
                elif path.name != TIMESTAMP:
                    status = path.stat()
                    times.append((status.st_mtime, status.st_ctime))
            except OSError:
                continue
        if not times:
            return None
        modified, changed = max(times)
        if modified >= changed - TIME_KEPT_SLACK:
            # Given its time back, a file unpacked or copied here is older than its arrival (its status change);
            # one as new as that was given no time: the tool that wrote it kept none.
            return "set when the files were unpacked or copied here, by a tool that keeps no times"
        # The machine's own wall-clock reading, no zone: unzip set each file to the zip's reading in this machine's
        # zone, so this is the reading the zip held, to be read in the course's zone like a zip member's.
        return datetime.fromtimestamp(modified)

    return newest


def _downloaded(archive: Path) -> datetime | None:
    """The zip's own time, when it was saved here: no hand-in in it came later (a copy of it only moves it later)."""
    try:
        return datetime.fromtimestamp(archive.stat().st_mtime, UTC)
    except OSError:
        return None


def _timestamp(path: Path) -> str:
    """nbgrader's ``timestamp.txt`` (written by ``nbgrader submit``, read by its autograde), as it says the time,
    or "" where there is none. Read here, unlike the hand-in, because it is one short line, and read only so far."""
    try:
        with path.open("rb") as stream:
            text = stream.read(TIMESTAMP_BYTES).decode("utf-8", "replace")
    except OSError:
        return ""
    return " ".join(text.split())


# -- LMS bulk downloads ------------------------------------------------------------
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


def canvas_readings(name: str) -> list[Reading]:
    """Every way ``name`` fits Canvas's shape, the shortest slug first: a slug may hold ``_<digits>_<digits>_``
    (Canvas removes the characters between) and a display name may too, so one name can read more than one way."""
    readings: list[Reading] = []
    for cut in [-1, *(index for index, character in enumerate(name) if character == "_")]:
        slug, tail = name[: max(cut, 0)], name[cut + 1 :]
        match = CANVAS_TAIL.match(tail)
        if match is None or not all(_is_word(character) for character in slug):
            continue
        if (cut < 0) != match["id"].startswith("anon_"):  # an anonymous assignment's names, and only they, start so
            continue
        reading = Reading(match["id"], slug, _original(match["file"]), late=match["late"] is not None)
        if not any((seen.student, seen.file) == (reading.student, reading.file) for seen in readings):
            readings.append(reading)  # "x_LATE_1_2_f" also reads as slug "x_LATE": the same file, kept once
    return readings


def moodle_readings(name: str) -> list[Reading]:
    """Every way ``name`` fits Moodle's shape: each ``_<id>_assignsubmission_<plugin>`` followed by nothing, "_"
    (a folder) or "_<file name>"; the last comes last."""
    readings: list[Reading] = []
    for match in MOODLE_ID.finditer(name):
        rest = name[match.end() :]
        if match.start() == 0 or (rest and not rest.startswith("_")):
            continue
        readings.append(Reading(match["id"], name[: match.start()], _original(rest[1:])))
    return readings


LMS_READINGS: dict[str, Callable[[str], list[Reading]]] = {"Canvas": canvas_readings, "Moodle": moodle_readings}
# Which reading stands where nothing settles a name that reads more than one way: Canvas removes "_<digits>_"
# from a name before it writes the id, so its own id comes first; decisions.md takes Moodle's last.
UNSETTLED = {"Canvas": 0, "Moodle": -1}


def _is_word(character: str) -> bool:
    category = unicodedata.category(character)
    return category[0] in "LM" or category in CANVAS_WORD


def _original(file: str) -> str:
    """The file's name as the student gave it: Canvas renames a resubmitted ``bpe.py`` to ``bpe-1.py``."""
    resubmitted = RESUBMITTED.match(file)
    if resubmitted and resubmitted.group("stem") in MODULES:
        return resubmitted.group("stem") + resubmitted.group("suffix")
    return file


def lms_pattern(names: list[str], where: Path) -> str | None:
    """The LMS whose names most of ``names`` have, chosen once for the whole download; None if not a download.

    Never chosen name by name: a student who names an upload in another LMS's shape with a classmate's id
    (``x_999_assignsubmission_file_fast_bpe.py`` inside Canvas's ``smithjohn_1234_5678_…``) stays the
    uploader's file, and a name that fits no pattern of the download is reported, not guessed.
    """
    fits = {lms: sum(1 for name in names if readings(name)) for lms, readings in LMS_READINGS.items()}
    best = max(fits.values(), default=0)
    if not names or best * 2 <= len(names):
        return None
    chosen = [lms for lms, count in fits.items() if count == best]
    if len(chosen) > 1:
        raise DiscoveryError(
            f"{where}: every name fits both {' and '.join(chosen)} downloads, so the student ids "
            "are ambiguous; download the submissions from the LMS again"
        )
    return chosen[0]


def settle(readings: list[Reading], lms: str, named: Mapping[str, set[str]], roster: set[str] | None) -> list[Reading]:
    """The readings of one name that can be its own: one, or several where nothing tells them apart.

    ``named``: each id with the slugs that names reading one way only give it (the student's other files, the
    classmates'); ``roster``: the roster's ids, where there is one. A reading whose id another name gives another
    slug is a classmate's name, not this one's; of the rest, one whose slug the id's other names have is the
    student's; failing that, one the roster has. With no roster, ``UNSETTLED`` chooses; with one, what is left is
    left: the name is no one's until the instructor settles it.
    """
    if len(readings) < 2:
        return readings
    left = [reading for reading in readings if reading.slug in named.get(reading.student, {reading.slug})]
    if not left:
        return readings
    same = [reading for reading in left if reading.slug in named.get(reading.student, set())]
    if len(same) == 1:
        return same
    if roster is not None:
        on_roster = [reading for reading in left if student_id(reading.student) in roster]
        if on_roster:
            return on_roster  # one settles it; more are the instructor's to settle
    return [left[UNSETTLED[lms]]]


def _lms_groups(
    items: list[tuple[str, str]],
    lms: str,
    unfit: list[str],
    ambiguous: dict[str, list[Reading]],
    roster: set[str] | None,
) -> tuple[dict[tuple[str, str], dict[str, str]], set[tuple[str, str]]]:
    """Group (item, the name that carries the id) pairs by student and the name the LMS wrote before the id, every
    name read in ``lms``'s shape: one id under two names is two hand-ins, never one.

    Returns, per (id, name), each item with its name inside the submission; and the (id, name) pairs with a file
    the LMS marked late. Items whose names do not fit go to ``unfit``; names that read as more than one student's
    with nothing to settle them go to ``ambiguous`` (each with its readings), and are graded as no one's.
    """
    read = {head: LMS_READINGS[lms](head) for head in {head for _, head in items}}
    named: dict[str, set[str]] = defaultdict(set)
    for found in read.values():
        if len(found) == 1:
            named[found[0].student].add(found[0].slug)
    groups: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
    late: set[tuple[str, str]] = set()
    for item, head in items:
        settled = settle(read[head], lms, named, roster)
        if not settled:
            unfit.append(item)
            continue
        if len(settled) > 1:
            ambiguous[item] = settled
            continue
        reading = settled[0]
        inner = PurePosixPath(item).relative_to(head).as_posix() if item != head else ""
        groups[(reading.student, reading.slug)][item] = inner or reading.file
        if reading.late:
            late.add((reading.student, reading.slug))
    return groups, late


def _lms_candidates(
    source: Path,
    lms: str,
    groups: dict[tuple[str, str], dict[str, str]],
    late: set[tuple[str, str]],
    loader: Callable[[str, dict[str, str]], Reader],
    timer: Callable[[dict[str, str]], Callable[[], datetime | str | None]],
    downloaded: datetime | None = None,
) -> list[Found]:
    """One hand-in per (id, name) group; an id written under two names is two hand-ins, each saying its name, so
    that the batch lists both as the student's to choose between and merges neither into the other."""
    names: dict[str, int] = defaultdict(int)
    for student, _ in groups:
        names[student] += 1
    return [
        Found(
            student_id(student),
            f"{source} ({len(members)} file(s) of {student}"
            + (f", named {slug.replace('/', '_') or 'with no name'})" if names[student] > 1 else ")"),
            loader(student, members),
            slug.replace("_", " "),
            late=(student, slug) in late,
            lms=lms,
            file_time=timer(members),
            downloaded=downloaded,
        )
        for (student, slug), members in groups.items()
    ]


def _lms_folder(folder: Path, entries: list[Path], lms: str, roster: set[str] | None) -> Discovery:
    usable = [entry for entry in entries if not entry.is_symlink()]
    unfit: list[str] = []
    ambiguous: dict[str, list[Reading]] = {}
    groups, late = _lms_groups([(entry.name, entry.name) for entry in usable], lms, unfit, ambiguous, roster)
    ignored = [entry.name for entry in entries if entry.is_symlink()]

    def loader(student: str, members: dict[str, str]) -> Reader:
        return _group_loader(folder, student, [(folder / name, original) for name, original in members.items()])

    def timer(members: dict[str, str]) -> Callable[[], datetime | str | None]:
        return _newest_time([folder / name for name in members])

    candidates = _lms_candidates(folder, lms, groups, late, loader, timer)
    discovery = _collect(lms_layout(lms), candidates, ignored)
    discovery.lms, discovery.unfit, discovery.ambiguous = lms, unfit, ambiguous
    return discovery


def _group_loader(folder: Path, student: str, members: list[tuple[Path, str]]) -> Reader:
    """Each upload is named as the download names it, in messages and in a choice between two."""

    def load(limits: HandinLimits, chosen: Mapping[str, str]) -> LoadedSubmission:
        uploads: Uploads = []
        for path, original in members:
            if path.is_dir():  # Moodle's "one folder per student" option
                uploads.append((f"{path.name}/", loading.load(path, limits, chosen=chosen).files))
            elif path.suffix.lower() == ".zip":
                uploads.append((path.name, bounded.read_zip(path, limits=limits)))
            else:
                try:
                    uploads.append((path.name, {original or path.name: path.read_bytes()}))
                except OSError as error:
                    raise bounded.SubmissionError(
                        f"{path}: cannot be read ({error.strerror}); check its permissions"
                    ) from None
        files = merged_uploads(_uploads_of(folder, student), uploads, limits, chosen=chosen)
        with _named_as_downloaded(folder / student, _where_uploads_are(folder, student, [p.name for p, _ in members])):
            return loading.from_files(folder / student, files, name=student, limits=limits)

    return load


def _lms_zip(archive_path: Path, roster: set[str] | None) -> Discovery:
    try:
        with zipfile.ZipFile(archive_path) as archive:
            infos = [info for info in archive.infolist() if not info.is_dir()]
            names = [info.filename for info in infos]
    except zipfile.BadZipFile:
        raise DiscoveryError(f"{archive_path}: is not a valid .zip; download it from the LMS again") from None
    except OSError as error:
        raise DiscoveryError(f"{archive_path}: cannot be read ({error.strerror}); check its permissions") from None
    heads = sorted({PurePosixPath(name).parts[0] for name in names})
    lms = lms_pattern(heads, archive_path)
    if lms is None:
        raise DiscoveryError(
            f"{archive_path}: its file names carry no student ids (Canvas or Moodle style); "
            "unzip it and give the folder instead"
        )
    unfit: list[str] = []
    ambiguous: dict[str, list[Reading]] = {}
    items = [(name, PurePosixPath(name).parts[0]) for name in names]
    groups, late = _lms_groups(items, lms, unfit, ambiguous, roster)

    def loader(student: str, members: dict[str, str]) -> Reader:
        return _zip_group_loader(archive_path, student, members)

    made = {info.filename: info.date_time for info in infos}

    def timer(members: dict[str, str]) -> Callable[[], datetime | str | None]:
        def newest() -> datetime | str | None:
            times = [made[name] for name in members if name in made]
            try:
                return datetime(*max(times)) if times else None
            except ValueError:  # a date a zip may hold and a calendar may not (month 0)
                return None

        return newest

    discovery = _collect(
        f"LMS bulk download (.zip, {lms})",
        _lms_candidates(archive_path, lms, groups, late, loader, timer, _downloaded(archive_path)),
        [],
    )
    discovery.lms, discovery.unfit, discovery.ambiguous = lms, unfit, ambiguous
    return discovery


def _zip_group_loader(archive_path: Path, student: str, members: dict[str, str]) -> Reader:
    """Each upload is named as the download names it (its member's name), in messages and in a choice
    between two; inside the hand-in it has the name the student gave it (``members``)."""

    def load(limits: HandinLimits, chosen: Mapping[str, str]) -> LoadedSubmission:
        held = bounded.read_zip(archive_path, rename=lambda name: name if name in members else None, limits=limits)
        where = _where_uploads_are(archive_path, student, list(members), inside=True)
        with _named_as_downloaded(archive_path.parent / student, where):
            uploads = []
            for item, content in held.items():  # an upload is named by its member's name, inside the .zip
                with _named_as_downloaded(Path(item), _where_uploads_are(archive_path, student, [item], inside=True)):
                    uploads.append((item, unpacked(Path(item), members[item], content, limits)))
            files = merged_uploads(_uploads_of(archive_path, student), uploads, limits, chosen=chosen)
            return loading.from_files(archive_path.parent / student, files, name=student, limits=limits)

    return load


def _uploads_of(download: Path, student: str) -> str:
    """How messages name one student's uploads in an LMS download: the download as it is on disk, and the
    student, never a path that looks like one on disk but is inside the download."""
    return f"{download}, student {student}"


def _where_uploads_are(download: Path, student: str, uploads: list[str], *, inside: bool = False) -> str:
    """A student's uploads as the instructor has them: the one upload's own path in an unpacked download, else the
    download (``inside``: the .zip) and the uploads' names there."""
    if len(uploads) == 1 and not inside:
        return str(download / uploads[0])
    return f"{download}, {student}'s upload{'s' if len(uploads) > 1 else ''} {', '.join(sorted(uploads))}"


@contextlib.contextmanager
def _named_as_downloaded(stand_in: Path, where: str) -> Iterator[None]:
    """A hand-in of an LMS download is read as if it were the folder ``stand_in``, which is not on disk: its
    SubmissionError names ``where`` (the uploads as the download has them) in its place."""
    try:
        yield
    except (UploadConflict, _Named):
        raise  # names the download and the uploads already (an UploadConflict is the instructor's choice too)
    except bounded.SubmissionError as error:
        inner = re.compile(r"(?<![\w./-])" + re.escape(str(stand_in)) + r"(?:/(?P<folder>[^\s:;,]+))?(?=:)")
        said = inner.sub(lambda found: where + (f", folder {found['folder']}/" if found["folder"] else ""), str(error))
        raise _Named(said) from None


class _Named(bounded.SubmissionError):
    """A SubmissionError that names the uploads as the download has them already."""
