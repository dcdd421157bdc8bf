"""The one way a kit test asks for an outside engine (a browser, a container runtime, Slurm).

Where the engine is missing the test skips with one line saying what to install; CI's second step sets
``BPE_KIT_REQUIRE_ENGINES=1``, where everything is installed, and there a missing engine fails the test::

    chromium = require("chromium", install="apt-get install chromium chromium-driver")

An engine that is not a program on PATH (a script a test loads into the browser) says so with ``missing``.
"""

from __future__ import annotations

import os
import shutil
from typing import NoReturn

import pytest

REQUIRE_VARIABLE = "BPE_KIT_REQUIRE_ENGINES"


def require(program: str, *, install: str) -> str:
    """The path of ``program`` on PATH; else skip (fail under ``BPE_KIT_REQUIRE_ENGINES=1``) saying ``install``."""
    found = shutil.which(program)
    return found if found is not None else missing(program, install=install)


def missing(engine: str, *, install: str) -> NoReturn:
    """Skip the test, or fail it under ``BPE_KIT_REQUIRE_ENGINES=1``: ``engine`` is not here, ``install`` it."""
    unavailable(f"needs {engine}: {install}")


def unavailable(message: str) -> NoReturn:
    """Skip the test saying ``message`` (what it needs), or fail it under ``BPE_KIT_REQUIRE_ENGINES=1``."""
    if os.environ.get(REQUIRE_VARIABLE) == "1":
        pytest.fail(message, pytrace=False)
    pytest.skip(message)
