"""The student's cache is never stale: a part's kept result counts every file of the hand-in its run read,
however it read it (an import statement, importlib, open), not only the files its imports name."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import cast

import pytest
from classroom import SOLUTIONS
from results import Results, function_scores

# Its hand-ins step outside the plain-Python policy on purpose, to test the worker and the cage.
pytestmark = pytest.mark.without_policy

# Part 1's word_tokenize takes its splitting from Part 2's module, loaded by name at run time: no import
# statement names it.
PART_1 = (
    (SOLUTIONS / "simple_tokenizers.py").read_text(encoding="utf-8")
    + """

import importlib


def word_tokenize(text):
    return importlib.import_module("bpe").split_words(text)
"""
)
HELPER = (
    (SOLUTIONS / "bpe.py").read_text(encoding="utf-8")
    + """

def split_words(text):
    return text.split()
"""
)


def graded(folder: Path, cache: Path, *parts: str) -> Results:
    parts = parts or ("--part", "simple_tokenizers")
    process = subprocess.run(
        [sys.executable, "-m", "autograder.cli", str(folder), "--format", "json", *parts],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "BPE_KIT_CACHE": str(cache)},
    )
    assert process.returncode in (0, 1), process.stderr[-2000:]
    return cast(Results, json.loads(process.stdout))


@pytest.mark.slow
def test_a_helper_loaded_with_importlib_is_part_of_the_cached_result(tmp_path: Path):
    work, cache = tmp_path / "work", tmp_path / "cache"
    work.mkdir()
    (work / "simple_tokenizers.py").write_text(PART_1, encoding="utf-8")
    (work / "bpe.py").write_text(HELPER, encoding="utf-8")
    first = function_scores(graded(work, cache))[("simple_tokenizers", "word_tokenize")]
    assert first[0] == first[1], "split on whitespace: full marks"
    (work / "bpe.py").write_text(HELPER.replace("return text.split()", "return list(text)"), encoding="utf-8")
    second = graded(work, cache)
    assert "results kept from then" not in second["output"]
    assert function_scores(second)[("simple_tokenizers", "word_tokenize")][0] < first[1], "graded again"
    again = graded(work, cache)
    assert "results kept from then" in again["output"], "unchanged since: kept"


# Part 2 takes its merge_pair from Part 1's module, loaded by name at run time (no import statement names
# it). Part 1 is graded first: a worker that served both parts would have it loaded already when Part 2's
# code asked for it, never read it again, and keep Part 2's result when Part 1's module changed.
USES_PART_1 = "\n\nimport importlib\n\nmerge_pair = importlib.import_module('simple_tokenizers').merger\n"
MERGER = "\n\nfrom bpe_reference import merge_pair as merger\n"
BROKEN_MERGER = "\n\ndef merger(tokens, pair):\n    return list(tokens)\n"


@pytest.mark.slow
def test_a_module_another_part_loaded_first_is_part_of_the_cached_result(tmp_path: Path):
    work, cache = tmp_path / "work", tmp_path / "cache"
    work.mkdir()
    part_1 = (SOLUTIONS / "simple_tokenizers.py").read_text(encoding="utf-8")
    reference = (SOLUTIONS / "bpe.py").read_text(encoding="utf-8")
    (work / "simple_tokenizers.py").write_text(part_1 + MERGER, encoding="utf-8")
    (work / "bpe.py").write_text(reference + USES_PART_1, encoding="utf-8")
    (work / "bpe_reference.py").write_text(reference, encoding="utf-8")
    # The public suite, as a student's own grade runs: the hidden suite's examples follow the whole hand-in.
    both = ("--suite", "public", "--part", "simple_tokenizers", "--part", "bpe")
    first = function_scores(graded(work, cache, *both))[("bpe", "merge_pair")]
    assert first[0] == first[1], "the reference's merge_pair, through Part 1's module: full marks"
    (work / "simple_tokenizers.py").write_text(part_1 + BROKEN_MERGER, encoding="utf-8")
    second = graded(work, cache, *both)
    assert function_scores(second)[("bpe", "merge_pair")][0] < first[1], "Part 2 graded again, with the new Part 1"
