"""A class to grade as shards and merge, and the comparison of a merged OUT with a one-machine OUT: every file
byte for byte but the fields that are timings (docs/instructors/more-than-one-machine.md lists them)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bug_corpus import BUGS
from classroom import SOLUTIONS, Student, renamed_copy, write_submission
from commands import snapshot

from autograder.course.batch import manual_files

# The first two parts only (`--part`): how a class is split does not depend on which tests run.
PARTS_GRADED = ("--part", "simple_tokenizers", "--part", "bpe")
CLASS_FILES = ("gradebook.csv", "canvas.csv", "summary.md", "summary.html", "summary-histogram.svg")
# The students with a hand-in that can be graded (hal's is not a zip; ian handed nothing in).
GRADABLE = ("ada", "bea", "bug0", "bug1", "bug2", "cal")
# Every hand-in the shards are dealt from, in the order a folder may list them.
HAND_INS = ("hal", *GRADABLE)


def write_class(root: Path) -> tuple[Path, Path]:
    """Seven hand-ins in ``root/submissions`` (one a renamed copy of another, one unreadable) and a roster
    with a student who handed nothing in: the folder and the roster."""
    submissions = root / "submissions"
    write_submission(submissions, Student("ada", "correct"))
    write_submission(submissions, Student("bea", "not started"))
    # Three named mistakes. Not any three: a property's shrunk example can depend on the hand-ins its grader
    # graded before (replayed examples), so a failing property's feedback may differ between one batch and
    # shards; that is a defect of its own (noted for the team), which these tests must not stand in for.
    in_parts = [
        "bpe vocab numbers a repeated token twice",
        "bpe vocab sorted alphabetically",
        "char vocab ids start at 1",
    ]
    for number, name in enumerate(in_parts):
        write_submission(submissions, Student(f"bug{number}", "buggy", BUGS[name]))
    renamed_copy(SOLUTIONS, submissions / "cal")  # ada's code, every name changed and functions reordered
    (submissions / "hal.zip").write_bytes(b"not a zip")
    roster = root / "roster.csv"
    roster.write_text("Student,ID\nAda Lovelace,ada\nBea Bee,bea\nIan Absent,ian\n", encoding="utf-8")
    return submissions, roster


# What differs between two gradings of one hand-in: how long things took.
TIMINGS = (
    "results.json: execution_time, extra_data.student_seconds",
    "summary.md, summary.html: the slowest submissions' seconds, and so their order",
    "--junit: each testsuite's time",
)


def without_timings(name: str, data: bytes) -> bytes:
    """``data``, the file ``name`` of OUT, with the fields TIMINGS names masked."""
    if name.endswith("results.json"):
        document = json.loads(data)
        document["execution_time"] = 0
        document["extra_data"].pop("student_seconds", None)
        return json.dumps(document, sort_keys=True).encode()
    if name.endswith(".xml"):
        return re.sub(rb'(<testsuite [^>]*)time="[^"]*"', rb"\1", data)
    text = data.decode("utf-8")
    if name == "summary.md":
        head, _, rest = text.partition("## Slowest submissions\n")
        section, cut, tail = rest.partition("\n## ")
        rows = sorted(re.sub(r"^(\| [^|]+ \|) [\d.]+ \|", r"\1 … |", row) for row in section.splitlines())
        return (head + "\n".join(rows) + cut + tail).encode()
    if name == "summary.html":
        head, _, rest = text.partition("Slowest submissions</h2>")
        section, cut, tail = rest.partition("</table>")
        rows = sorted(
            re.sub(r"^(<td>[^<]*</td>)<td>[\d.]+</td>", r"\1<td>…</td>", row) for row in section.split("<tr>")
        )
        return (head + "<tr>".join(rows) + cut + tail).encode()
    return data


def assert_same_but_timings(merged: Path, one_machine: Path) -> None:
    """Every file of the OUT ``merged`` is the one of ``one_machine``, byte for byte but its timings, and no
    file that holds no timing differs at all."""
    ours, theirs = snapshot(merged), snapshot(one_machine)
    # each shard's record of the manual files it saw, for the merge to compare: bookkeeping of a sharded run only
    seen = {name for name in ours if name.startswith(manual_files.SEEN_PREFIX)}
    assert seen, "each shard records the manual files it saw"
    ours = {name: data for name, data in ours.items() if name not in seen}
    assert sorted(ours) == sorted(theirs), "the same files"
    timed = set()
    for name, data in theirs.items():
        if ours[name] != data:
            timed.add(name)
            assert without_timings(name, ours[name]) == without_timings(name, data), f"{name} differs"
    assert timed <= {name for name in theirs if name.endswith(("results.json", "summary.md", "summary.html"))}
    assert {"gradebook.csv", "canvas.csv", "ada/feedback.md", "ada/feedback.html"}.isdisjoint(timed)
    similar = (merged / "summary.md").read_text(encoding="utf-8").split("## Similar code")[1].split("\n## ")[0]
    assert "| ada (Ada Lovelace), cal |" in similar, "a copy graded by another shard than its source is found"
