"""Fair to every correct answer: a trainer that breaks ties by any rule earns full marks.

The contract says any most frequent pair is correct. Each hand-in here is the
reference of Parts 2 to 4 with its trainers' choice of pair swapped for one
tie rule a student might write; graded with the whole hidden suite of those
parts, every one must earn every point, bonus included.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from classroom import SOLUTIONS
from commands import run_batch
from results import full_marks, function_scores, gradebook_rows

from autograder.parts import PARTS, part_of

TRAINED_PARTS = ("bpe", "word_bpe", "byte_bpe")
REFERENCE_CHOICE = "pair_counts.most_common(1)[0]"  # how each reference trainer picks its pair

# Each rule picks one of the most frequent pairs in ``counts`` (a dict of pair -> count); ``best`` is the top count.
TIE_RULES = {
    "first seen": "max(counts, key=counts.get)",
    "last seen": "[pair for pair in counts if counts[pair] == best][-1]",
    "smallest pair": "min(pair for pair in counts if counts[pair] == best)",
    "largest pair": "max(pair for pair in counts if counts[pair] == best)",
    "Counter.most_common": "_Counter(counts).most_common(1)[0][0]",
    "max over a dict built in another order": "max(dict(sorted(counts.items(), reverse=True)), key=counts.get)",
    "sorted by count, then by pair": "sorted(counts, key=lambda pair: (-counts[pair], pair))[0]",
}

CHOOSER = """

from collections import Counter as _Counter


def _choose(pair_counts):
    counts = dict(pair_counts)
    best = max(counts.values())
    pair = {rule}
    return pair, counts[pair]
"""


def trainer_with(rule: str, module: str) -> str:
    source = (SOLUTIONS / f"{module}.py").read_text(encoding="utf-8")
    assert REFERENCE_CHOICE in source, f"{module}: the reference's choice of pair moved; update this test"
    return source.replace(REFERENCE_CHOICE, "_choose(pair_counts)") + CHOOSER.format(rule=rule)


@pytest.mark.slow
@pytest.mark.parametrize("suite", ["hidden", "public"])
def test_every_tie_rule_earns_full_marks(tmp_path: Path, suite: str):
    """Graded with the hidden suite, and with the public one: a student's own check must not mark a correct
    trainer down either."""
    submissions = tmp_path / "submissions"
    for number, rule in enumerate(TIE_RULES.values()):
        folder = submissions / f"rule{number}"
        folder.mkdir(parents=True)
        for module in TRAINED_PARTS:
            (folder / f"{module}.py").write_text(trainer_with(rule, module), encoding="utf-8")
    out = tmp_path / "out"
    parts = (f"--part={module}" for module in TRAINED_PARTS)
    process = run_batch(submissions, out, "--jobs", "2", "--suite", suite, *parts)
    assert process.returncode == 0, process.stderr[-2000:]
    rows = gradebook_rows(out)
    for number, name in enumerate(TIE_RULES):
        row = rows[f"rule{number}"]
        assert row["total"] == full_marks(*TRAINED_PARTS, suite=suite), f"ties broken by {name} ({suite}): {row}"


EMPTY = {
    "list": "[]",
    "dict": "{}",
    "Counter": "{}",
    "str": '""',
    "tuple": "([], [])",
    "None": "None",
    "Iterator": "iter(())",
}


def constant_module(module: str) -> str:
    """The reference ``module`` with every graded function swapped for one that returns its type's empty value."""
    source = (SOLUTIONS / f"{module}.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    returns = {
        node.name: ast.unparse(node.returns).split("[")[0]
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.returns is not None
    }
    swapped = [
        f"\n\ndef {function}(*args, **kwargs):\n    return {EMPTY[returns[function]]}\n"
        for function in part_of(module).functions
    ]
    return source + "".join(swapped)


@pytest.mark.slow
def test_a_function_that_returns_a_constant_earns_nothing(tmp_path: Path):
    """No points for doing nothing: every edge case is gated on an ordinary case in the same test."""
    folder = tmp_path / "submissions" / "constant"
    folder.mkdir(parents=True)
    for part in PARTS:
        (folder / f"{part.module}.py").write_text(constant_module(part.module), encoding="utf-8")
    out = tmp_path / "out"
    process = run_batch(tmp_path / "submissions", out)
    assert process.returncode == 0, process.stderr[-2000:]
    document = json.loads((out / "constant" / "results.json").read_text(encoding="utf-8"))
    earned = {key: score for key, (score, _) in function_scores(document).items() if score}
    assert earned == {}, f"points for returning a constant: {earned}"


OVERLAPPING_MERGE = '''
def merge_pair(tokens, pair):
    """Forgets to skip past a merged pair: ["a", "a", "a"] becomes ["aa", "aa"]."""
    merged = []
    for index, token in enumerate(tokens):
        if index + 1 < len(tokens) and (token, tokens[index + 1]) == pair:
            merged.append(token + tokens[index + 1])
        elif not merged or not (index > 0 and (tokens[index - 1], token) == pair):
            merged.append(token)
    return merged
'''


def test_a_function_that_fails_because_of_another_names_it_first(tmp_path: Path):
    """train_bpe calls the student's broken merge_pair: its failures say to fix merge_pair first, and the
    class summary's hardest tests say so too; scores stay as they are."""
    folder = tmp_path / "submissions" / "ada"
    folder.mkdir(parents=True)
    (folder / "bpe.py").write_text(
        (SOLUTIONS / "bpe.py").read_text(encoding="utf-8") + OVERLAPPING_MERGE, encoding="utf-8"
    )
    out = tmp_path / "out"
    process = run_batch(tmp_path / "submissions", out, "--part", "bpe")
    assert process.returncode == 0, process.stderr[-2000:]
    document = json.loads((out / "ada" / "results.json").read_text(encoding="utf-8"))
    failing = {test["extra_data"]["function"]: test for test in document["tests"] if test["status"] != "passed"}
    assert {"merge_pair", "train_bpe"} <= set(failing), sorted(failing)
    assert "first:    fix merge_pair: train_bpe calls it" in failing["train_bpe"]["output"]
    assert "first:" not in failing["merge_pair"]["output"], "the root cause itself has nothing to fix first"
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "| fix first |" in summary and "`merge_pair` (1×)" in summary


@pytest.mark.slow
@pytest.mark.unit
def test_each_mutant_changes_one_place_and_is_named_once():
    """The mutation score's mutants (benchmarks/mutation_score.py): each parses, differs, has a unique name, and
    the listed equivalent mutants all still exist (a stale line would hide nothing)."""
    from autograder.authoring.mutants import mutants_of

    labels = set()
    for part in PARTS:
        source = (SOLUTIONS / f"{part.module}.py").read_text(encoding="utf-8")
        original = ast.unparse(ast.parse(source))
        for mutant in mutants_of(source):
            assert mutant.source != original and ast.parse(mutant.source), mutant.label
            key = f"{part.module} | {mutant.label}"
            assert key not in labels, f"two mutants named {key}"
            labels.add(key)
    listed = (SOLUTIONS.parent / "tests" / "kit" / "support" / "equivalent_mutants.txt").read_text(encoding="utf-8")
    for line in listed.splitlines():
        if line.strip() and not line.startswith("#"):
            module, label, reason = line.split(" | ", 2)
            assert f"{module} | {label}" in labels and reason.strip(), f"a stale or unexplained line: {line}"
