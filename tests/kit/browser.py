"""Headless Chromium (Debian's ``chromium``) for looking at the kit's pages; a test without it skips (see engines)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from engines import require

# Quiet and offline: this machine's network is closed, and Chromium's own background connections
# (updates, sync, Google's hosts) would otherwise be refused many at a time.
FLAGS = (
    "--headless",
    "--no-sandbox",  # run as root in CI; the page is our own file
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def chromium() -> str:
    """Chromium's path (``chromium-browser`` is Ubuntu's name for it); skips the test where it is missing."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    return found or require("chromium", install="apt-get install chromium chromium-driver")


def load(page: Path, screenshot: Path, *, width: int = 1200, height: int = 1600) -> str:
    """Open ``page`` as a browser does: save a screenshot, and return the document as the browser built it."""
    with tempfile.TemporaryDirectory() as profile:
        common = [chromium(), *FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}"]
        shot = subprocess.run(
            [*common, f"--screenshot={screenshot}", page.as_uri()], capture_output=True, text=True, timeout=120
        )
        assert shot.returncode == 0 and screenshot.is_file(), shot.stderr[-2000:]
        dom = subprocess.run([*common, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120)
        assert dom.returncode == 0, dom.stderr[-2000:]
    return dom.stdout
