"""The release installs what its README uses: every command the README gives a student comes with an install it names.

The release's README is the students' page word for word (test_release.py) and its pyproject.toml is
``student_pyproject``'s, so both are read here without building a release.
"""

from __future__ import annotations

import re
import tomllib
from importlib import metadata

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from autograder.authoring.release import NOTEBOOKS_EXTRA, STUDENT_PAGE, student_pyproject
from autograder.kit_root import KIT_ROOT

pytestmark = pytest.mark.unit

INLINE = re.compile(r"`([^`\n]+)`")
FENCE = re.compile(r"^```(?:bash|sh|console|text)?\n(.*?)^```", re.MULTILINE | re.DOTALL)
# The release's folder (".", or where a notebook unzipped it), alone or with one of its extras.
INSTALL = re.compile(r'^pip install -e (?:\.|"(?:\.|/content/bpe-kit-student)\[(?P<extra>[a-z-]+)\]")$')


def readme_commands() -> list[str]:
    """Each command line of the README: a shell block's lines (without comments) and inline spans."""
    text = (KIT_ROOT / STUDENT_PAGE).read_text(encoding="utf-8")
    lines = [line.split("  #")[0].strip() for block in FENCE.findall(text) for line in block.splitlines()]
    lines += INLINE.findall(FENCE.sub("", text))
    # A notebook's own commands (Colab's `%pip`, `!unzip`) are the same programs.
    lines = [line.lstrip("%!") for line in lines]
    return [line for line in lines if line.split(" ")[0] in {"pip", "jupyter", "grade"}]


def installed_closure(requirements: list[str]) -> set[str]:
    """The distributions ``requirements`` bring, with everything they require in turn (as installed here)."""
    seen: set[str] = set()
    waiting = [Requirement(requirement) for requirement in requirements]
    while waiting:
        requirement = waiting.pop()
        name = canonicalize_name(requirement.name)
        if name in seen or (requirement.marker is not None and not requirement.marker.evaluate({"extra": ""})):
            continue
        seen.add(name)
        try:
            waiting.extend(Requirement(text) for text in metadata.requires(requirement.name) or [])
        except metadata.PackageNotFoundError:
            continue  # counted, but what it requires is unknown here
    return seen


def program_distribution(program: str) -> str:
    found = [point for point in metadata.entry_points(group="console_scripts") if point.name == program]
    assert found, (
        f"{program}: no installed package provides it; pip install -e '.[dev]' (it brings the notebooks extra)"
    )
    assert found[0].dist is not None
    return canonicalize_name(found[0].dist.name)


def test_the_readme_gives_the_commands_this_test_reads():
    commands = readme_commands()
    assert any(command.startswith("pip install") for command in commands), commands
    assert any(command.startswith("jupyter ") for command in commands), commands


def test_each_install_the_readme_names_is_the_release_itself_or_one_of_its_extras():
    extras = tomllib.loads(student_pyproject())["project"]["optional-dependencies"]
    for command in readme_commands():
        if command.startswith("pip"):
            match = INSTALL.match(command)
            assert match, f"docs/students.md: `{command}` installs what the release does not list; add it to an extra"
            assert match["extra"] in (None, *extras), f"docs/students.md: `{command}` names no extra of the release"


def test_each_jupyter_command_the_readme_runs_comes_with_the_notebooks_extra():
    extra = tomllib.loads(student_pyproject())["project"]["optional-dependencies"][NOTEBOOKS_EXTRA]
    brought = installed_closure(extra)
    for command in readme_commands():
        words = command.split(" ")
        if words[0] == "jupyter":
            provider = program_distribution(f"jupyter-{words[1]}")
            assert provider in brought, f"docs/students.md: `{command}` needs {provider}; add it to the notebooks extra"


def test_grade_is_the_releases_own_command():
    scripts = tomllib.loads(student_pyproject())["project"]["scripts"]
    assert all(command.split(" ")[0] in scripts for command in readme_commands() if command.startswith("grade"))
