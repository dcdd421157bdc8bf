"""Reading an LMS download by its names alone: which LMS wrote them (chosen once for the whole download),
whose each name is, settled where a name reads more than one way, and one student's names grouped."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from pathlib import Path, PurePosixPath

from autograder.hand_in.lms import canvas, moodle
from autograder.hand_in.lms.found import DiscoveryError, Reading, student_id

LMS_READINGS: dict[str, Callable[[str], list[Reading]]] = {canvas.NAME: canvas.readings, moodle.NAME: moodle.readings}
# Which reading stands where nothing settles a name that reads more than one way (each LMS's module says why).
UNSETTLED = {canvas.NAME: canvas.UNSETTLED, moodle.NAME: moodle.UNSETTLED}

# Per (id, the name the LMS wrote before it): each item of the download with its name inside the hand-in.
Groups = dict[tuple[str, str], dict[str, str]]


def lms_layout(lms: str) -> str:
    """Discovery.layout of an LMS's bulk download (``lms``: "Canvas", "Moodle")."""
    return f"LMS bulk download ({lms})"


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


def groups(
    items: list[tuple[str, str]],
    lms: str,
    unfit: list[str],
    ambiguous: dict[str, list[Reading]],
    roster: set[str] | None,
) -> tuple[Groups, set[tuple[str, str]]]:
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
    grouped: Groups = defaultdict(dict)
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
        grouped[(reading.student, reading.slug)][item] = inner or reading.file
        if reading.late:
            late.add((reading.student, reading.slug))
    return grouped, late
