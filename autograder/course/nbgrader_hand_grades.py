"""Which of a gradebook's manual scores a grader typed into formgrader, and which the kit wrote.

nbgrader keeps one manual score and one extra credit per grade cell, whoever set them: formgrader's page saves
both when a grader types a score (nbgrader/server_extensions/formgrader/apihandlers.py, GradeHandler.put), and
the kit writes them for the instructor's adjustments and a bonus. So the kit records beside the gradebook what it
wrote in each cell (``gradebook.bpe-kit.json`` for ``gradebook.db``), and at the next export a cell holding
something else, neither empty nor what the kit would write now, is a grader's and stays, as ``nbgrader
autograde`` leaves a manual score.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

Pair = tuple[float | None, float | None]  # (manual score, extra credit)
# assignment -> student -> "notebook/cell" -> what the kit wrote there
Written = dict[str, dict[str, dict[str, Pair]]]
SUFFIX = ".bpe-kit.json"


def record_path(database: Path) -> Path:
    return database.with_name(database.stem + SUFFIX)


def read(database: Path) -> Written:
    """What the kit wrote at its last export into ``database``; empty where it never did (or the record is not
    one: then every manual score not the kit's own is taken for a grader's, the safe side)."""
    try:
        loaded = json.loads(record_path(database).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(loaded, dict):
        return {}
    written: Written = {}
    for assignment, students in loaded.items():
        if not isinstance(students, dict):
            continue
        for student, cells in students.items():
            if not isinstance(cells, dict):
                continue
            kept = written.setdefault(str(assignment), {}).setdefault(str(student), {})
            for label, pair in cells.items():
                if isinstance(pair, list) and len(pair) == 2 and all(_number_or_none(value) for value in pair):
                    kept[str(label)] = (pair[0], pair[1])
    return written


def _number_or_none(value: object) -> bool:
    return value is None or (isinstance(value, int | float) and not isinstance(value, bool))


def write(database: Path, written: Written) -> None:
    """Record what the kit wrote, replacing the record at once (a reader never sees half of one)."""
    path = record_path(database)
    text = json.dumps(written, indent=1, sort_keys=True) + "\n"
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
        stream.write(text)
    os.replace(temporary, path)


def typed_by_hand(found: Pair, kit_wrote: Pair | None, kit_wants: Pair) -> bool:
    """Whether a cell's ``found`` (manual score, extra credit) is a grader's: set, and neither what the kit wrote
    there last (``kit_wrote``, None where it has no record of the cell) nor what it would write now."""
    if found == (None, None):
        return False
    return not (_same(found, kit_wrote) or _same(found, kit_wants))


def _same(found: Pair, kit: Pair | None) -> bool:
    if kit is None:
        return False
    return all(
        (a is None and b is None) or (a is not None and b is not None and abs(a - b) < 1e-6)
        for a, b in zip(found, kit, strict=True)
    )
