"""Find the submissions in what an instructor hands to ``grade batch``: the hand-ins its layout holds
(``hand_in/lms``, which knows what each LMS's download, nbgrader's folder and a plain folder look like), each
given an id of its own that no class file of OUT has, and two hand-ins of one student set apart as a conflict.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path

from autograder.course.batch.store import CLASS_FILES
from autograder.hand_in.lms.found import DiscoveryError, Download, Found, Reading, student_id
from autograder.hand_in.lms.layouts import read_layout
from autograder.hand_in.lms.nbgrader import LAYOUT as NBGRADER_LAYOUT

# What the batch's other stages import from here, whichever module of hand_in/lms holds it.
__all__ = ["NBGRADER_LAYOUT", "Discovery", "DiscoveryError", "Found", "discover", "student_id"]


@dataclass
class Discovery:
    """What a batch's folder holds: the hand-ins under ids of their own, and what could not be taken as one.
    ``layout``, ``assignment``, ``lms``, ``ignored``, ``unfit`` and ``ambiguous`` are the download's (``Download``)."""

    layout: str
    found: list[Found] = field(default_factory=list)
    assignment: str = ""
    lms: str = ""
    conflicts: dict[str, list[Found]] = field(default_factory=dict)  # id -> two hand-ins or more, one student
    ignored: list[str] = field(default_factory=list)
    # id -> the other names that cleaned to it: each was graded under an id of its own (see _distinct_ids)
    collisions: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    unfit: list[str] = field(default_factory=list)
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
    return _collect(read_layout(path, assignment=assignment, roster_ids=roster_ids))


def _collect(download: Download) -> Discovery:
    """The download's hand-ins under ids of their own: one per student, or two and more in conflict."""
    discovery = Discovery(
        layout=download.layout,
        ignored=download.ignored,
        assignment=download.assignment,
        lms=download.lms,
        unfit=download.unfit,
        ambiguous=download.ambiguous,
    )
    by_id: dict[str, list[Found]] = defaultdict(list)
    for candidate in _distinct_ids(_off_class_files(download.found, discovery.reserved), discovery.collisions):
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
