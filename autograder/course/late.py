"""Late work: when each hand-in came, how late that is against the course file's due date, and what it costs.

The time comes from the best witness there is, and says which it was:

- the platform's own record: nbgrader's ``timestamp.txt``, Moodle's grading worksheet (``Last modified
  (submission)``);
- Canvas's mark: a download names a file handed in after Canvas's due date ``LATE``; Canvas marks whether it
  was late, and the file's own time says by how much (a hand-in Canvas did not mark is on time);
- the hand-in's own files: the newest one's time, said as such; unless it cannot be the hand-in's (later than
  the download, or set when the files were unpacked or copied here): then "file times unknown", and only the
  platform's record decides (Canvas's mark: on time, or late by an amount no one knows, which costs nothing
  and is named for the instructor).

Nothing is late where the course file sets no due date. The rule follows Canvas's late policy: a
percentage of full marks off per day (or hour) late, a part of one counting whole, never below a floor
(a percentage of full marks; a score already below it stays), and a cap (a late hand-in scores at most
that percentage of full marks). A hand-in within the grace period after its due date is on time; past it,
its lateness counts from the due date. An extension moves one student's due date.
"""

from __future__ import annotations

import csv
import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from autograder.run_errors import RunError

# The interval a late rule counts in, by name.
PER = {"day": timedelta(days=1), "hour": timedelta(hours=1)}
# Who said when a hand-in came (the gradebook's late column names it).
NBGRADER = "nbgrader's timestamp.txt"
MOODLE = "Moodle's worksheet"
CANVAS = "Canvas's mark"
FILE_TIME = "the file's own time"
# Said of a hand-in whose files' times cannot be trusted: later than the download (a zip member newer than the
# zip), or set when the files were unpacked or copied here (a tool that keeps no times); the platform decides.
FILE_TIMES_UNKNOWN = "file times unknown"
# Moodle's worksheet column for the submission's time, and how Moodle writes a time in English (userdate's
# default, strftimedaydatetime: "Friday, 20 November 2026, 10:15 AM"), in the downloading user's time zone.
MOODLE_SUBMITTED = "Last modified (submission)"
MOODLE_FORMAT = "%A, %d %B %Y, %I:%M %p"
# nbgrader submit writes "2026-11-20 10:15:00.000000 UTC": a date, a time, then a zone, as a name or an offset.
_STAMP = re.compile(
    r"^(?P<when>\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(?P<zone>[A-Za-z_/+-]+|[+-]\d{2}:?\d{2})?$"
)
EXTENSION_HEADER = ("student", "due")
SHOWN_FORMAT = "%Y-%m-%d %H:%M %Z"


class LateError(RunError, ValueError):
    """The course's late settings or extensions cannot be used; the message names the file and the fix."""


@dataclass(frozen=True)
class LatePolicy:
    """The course file's [late] table."""

    due: datetime | None = None  # with its zone; None: nothing is late
    time_zone: str = "UTC"  # for times given without one (the due date, Moodle's, a zip's)
    grace: timedelta = timedelta(0)
    per: str = "day"
    percent: float = 0.0  # of full marks, per interval late
    floor: float = 0.0  # percent of full marks the deductions never take a score below
    cap: float = 100.0  # percent of full marks a late hand-in scores at most
    extensions: Path | None = None

    @property
    def zone(self) -> ZoneInfo:
        return zone_named(self.time_zone)

    def rule_words(self) -> str:
        """The rule as a student reads it: "10% of full marks per day started, down to 50% at the least"."""
        words = []
        if self.percent:
            words.append(f"{self.percent:g}% of full marks off per {self.per} or part of one")
            if self.floor:
                words.append(f"never below {self.floor:g}% of full marks")
        if self.cap < 100:
            words.append(f"a late hand-in scores at most {self.cap:g}% of full marks")
        return ", ".join(words) or "no penalty"

    def penalty(self, score: float, full_marks: float, late_by: timedelta) -> float:
        """The points a hand-in ``late_by`` past its due date loses from ``score`` (never negative)."""
        if late_by <= timedelta(0) or score <= 0:
            return 0.0
        intervals = math.ceil(late_by / PER[self.per])
        after = score - self.percent / 100 * intervals * full_marks
        after = max(after, min(score, self.floor / 100 * full_marks))
        after = min(after, self.cap / 100 * full_marks)
        return round(max(score - after, 0.0), 4)


def zone_named(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise LateError(
            f"time zone {name!r}: not one this machine knows; write an IANA name such as 'Europe/Berlin' or 'UTC' "
            "(pip install tzdata where the system has none)"
        ) from None


@dataclass(frozen=True)
class HandedIn:
    """What is known of when a hand-in came."""

    at: datetime | None = None  # with its zone
    source: str = ""  # who says so (NBGRADER, MOODLE, FILE_TIME), "" where no one does
    marked_late: bool | None = None  # Canvas's mark (its file named LATE or not); None where the LMS marks nothing
    unreadable: str = ""  # a time the platform gave that could not be read, as it was written
    unknown: str = ""  # why the files' own times cannot be the hand-in's (FILE_TIMES_UNKNOWN), "" where they can


@dataclass(frozen=True)
class Lateness:
    """How one hand-in stands against its due date."""

    late_by: timedelta  # 0 for on time
    due: datetime  # the student's own (an extension moves it)
    handed_in: HandedIn
    extended: bool = False
    doubt: str = ""  # what the instructor should check (a Canvas mark its time does not bear out)

    @property
    def late(self) -> bool:
        return self.late_by > timedelta(0)

    def words(self) -> str:
        """The gradebook's late column: "2 days 3 h late (nbgrader's timestamp.txt)", "on time (…)"."""
        if self.handed_in.at is None and self.handed_in.unknown:
            if self.handed_in.marked_late is False:
                return f"on time ({CANVAS}; {FILE_TIMES_UNKNOWN})"
            said = f"late by {CANVAS}, by how much no one knows; " if self.handed_in.marked_late else ""
            return f"{said}{FILE_TIMES_UNKNOWN} ({self.handed_in.unknown}); nothing taken"
        if self.handed_in.at is None:
            unreadable = f": {self.handed_in.unreadable!r} is not a time" if self.handed_in.unreadable else ""
            return f"no time known{unreadable}; nothing taken"
        where = self.handed_in.source
        marked = self.handed_in.marked_late
        if marked is False:
            where = CANVAS
        elif marked:
            where = f"{CANVAS}, timed by {where}" if self.late else f"{where}, though {CANVAS} says late"
        extended = f", extended to {shown(self.due)}" if self.extended else ""
        if not self.late:
            return f"on time ({where}{extended})"
        return f"{duration_words(self.late_by)} late ({where}{extended})"


def shown(moment: datetime) -> str:
    return moment.strftime(SHOWN_FORMAT)


def duration_words(span: timedelta) -> str:
    """``span`` in days, hours and minutes, the largest two that are not 0: "2 days 3 h", "45 min"."""
    minutes = math.ceil(span.total_seconds() / 60)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    pieces = [f"{days} day{'s' if days != 1 else ''}" if days else "", f"{hours} h" if hours else ""]
    pieces.append(f"{minutes} min" if minutes else "")
    return " ".join([piece for piece in pieces if piece][:2]) or "0 min"


def lateness(policy: LatePolicy, handed_in: HandedIn, extension: datetime | None) -> Lateness | None:
    """Where ``handed_in`` stands against the due date (``extension``: the student's own); None where the course
    sets no due date."""
    if policy.due is None:
        return None
    due = extension or policy.due
    at = handed_in.at
    past = (at - due) if at is not None else timedelta(0)
    if past <= policy.grace or handed_in.marked_late is False:  # Canvas saw the true time: not late is on time
        past = timedelta(0)
    doubt = ""
    if handed_in.marked_late and handed_in.at is None and handed_in.unknown:
        doubt = (
            f"Canvas marks it late, and its {FILE_TIMES_UNKNOWN} ({handed_in.unknown}): no penalty taken, since how "
            "late is not known; take one in adjustments.csv if it is due"
        )
    # Canvas marks late whatever comes after the due date, knowing no grace period: one within it is no doubt
    elif handed_in.marked_late and extension is None and (at is None or at <= due):
        doubt = "Canvas marks it late, but its file's time is not past the due date: no penalty taken; check it"
    return Lateness(past, due, handed_in, extended=extension is not None, doubt=doubt)


def read_extensions(path: Path, policy: LatePolicy) -> dict[str, datetime]:
    """The extensions file: ``student,due`` rows, each a student's own due date (in the course's time zone where
    it names none). LateError naming the line and the fix on anything it cannot read."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as error:
        raise LateError(
            f"{path}: cannot be read ({error.strerror}); the course file's [late] extensions names it"
        ) from None
    except UnicodeDecodeError:
        raise LateError(f"{path}: is not UTF-8 text; save it as UTF-8 CSV") from None
    rows = csv.reader(text.splitlines())
    header = tuple(cell.strip().lower() for cell in next(rows, []))
    if header[:2] != EXTENSION_HEADER:
        raise LateError(f"{path}: line 1 must be the header {','.join(EXTENSION_HEADER)}; put it first")
    found: dict[str, datetime] = {}
    for number, row in enumerate(rows, start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) < 2:
            raise LateError(f"{path}: line {number}: give the student's id and their due date")
        student, written = row[0].strip(), row[1].strip()
        moment = read_time(written, policy.zone)
        if moment is None:
            raise LateError(
                f"{path}: line {number}: {written!r} is not a date and time; write it as 2026-11-27 23:59 "
                f"(in {policy.time_zone}, or with a zone: 2026-11-27 23:59 UTC)"
            )
        found[student] = moment
    return found


def read_time(text: str, zone: ZoneInfo) -> datetime | None:
    """A time as the kit's files and nbgrader write one ("2026-11-20 10:15:00.000000 UTC", "2026-11-27 23:59",
    "2026-11-20T10:15:00+01:00"), in ``zone`` where it names none; None where it is not one."""
    match = _STAMP.match(" ".join(text.split()))
    if match is None:
        return None
    try:
        moment = datetime.fromisoformat(match.group("when").replace(" ", "T"))
    except ValueError:
        return None
    written = match.group("zone")
    if not written:
        return moment.replace(tzinfo=zone)
    if written[0] in "+-":
        try:
            return datetime.fromisoformat(match.group("when").replace(" ", "T") + written)
        except ValueError:
            return None
    if written.upper() in ("UTC", "Z", "GMT"):
        return moment.replace(tzinfo=UTC)
    try:
        return moment.replace(tzinfo=ZoneInfo(written))
    except (ZoneInfoNotFoundError, ValueError):
        return None  # an abbreviation (PST) names no one zone


def moodle_time(text: str, zone: ZoneInfo) -> datetime | None:
    """A time as Moodle's English worksheet writes it, in the worksheet's zone; None for "-" or another form."""
    try:
        return datetime.strptime(" ".join(text.split()), MOODLE_FORMAT).replace(tzinfo=zone)
    except ValueError:
        return None
