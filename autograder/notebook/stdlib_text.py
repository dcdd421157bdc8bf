"""A text of several megabytes that every student already has: the Python standard library's own source.

Part 6's training bonus trains on at least 5 MB, and the text must be there with no download and no system
package. The interpreter running the notebook brings its standard library's ``.py`` files (``Lib/`` in
CPython's tree, found with ``sysconfig``): about 11 MB once the tests are left out. The text is those files,
whole, each once, in the order of their paths, joined by ``<|endoftext|>`` until it holds the bytes asked
for. The notebook and ``benchmarks/train_bytes_speed.py`` both assemble it here, so they train on the same
bytes on the same interpreter.

Left out, and why:

- test folders (``test``, ``tests``, ``idle_test``): Debian and other distributions ship ``Lib/test`` in a
  package of its own or not at all, so with them the text would depend on how Python was installed;
- ``site-packages`` and ``dist-packages``: third-party code under its own licences, not the PSF's;
- empty files and repeats of a file already taken (``__init__.py`` files are often identical): a document
  seen twice would weigh its pairs twice.

The files are Copyright © 2001 onward Python Software Foundation, distributed under the PSF License Agreement;
the kit reads them where the interpreter has them and copies none.
"""

from __future__ import annotations

import hashlib
import os
import sysconfig
from dataclasses import dataclass
from pathlib import Path

END_OF_TEXT = "<|endoftext|>"
LEFT_OUT = frozenset({"test", "tests", "idle_test", "site-packages", "dist-packages"})


@dataclass(frozen=True)
class StdlibText:
    """The assembled text, how many bytes it holds, and how many files it took from which folder."""

    text: str
    size: int
    files: int
    folder: Path


def stdlib_folder() -> Path:
    """The running interpreter's standard library."""
    return Path(sysconfig.get_paths()["stdlib"])


def source_files(folder: Path) -> list[Path]:
    """The ``.py`` files under ``folder`` outside the folders left out, in the order of their paths."""
    found = []
    # A walk that never enters a folder left out: site-packages can hold more files than the library itself.
    for root, folders, names in os.walk(folder):
        folders[:] = [name for name in folders if name not in LEFT_OUT]
        found += [Path(root, name) for name in names if name.endswith(".py")]
    return sorted(found, key=lambda path: path.relative_to(folder).as_posix())


def stdlib_text(at_least: int, folder: Path | None = None) -> StdlibText:
    """Whole source files, each once, joined by ``<|endoftext|>``, until the text holds ``at_least`` bytes."""
    folder = folder or stdlib_folder()
    documents: list[str] = []
    seen: set[bytes] = set()
    size = 0
    for path in source_files(folder):
        if size >= at_least:
            break
        data = path.read_bytes()
        digest = hashlib.sha256(data).digest()
        if not data.strip() or digest in seen:
            continue
        try:
            document = data.decode("utf-8")
        except UnicodeDecodeError:
            continue  # not a whole UTF-8 document: leave it out rather than change its bytes
        seen.add(digest)
        size += len(data) + (len(END_OF_TEXT) if documents else 0)
        documents.append(document)
    if size < at_least:
        raise ValueError(
            f"{folder}: its source files hold {size:,} bytes, fewer than the {at_least:,} asked for; "
            "run this with a Python whose standard library is installed whole (python.org's or pyenv's)"
        )
    return StdlibText(END_OF_TEXT.join(documents), size, len(documents), folder)
