"""The student's cache is never stale: a part's kept result counts every file of the hand-in its run read,
however it read it (an import statement, importlib, open), not only the files its imports name."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import cast

from classroom import SOLUTIONS

from autograder.engine.document import ResultsDocument
from autograder.engine.scoring import function_scores

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


def graded(folder: Path, cache: Path) -> ResultsDocument:
    process = subprocess.run(
        [sys.executable, "-m", "autograder.cli", str(folder), "--format", "json", "--part", "simple_tokenizers"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "BPE_KIT_CACHE": str(cache)},
    )
    assert process.returncode in (0, 1), process.stderr[-2000:]
    return cast(ResultsDocument, json.loads(process.stdout))


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
