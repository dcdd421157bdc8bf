"""nbgrader's formgrader, served by a real Jupyter server over one course folder, and read in Chromium.

``served`` starts ``jupyter server`` with only nbgrader's formgrader extension on (JupyterLab and the others
would take a minute to load and are not what the test looks at), on a free local port behind a token;
``logged_in`` signs a Selenium driver in through the server's own login page, as an instructor does.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

READY_WITHIN = 180  # seconds: the server's start on a loaded machine; it polls, so an idle one is quick
# Every server extension the dev extra installs, off but formgrader: jupyter_server reads an explicit False
# over the config.d files that turn them on.
OFF = (
    "jupyterlab",
    "notebook",
    "notebook_shim",
    "jupyter_lsp",
    "jupyter_server_terminals",
    "nbgrader.server_extensions.assignment_list",
    "nbgrader.server_extensions.course_list",
    "nbgrader.server_extensions.validate_assignment",
)


@dataclass(frozen=True)
class Formgrader:
    base: str  # http://127.0.0.1:<port>
    token: str
    log: Path

    def url(self, path: str) -> str:
        return f"{self.base}/formgrader/{path.lstrip('/')}"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def served(course: Path, scratch: Path) -> Iterator[Formgrader]:
    """formgrader over ``course`` (its gradebook.db, submitted/ and autograded/), stopped after the block."""
    pytest.importorskip("nbgrader.server_extensions.formgrader", reason="nbgrader is in the dev extra")
    pytest.importorskip("jupyter_server", reason="jupyter_server comes with nbgrader (the dev extra)")
    port, token = _free_port(), secrets.token_hex(16)
    extensions = "{" + ", ".join(f"'{name}': False" for name in OFF) + "}"
    command = [sys.executable, "-m", "jupyter_server", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1"]
    command += [f"--ServerApp.root_dir={course}", f"--IdentityProvider.token={token}"]
    command += [f"--ServerApp.jpserver_extensions={extensions}", "--ServerApp.port_retries=0"]
    if os.geteuid() == 0:
        command.append("--allow-root")  # CI's containers run as root; the server serves only this course
    runtime = scratch / "jupyter-runtime"
    runtime.mkdir(parents=True, exist_ok=True)
    environment = {**os.environ, "JUPYTER_RUNTIME_DIR": str(runtime)}
    # nbgrader's api shells out to alembic, installed beside this Python
    environment["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{environment.get('PATH', '')}"
    log = scratch / "formgrader.log"
    with log.open("wb") as stream:
        server = subprocess.Popen(
            command, cwd=course, env=environment, stdout=stream, stderr=subprocess.STDOUT, start_new_session=True
        )
    found = Formgrader(f"http://127.0.0.1:{port}", token, log)
    try:
        _wait_until_ready(found, server)
        yield found
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=60)


def _wait_until_ready(found: Formgrader, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + READY_WITHIN
    request = urllib.request.Request(found.url("api/assignments"), headers={"Authorization": f"token {found.token}"})
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"jupyter server ended ({server.returncode}): {found.log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.5)
    raise AssertionError(f"formgrader did not answer within {READY_WITHIN} s: {found.log.read_text()[-3000:]}")


def logged_in(driver: Any, found: Formgrader) -> None:
    """Sign ``driver`` in through the server's login page with its token."""
    from selenium.webdriver.common.by import By

    driver.get(f"{found.base}/login?next=%2Fformgrader")
    driver.find_element(By.ID, "password_input").send_keys(found.token)
    driver.find_element(By.ID, "login_submit").click()
    waited(driver, lambda page: "/login" not in page.current_url, "the login page to let the token in")


def waited(driver: Any, ready: Any, what: str, *, within: float = 90) -> Any:
    """What ``ready(driver)`` gives once it is truthy (formgrader's pages fill in from its api after they load)."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        return WebDriverWait(driver, within, poll_frequency=0.25).until(ready)
    except TimeoutException:
        raise AssertionError(f"waited {within:g} s for {what} at {driver.current_url}") from None


def rows(driver: Any, path: str, found: Formgrader) -> list[str]:
    """The text of each row of a formgrader table page, once its api has filled it."""
    from selenium.webdriver.common.by import By

    driver.get(found.url(path))

    def filled(page: Any) -> list[str] | None:
        texts = [row.text for row in page.find_elements(By.CSS_SELECTOR, "tbody tr")]
        return texts if texts and not any("Loading" in text for text in texts) else None

    return list(waited(driver, filled, f"formgrader's table at {path}"))
