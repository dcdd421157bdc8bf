"""Which examples a hand-in's hidden properties draw: one of ``SETS`` sets, chosen by the hand-in's content
and the course's secret, so that inputs a hand-in recorded and leaked are worth nothing to the next one.

Hypothesis draws a property's examples from a seed. Derandomized, the seed is the test's own source: the
same examples for every hand-in, every year, so a hand-in that learned them (printing the calls it gets)
could answer the next from a table. Here the seed is one of ``SETS`` made from the course's secret, and a
hand-in uses set ``HMAC(secret, its content) mod SETS``: two hand-ins, or two versions of one, usually
draw different examples; the same hand-in always draws the same, so it always gets the same grade. Few sets
rather than one a hand-in, so a batch still replays each set's examples (replay) instead of drawing them
hundreds of times. The public suite, which students run themselves, keeps its fixed examples.

The secret is made by the kit on first use in ``.course-secret`` beside the course file (course.course_file),
or beside the kit where there is none: git-ignored, never in a student release, carried into the Gradescope
package, where the worker's user cannot read it. Or it is given as ``BPE_KIT_COURSE_SECRET`` (the kit's own
tests set a fixed one). The folder it lives in reaches the graders a batch starts as ``BPE_KIT_COURSE_FOLDER``,
set by whoever read the course file.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

from autograder.atomic_files import write_once
from autograder.kit_root import KIT_ROOT
from autograder.run_errors import RunError

SETS = 8
SECRET_FILE = ".course-secret"
SECRET_VARIABLE = "BPE_KIT_COURSE_SECRET"
SECRET_FOLDER_VARIABLE = "BPE_KIT_COURSE_FOLDER"  # a folder's path, never the secret: child processes see it


class SecretUnreadable(RunError, ValueError):
    """The secret's file holds no secret: one line naming it and the fix."""


def course_secret(folder: Path | None = None) -> bytes:
    """The course's secret: the variable's, else the file's in ``folder`` (by default the course's folder, or the
    kit's), made there (0600) on first use."""
    given = os.environ.get(SECRET_VARIABLE)
    if given:
        return given.encode("utf-8")
    path = (folder or course_folder()) / SECRET_FILE
    if not path.exists():
        # Shards starting at once on a fresh clone each make one: the first written is every one's secret.
        write_once(path, (secrets.token_hex(32) + "\n").encode("ascii"), mode=0o600)
    secret = path.read_text(encoding="ascii").strip()
    if not secret:
        raise SecretUnreadable(f"{path} is empty: delete it to make a new secret, or put the course's secret in it")
    return secret.encode("ascii")


def course_folder() -> Path:
    """Where the course's secret, and what is kept beside it, lives: the course file's folder, else the kit's."""
    return Path(os.environ.get(SECRET_FOLDER_VARIABLE) or KIT_ROOT)


def example_set(secret: bytes, content_digest: str) -> int:
    """The set a hand-in with this content draws from."""
    return int.from_bytes(hmac.new(secret, content_digest.encode("ascii"), hashlib.sha256).digest()[:8]) % SETS


def seed(secret: bytes, chosen: int) -> int:
    """Hypothesis's seed for set ``chosen``: unguessable without the secret."""
    return int.from_bytes(hmac.new(secret, f"example set {chosen}".encode(), hashlib.sha256).digest()[:16])
