"""Files written whole or not at all: a reader, or a rerun after ``kill -9``, never sees half of one.

Everything the kit writes for others to read goes through here: a batch's
results and class files, Gradescope's results.json, the release's zips, and
the course's secret, which the first of several graders starting at once makes.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

TEMP_PREFIX = ".partial-"  # what a killed writer leaves behind, for a sweep to find


def _file_mode() -> int:
    """The mode an ordinary new file gets here (0644 under the usual umask): mkstemp's 0600 would keep a
    course's web server from serving feedback pages."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


FILE_MODE = _file_mode()


@contextlib.contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """A temporary file beside ``path`` to write into; once the block ends it is synced to disk and takes
    ``path``'s place, and if the block raises it is removed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=path.parent)
    os.close(handle)
    temporary = Path(name)
    try:
        os.chmod(temporary, FILE_MODE)
        yield temporary
        with open(temporary, "rb+") as written:
            os.fsync(written.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


def write_atomically(path: Path, content: str | bytes) -> None:
    """Write ``content`` (text as UTF-8) to ``path``, whole or not at all."""
    with replacing(path) as temporary:
        if isinstance(content, str):
            temporary.write_text(content, encoding="utf-8", newline="")
        else:
            temporary.write_bytes(content)


def write_once(path: Path, content: bytes, *, mode: int = FILE_MODE) -> bool:
    """Write ``content`` to ``path`` (with ``mode``) unless a file is there already: True if this call wrote it.

    Of writers racing to make one file, one wins and every other finds the winner's whole file: the content
    is written and synced under a temporary name first, then linked to ``path``, which fails if it exists.
    """
    handle, name = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=path.parent)
    temporary = Path(name)
    try:
        with os.fdopen(handle, "wb") as written:
            os.fchmod(written.fileno(), mode)
            written.write(content)
            written.flush()
            os.fsync(written.fileno())
        os.link(temporary, path)
    except FileExistsError:
        return False
    finally:
        temporary.unlink(missing_ok=True)
    return True
