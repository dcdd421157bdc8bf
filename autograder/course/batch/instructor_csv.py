"""The files an instructor writes into a batch's output folder (adjustments.csv, choices.csv): CSV with a
header the batch made, read the same way, each line with its number for the messages that name it."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path


def rows(path: Path, header: tuple[str, ...], error: type[ValueError]) -> Iterator[tuple[int, list[str]]]:
    """Each line after the header, with its number, blank lines left out; nothing where the file is absent
    or empty. Raise ``error`` naming the file and the fix where it cannot be read or its header is not
    ``header``."""
    if not path.exists():
        return
    try:
        text = path.read_text(encoding="utf-8-sig")  # a spreadsheet may save it with a byte order mark
    except (OSError, UnicodeDecodeError) as problem:
        raise error(f"{path}: cannot be read ({problem}); save it as UTF-8 CSV") from None
    lines = csv.reader(text.splitlines())
    found = next(lines, None)
    if found is None:
        return
    if tuple(cell.strip() for cell in found) != header:
        raise error(f"{path}: line 1 must be the header {','.join(header)}; put it back")
    for number, row in enumerate(lines, start=2):
        if any(cell.strip() for cell in row):
            yield number, row
