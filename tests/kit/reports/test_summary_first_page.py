"""The class summary is the instructor's first page: who needs help comes first, each by roster name, and every
figure says what it is."""

from __future__ import annotations

from pathlib import Path

from classroom import SOLUTIONS, TEMPLATE
from commands import run_batch


def _section(markdown: str, title: str) -> str:
    """The text of the summary's section headed ``title``, up to the next one."""
    _, found, rest = markdown.partition(f"## {title}\n")
    assert found, f"no section {title!r} in:\n{markdown[:1500]}"
    return rest.split("\n## ", 1)[0]


def test_who_needs_help_comes_first_by_name(tmp_path: Path) -> None:
    submissions = tmp_path / "submissions"
    hand_ins = {
        "ada": (SOLUTIONS / "simple_tokenizers.py").read_bytes(),
        "bea": (TEMPLATE / "simple_tokenizers.py").read_bytes(),  # the stubs: not started
        "cyd": b"def broken(:\n",  # does not load
    }
    for student, code in hand_ins.items():
        (submissions / student).mkdir(parents=True)
        (submissions / student / "simple_tokenizers.py").write_bytes(code)
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name\nada,Ada Lovelace\nbea,Bea Bee\ncyd,Cyd Cole\ndan,Dan Dare\n", encoding="utf-8")
    out = tmp_path / "out"
    process = run_batch(submissions, out, "--part", "simple_tokenizers", "--roster", str(roster))
    assert process.returncode == 0, process.stderr[-2000:]
    summary = (out / "summary.md").read_text(encoding="utf-8")

    titles = [line[3:] for line in summary.splitlines() if line.startswith("## ")]
    assert titles[:2] == ["Class", "Needs help first"], titles
    help_first = _section(summary, "Needs help first")
    for student, name in (("bea", "Bea Bee"), ("cyd", "Cyd Cole"), ("dan", "Dan Dare")):
        (row,) = [line for line in help_first.splitlines() if f"{student} ({name})" in line]
        assert row.startswith("|"), row
    assert "Ada Lovelace" not in help_first, "full marks need no help"
    assert "nothing handed in" in help_first and "does not load: simple\\_tokenizers" in help_first
    assert "population standard deviation" in _section(summary, "Class")
    for title in ("Slowest submissions", "Not graded, and roster mismatches"):
        rows = [line for line in _section(summary, title).splitlines() if line.startswith("| ") and "(" in line]
        assert rows, f"{title}: every student by id and name"
    assert "| bea (Bea Bee) |" in _section(summary, "Slowest submissions")
    hardest = _section(summary, "Hardest tests first")
    assert "| Part 1 |" not in hardest, "cyd's one syntax error is one row of Needs help first, not a row per test"
    assert "1 hand-in(s) with a file that does not load" in hardest, hardest
