"""The docs site: built strictly, its figures written by the benchmarks, its runnable commands run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.kit_root import KIT_ROOT
from autograder.parts import PARTS, Part
from autograder.scoring.points import SuitePoints

DOCS = KIT_ROOT / "docs"
README = KIT_ROOT / "README.md"
BENCHMARKS = KIT_ROOT / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
import figures  # noqa: E402  (a benchmark's helper, beside the benchmarks it serves)

# A command block a page marks as runnable: the marker line, then a sh fence.
RUNNABLE = re.compile(r"^<!-- runnable -->\n```sh\n(.*?)^```", flags=re.MULTILINE | re.DOTALL)
# A figure as a benchmark prints one: a number with its unit.
FIGURE = re.compile(r"\b\d+(?:[.,]\d+)*\s*(?:ms|s|x|%|MiB|KiB)(?![\w-])")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


@pytest.mark.docs
def test_the_site_builds_strictly(tmp_path):
    """Warnings are errors: a broken link or anchor, a page missing from the nav, a command the reference
    cannot render."""
    process = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(tmp_path / "site")],
        cwd=KIT_ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=120,
    )
    assert process.returncode == 0, process.stdout + process.stderr
    commands = (tmp_path / "site" / "reference" / "commands.html").read_text(encoding="utf-8")
    from autograder.cli import main

    for name in main.commands:
        assert f"grade {name}" in commands, f"the commands page lacks grade {name}"


@pytest.mark.docs
@pytest.mark.unit
def test_a_broken_link_fails_the_strict_build_check():
    """The strict build's own configuration: without these, a link to a missing page or anchor is a note."""
    import yaml

    config = yaml.safe_load((KIT_ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["strict"] is True
    assert set(config["validation"]) >= {"omitted_files", "unrecognized_links", "anchors", "absolute_links"}
    assert all(level == "warn" for level in config["validation"].values()), "strict makes each warning an error"


@pytest.mark.docs
@pytest.mark.unit
def test_the_readme_is_short_and_its_links_lead_somewhere():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines: move the detail into docs/"
    for document in (README, KIT_ROOT / "CONTRIBUTING.md"):
        for target in LINK.findall(document.read_text(encoding="utf-8")):
            if "://" not in target:
                assert (document.parent / target).exists(), f"{document.name} links to {target}, which is not there"


@pytest.mark.docs
@pytest.mark.unit
def test_the_students_page_stands_alone_as_the_releases_readme():
    """The release ships docs/students.md as its README, without the rest of the site: a link to another page
    would be broken there."""
    text = (DOCS / "students.md").read_text(encoding="utf-8")
    assert [target for target in LINK.findall(text) if "://" not in target] == []


@pytest.mark.docs
@pytest.mark.unit
def test_the_integrity_page_quotes_the_similarity_measures_own_numbers():
    """The threshold, the run of tokens, the smallest part compared, and the example of a part below it."""
    from autograder.course.batch import similarity
    from autograder.hand_in import loading

    text = " ".join((DOCS / "instructors" / "integrity.md").read_text(encoding="utf-8").split())
    stubs = KIT_ROOT / "student_template"
    one_line = (stubs / "simple_tokenizers.py").read_text(encoding="utf-8")
    one_line += "\n\ndef char_tokenize(text):\n    return list(text)\n"
    base = similarity.measures(loading.load(stubs)).prints
    prints = similarity.measures(loading.from_files(stubs, {"simple_tokenizers.py": one_line.encode()})).prints
    own = similarity.own_prints({"one line": prints}, base=base, smallest=0)["one line"]["simple_tokenizers"]
    for said in (
        f"share at least {similarity.THRESHOLD:.0%} of the smaller one's",
        f"runs of {similarity.RUN} tokens",
        f"fewer than {similarity.SMALLEST} fingerprints of its own",
        f"`return list(text)` has {len(own)})",
    ):
        assert said in text, said


@pytest.mark.docs
@pytest.mark.unit
def test_every_benchmark_has_its_block_and_the_page_quotes_no_other_figure():
    text = figures.PAGE.read_text(encoding="utf-8")
    written = figures.blocks(text)
    benchmarks = {path.stem for path in BENCHMARKS.glob("*.py")} - {"figures"}
    assert set(written) == benchmarks, "each benchmark writes one block, named after it"
    outside = re.sub(r"<!-- figures: (\w+) -->\n.*?<!-- end figures: \1 -->", "", text, flags=re.DOTALL)
    assert FIGURE.findall(outside) == [], "a figure belongs in the block of the benchmark that measured it"
    for name, body in written.items():
        if body.strip():
            assert body.startswith(f"`python benchmarks/{name}.py"), f"{name}'s block names the command that wrote it"


@pytest.mark.docs
@pytest.mark.unit
def test_a_benchmark_replaces_its_own_block_and_no_other(tmp_path):
    page = tmp_path / "performance.md"
    page.write_text(
        "# Performance\n\n<!-- figures: one -->\nold\n<!-- end figures: one -->\n\n"
        "<!-- figures: two -->\nkept\n<!-- end figures: two -->\n",
        encoding="utf-8",
    )
    run = figures.Figures("one")
    run.lines = ["12.0 ms", "1.50x the limit"]
    run.write(page)
    written = figures.blocks(page.read_text(encoding="utf-8"))
    assert written["two"] == "kept\n"
    assert "```text\n12.0 ms\n1.50x the limit\n```" in written["one"] and "old\n" not in written["one"]
    assert figures.stamp().split(",")[0] in written["one"], "the block says when"
    with pytest.raises(ValueError, match="needs one"):
        figures.Figures("three").write(page)


@pytest.mark.docs
@pytest.mark.unit
def test_a_blocks_command_names_paths_from_the_kits_folder(monkeypatch):
    """A reader types the block's command in the kit's folder: a path given as this machine's absolute path
    is written relative to the kit, plain or after an option's ``=``; other words stay as they were."""
    shared = KIT_ROOT.parent / "shared" / "corpora" / "tinyshakespeare.txt"
    argv = ["benchmarks/encode_speed.py", "--corpus", str(shared), f"--out={KIT_ROOT / 'out'}", "--runs", "5", "--docs"]
    monkeypatch.setattr(sys, "argv", argv)
    assert figures.command() == (
        "python benchmarks/encode_speed.py --corpus ../shared/corpora/tinyshakespeare.txt --out=out --runs 5"
    )
    for block in figures.blocks(figures.PAGE.read_text(encoding="utf-8")).values():
        assert not re.search(r"^`python [^`]* /", block), "a block's command names an absolute path"


def runnable_blocks() -> list[tuple[str, str]]:
    found = []
    for path in [README, *pages()]:
        for block in RUNNABLE.findall(path.read_text(encoding="utf-8")):
            found.append((str(path.relative_to(KIT_ROOT)), block))
    return found


@pytest.mark.docs
@pytest.mark.unit
def test_the_pages_a_reader_tries_first_mark_their_commands_runnable():
    marked = {page for page, _ in runnable_blocks()}
    for page in ("docs/instructors/grading-one.md", "docs/instructors/grading-a-class.md"):
        assert page in marked, f"{page} has no block marked <!-- runnable -->"


@pytest.mark.docs
@pytest.mark.slow
@pytest.mark.parametrize(("page", "block"), runnable_blocks(), ids=lambda value: value.split("\n")[0][:60])
def test_a_runnable_block_runs_as_written(tmp_path, page, block):
    """Each block runs in bash, stopping at the first failing line, from a folder that holds the kit's own
    folders as links, so the commands read as they do in a clone and write nothing into it."""
    for entry in KIT_ROOT.iterdir():
        if not entry.name.startswith("."):
            (tmp_path / entry.name).symlink_to(entry)
    environment = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    process = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", block],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=environment,
        timeout=600,
    )
    assert process.returncode == 0, f"{page}:\n{block}\n{process.stdout[-2000:]}\n{process.stderr[-2000:]}"


def bonus_functions(points: SuitePoints, part: Part) -> list[str]:
    """The functions of ``part`` that ``points`` marks bonus, in the part's order."""
    return [function for function in part.functions if (part.module, function) in points.bonus]


def bonus_named(points: SuitePoints) -> str:
    """The bonus functions as the students' guide names them: "all of Part 5" for a part that is bonus whole,
    "Part 6's `train_bytes`" for a function of a part that is not."""
    named = []
    for part in points.parts:
        bonus = bonus_functions(points, part)
        if bonus and len(bonus) == len(part.functions):
            named.append(f"all of Part {part.number}")
        elif bonus:
            named.append(f"Part {part.number}'s " + " and ".join(f"`{function}`" for function in bonus))
    return " and ".join(named)


@pytest.mark.unit
def test_the_students_guide_names_the_bonus_tests_the_suite_marks():
    """Issue 51 (F5): the guide listed Part 5 and Part 4's stretch as bonus, and left out Part 6's `train_bytes`.
    The suite's own bonus marks say which functions are extra credit; the guide's list is held to them."""
    from results import hidden_points

    part_5, part_6 = PARTS[4], PARTS[5]
    some = SuitePoints(
        {(part_5.module, "train_bpe"): 12.0, (part_6.module, "train_bytes"): 11.0, (part_6.module, "load"): 3.0},
        frozenset({(part_5.module, "train_bpe"), (part_6.module, "train_bytes")}),
    )
    assert bonus_named(some) == "all of Part 5 and Part 6's `train_bytes`"
    guide = (DOCS / "students.md").read_text(encoding="utf-8")
    listed = re.findall(r"Bonus tests \((.*?)\) show as `bonus`", re.sub(r"\s+", " ", guide))
    assert listed == [bonus_named(hidden_points())], "docs/students.md: name the bonus tests `grade points` shows"


@pytest.mark.unit
def test_the_students_guide_parts_table_marks_each_bonus_where_the_suite_does():
    """The parts table said "bonus" on Part 5's row alone, while Part 6's `train_bytes` is bonus too: a row says
    "bonus" exactly where its part holds a bonus function, and names the function where the part is not all
    bonus."""
    from results import hidden_points

    points = hidden_points()
    guide = (DOCS / "students.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| (\d) \| `\w+` \| (.*) \|$", guide, flags=re.M))
    assert sorted(rows) == [str(part.number) for part in PARTS]
    for part in PARTS:
        bonus = bonus_functions(points, part)
        row = rows[str(part.number)]
        assert ("bonus" in row) == bool(bonus), f"docs/students.md's row for Part {part.number}: {row}"
        if bonus and len(bonus) < len(part.functions):
            assert all(f"`{function}`" in row for function in bonus), f"Part {part.number}: name {bonus}"
