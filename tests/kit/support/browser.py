"""Headless Chromium (Debian's ``chromium``) for looking at the kit's pages; a test without it skips (see engines).

Two ways in: ``load`` runs Chromium itself for a screenshot and the document it built; ``driven`` drives it
through Selenium and Debian's ``chromium-driver``, for what only a live page can say: its layout, and
what axe-core (Deque's accessibility engine) finds wrong with it (``accessibility_violations``).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engines import missing, require

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


def chromedriver() -> str:
    """Debian's driver for Selenium (``chromium-driver``); skips the test where it is missing."""
    return require("chromedriver", install="apt-get install chromium-driver")


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


# axe-core's browser script, as its npm package ships it: .ci/system-packages installs a pinned version
# globally; BPE_KIT_AXE may name another copy.
AXE_VARIABLE = "BPE_KIT_AXE"
AXE_INSTALL = "bash .ci/system-packages (axe-core from npm), or name its axe.min.js in BPE_KIT_AXE"
# What the pages are held to: WCAG 2.0, 2.1 and 2.2 at levels A and AA (text contrast of 4.5:1 among
# them), and axe's best practices (a main landmark, headings in order).
AXE_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice")


def axe_script() -> str:
    """axe-core's ``axe.min.js``; skips the test (fails it in CI's second step) where it is not installed."""
    named = os.environ.get(AXE_VARIABLE)
    path = Path(named) if named else _npm_global_folder() / "axe-core" / "axe.min.js"
    if not path.is_file():
        missing("axe-core", install=AXE_INSTALL)
    return path.read_text(encoding="utf-8")


def _npm_global_folder() -> Path:
    npm = shutil.which("npm")
    if npm is None:
        missing("npm (for axe-core)", install=AXE_INSTALL)
    found = subprocess.run([npm, "root", "--global"], capture_output=True, text=True, timeout=60)
    return Path(found.stdout.strip())


@contextlib.contextmanager
def driven(*, width: int = 1200, height: int = 1600) -> Iterator[Any]:
    """Chromium under Selenium's control (a ``selenium.webdriver.Chrome``), closed after the block."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing("selenium", install='pip install -e ".[dev]"')
    options = webdriver.ChromeOptions()
    for flag in (*FLAGS, f"--window-size={width},{height}"):
        options.add_argument(flag)
    options.binary_location = chromium()
    # The driver named, so Selenium never looks for one to download (this machine's network is closed).
    service = Service(chromedriver())
    driver = webdriver.Chrome(options=options, service=service)
    try:
        yield driver
    finally:
        driver.quit()


def accessibility_violations(driver: Any, page: Path) -> list[str]:
    """What axe-core finds wrong with ``page`` against AXE_TAGS, one line per rule broken (its first
    element and what to fix), with axe's version; [] for a page that passes."""
    script = axe_script()
    driver.get(page.as_uri())
    driver.execute_script(script)
    found = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}}).then(done, (error) => done({error: String(error)}));",
        list(AXE_TAGS),
    )
    if "error" in found:
        raise AssertionError(f"axe-core could not check {page}: {found['error']}")
    version = found["testEngine"]["version"]
    return [
        f"{page.parent.name}/{page.name}: {rule['id']} ({rule['impact']}, {len(rule['nodes'])} element(s), axe-core {version}): "
        f"{rule['nodes'][0]['html'][:160]}: {' '.join(rule['nodes'][0]['failureSummary'].split())}"
        for rule in found["violations"]
    ]
