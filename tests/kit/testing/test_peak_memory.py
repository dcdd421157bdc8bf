"""A call's memory, measured by the kernel for a process of its own (Part 6's training bonus): a trainer that
holds much more than the reference loses the memory points and only those. What a hand-in that reaches into the
worker does to the measure is tried in ``test_reported_figures``."""

from __future__ import annotations

import pytest
from classroom import SOLUTIONS
from commands import grade

MEMORY_TEST = "grows its memory at most 4 times as far as the reference's"

# The reference's trainer, holding 200 MiB for a moment on the memory test's text (18 times the reference's
# growth): the same merges, as fast, many times the memory. Small texts hold nothing: the other tests' calls
# stay as fast as the reference's.
HOLDS_MUCH = """

_train_bytes = train_bytes


def train_bytes(text, vocab_size, special_tokens=()):
    held = bytearray(200 * 2**20 if len(text) > 100_000 else 0)
    del held
    return _train_bytes(text, vocab_size, special_tokens)
"""


@pytest.mark.slow
def test_a_trainer_that_holds_much_loses_the_memory_points_only(tmp_path):
    source = (SOLUTIONS / "real_tokenizer.py").read_text(encoding="utf-8") + HOLDS_MUCH
    (tmp_path / "real_tokenizer.py").write_text(source, encoding="utf-8")
    process, document = grade(tmp_path, "--part", "real_tokenizer", "--no-cache")
    assert process.returncode in (0, 1), process.stderr
    failed = {test["name"]: test["output"] for test in document["tests"] if test["status"] != "passed"}
    assert len(failed) == 1, list(failed)
    (name, output), *_ = failed.items()
    assert MEMORY_TEST in name and "your call grew its memory by" in output, output
