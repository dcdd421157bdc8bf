"""Which failing function feedback names to fix first: read from the hand-in's source, only where it can matter."""

from pathlib import Path

import pytest

from autograder.hand_in.loading import load
from autograder.scoring.call_graph import roots

BPE = """
def merge_pair(tokens, pair):
    return tokens

def train_bpe(text, num_merges):
    return merge_pair(list(text), ("a", "b"))
"""


@pytest.mark.unit
def test_a_failing_caller_names_the_failing_function_it_calls(tmp_path: Path) -> None:
    (tmp_path / "bpe.py").write_text(BPE, encoding="utf-8")
    loaded = load(tmp_path)
    both = {("bpe", "merge_pair"), ("bpe", "train_bpe")}
    assert roots(loaded, both) == {("bpe", "train_bpe"): ["merge_pair"]}


@pytest.mark.unit
def test_a_part_with_one_failing_function_has_nothing_to_fix_first(tmp_path: Path) -> None:
    (tmp_path / "bpe.py").write_text(BPE, encoding="utf-8")
    loaded = load(tmp_path)
    assert roots(loaded, {("bpe", "train_bpe")}) == {}, "merge_pair passes: train_bpe's bug is its own"
    assert roots(loaded, {("bpe", "train_bpe"), ("word_bpe", "merge_pair")}) == {}, "another part's failure"
