"""The instructor's term page: its walkthrough is a class of ten walked through the real commands (term_walk),
and every command and course setting the page quotes is one the walk ran."""

from __future__ import annotations

import re

import pytest
import term_walk

PAGE_TEXT = term_walk.PAGE.read_text(encoding="utf-8")
SH_BLOCK = re.compile(r"^ *```sh\n(.*?)^ *```", flags=re.MULTILINE | re.DOTALL)
TOML_BLOCK = re.compile(r"^```toml\n(.*?)^```", flags=re.MULTILINE | re.DOTALL)


@pytest.mark.docs
@pytest.mark.slow
def test_the_term_page_shows_the_walk_as_it_runs(tmp_path):
    """The walk again, from an empty course folder: the page shows what it runs and prints, word for word
    (python tests/kit/support/term_walk.py --docs writes it there)."""
    pytest.importorskip("nbgrader.api", reason="the walk reads nbgrader's gradebook with nbgrader's API")
    walked = term_walk.walk(tmp_path)
    assert term_walk.page_walk(PAGE_TEXT) == walked.strip() + "\n", "run: python tests/kit/support/term_walk.py --docs"


def _walk_commands() -> set[str]:
    """The commands the page's walk ran, without the walk's own options and the folder it ran one in."""
    commands = set()
    for line in term_walk.page_walk(PAGE_TEXT).splitlines():
        if line.startswith("$ "):
            command = re.sub(r"^cd \S+ && ", "", line[2:])
            for option in term_walk.OWN_OPTIONS if command.startswith("grade ") else ():
                command = command.replace(f" {option}", "")
            commands.add(command)
    return commands


@pytest.mark.docs
@pytest.mark.unit
def test_every_command_and_setting_the_term_page_quotes_is_one_the_walk_ran():
    """Each `grade` and `unzip` command of the page's sh blocks, and each setting of its course.toml example, is
    one its walk ran (the walk itself checked against a run by the test above)."""
    ran = _walk_commands()
    assert "grade batch submissions/ -o graded/ --roster roster.csv --student 1009" in ran
    quoted = [
        line.split("#", 1)[0].strip()
        for block in SH_BLOCK.findall(PAGE_TEXT)
        for line in block.splitlines()
        if line.strip().startswith(("grade ", "unzip "))
    ]
    assert len(quoted) >= 6 and not [command for command in quoted if command not in ran], quoted
    settings = {f"{key} = {value}" for _, key, value in term_walk.COURSE_SETTINGS}
    example = [
        line.split("#", 1)[0].strip()
        for block in TOML_BLOCK.findall(PAGE_TEXT)
        for line in block.splitlines()
        if " = " in line
    ]
    assert example and not [line for line in example if line not in settings], example
