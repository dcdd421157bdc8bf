"""The batch's late work: each hand-in's time from its best witness, its lateness under the course file's rule,
and the grade with the penalty taken once, where the feedback says so.

Applied at every run to the results as they are (like the adjustments, after them): a changed due date, rule
or extension needs no grading again, and the stored results never hold a penalty.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from zoneinfo import ZoneInfo

from autograder.course import late
from autograder.course.batch.discover import Found
from autograder.course.late import HandedIn, Lateness, LatePolicy
from autograder.hand_in.lms import canvas
from autograder.scoring.grade_result import GradeResult, LateEntry
from autograder.scoring.scoring import points_number

CANVAS = canvas.NAME  # the LMS whose downloads mark late files


def handed_in(found: Found, roster_row: Mapping[str, str] | None, zone: ZoneInfo) -> HandedIn:
    """When ``found`` came, from the best witness: nbgrader's timestamp.txt, Moodle's worksheet (the roster,
    ``roster_row``), else the files' own time (with Canvas's mark, where the download is Canvas's)."""
    marked = found.late if found.lms == CANVAS else None
    if found.timestamp:
        at = late.read_time(found.timestamp, zone)
        if at is not None:
            return HandedIn(at, late.NBGRADER)
        return HandedIn(unreadable=found.timestamp, source=late.NBGRADER)
    moodle = (roster_row or {}).get(late.MOODLE_SUBMITTED, "").strip()
    if moodle and moodle != "-":
        at = late.moodle_time(moodle, zone)
        if at is not None:
            return HandedIn(at, late.MOODLE)
    own = found.file_time()
    if isinstance(own, str):  # hand_in/lms/times.py's word for times set when the files were unpacked or copied here
        return HandedIn(source=late.FILE_TIMES_UNKNOWN, marked_late=marked, unknown=own)
    if own is not None and own.tzinfo is None:
        own = own.replace(tzinfo=zone)  # a zip's time, written in the zipping machine's local time
    if own is not None and found.downloaded is not None and own > found.downloaded:
        why = f"newer than the download itself, {late.shown(found.downloaded.astimezone(zone))}"
        return HandedIn(source=late.FILE_TIMES_UNKNOWN, marked_late=marked, unknown=why)
    source = late.FILE_TIME if own is not None else ""
    return HandedIn(own, source, marked_late=marked)


def standing(
    policy: LatePolicy,
    found: Mapping[str, Found],
    rosters: Mapping[str, Mapping[str, str]],
    extensions: Mapping[str, datetime],
) -> dict[str, Lateness]:
    """Each hand-in's lateness by student id; none where the course sets no due date."""
    if policy.due is None:
        return {}
    zone = policy.zone
    found_standing: dict[str, Lateness] = {}
    for student, entry in found.items():
        standing_now = late.lateness(policy, handed_in(entry, rosters.get(student), zone), extensions.get(student))
        if standing_now is not None:
            found_standing[student] = standing_now
    return found_standing


def charged(result: GradeResult, lateness: Lateness, policy: LatePolicy, full_marks: float) -> GradeResult:
    """``result`` (adjusted already) with what ``lateness`` costs under ``policy`` taken off once, and said."""
    if not lateness.late:
        return result
    penalty = policy.penalty(result.score, full_marks, lateness.late_by)
    said = (
        f"handed in {late.duration_words(lateness.late_by)} after the due date ({late.shown(lateness.due)}), "
        f"as {lateness.handed_in.source} says"
    )
    if lateness.handed_in.marked_late:
        said += " (Canvas marked it late)"
    entry = LateEntry(said=said, rule=policy.rule_words(), penalty=penalty)
    return replace(result, score=round(result.score - penalty, 4), late=entry)


def penalty_text(result: GradeResult | None) -> str:
    """The gradebook's late_penalty column: the points taken, "" where none were."""
    if result is None or result.late is None or not result.late.penalty:
        return ""
    return points_number(result.late.penalty)


def doubts(standings: Mapping[str, Lateness]) -> list[str]:
    """One warning a hand-in whose lateness the instructor should check, and one for lateness read from files'
    own times alone (a copy that did not keep them makes every hand-in as new as the copy)."""
    lines = [f"{student}: {lateness.doubt}" for student, lateness in sorted(standings.items()) if lateness.doubt]
    unreadable = sorted(
        student
        for student, lateness in standings.items()
        if lateness.handed_in.unreadable and lateness.handed_in.at is None
    )
    if unreadable:
        lines.append(
            f"{len(unreadable)} hand-in(s) have a timestamp.txt that is not a time ({', '.join(unreadable[:20])}): "
            "nothing taken; write it as nbgrader submit does (2026-11-20 10:15:00 UTC)"
        )
    unknown = sorted(
        student
        for student, lateness in standings.items()
        if lateness.handed_in.unknown and lateness.handed_in.marked_late is None
    )
    if unknown:
        lines.append(
            f"{len(unknown)} hand-in(s) have {late.FILE_TIMES_UNKNOWN} ({', '.join(unknown[:20])}): their files' times "
            "are later than the download or were set when they were unpacked or copied, so no lateness is taken "
            "from them; give the platform's record (nbgrader's timestamp.txt, Moodle's worksheet as --roster, "
            "Canvas's download as it came)"
        )
    by_files = sorted(
        student
        for student, lateness in standings.items()
        if lateness.handed_in.source == late.FILE_TIME and lateness.handed_in.marked_late is None and lateness.late
    )
    if by_files:
        lines.append(
            f"{len(by_files)} hand-in(s) are late by their files' own times alone ({', '.join(by_files[:20])}): no "
            "platform said when they came; check the files kept their times (a copy may not), or give the "
            "platform's record (nbgrader's timestamp.txt, Moodle's worksheet as --roster)"
        )
    return lines
