"""A call's peak of Python memory, measured in the worker where the call runs (Part 6's training bonus): a
trainer that holds much more than the reference loses the memory points and only those, and one that stops the
measuring gets no figure, never a small one."""

from __future__ import annotations

import pytest
from classroom import SOLUTIONS
from commands import grade

# Its hand-ins step outside the plain-Python policy on purpose, to test the worker and the cage.
pytestmark = pytest.mark.without_policy

MEMORY_TEST = "peaks at most 4 times the reference's Python memory"

# The reference's trainer, holding 400 MB for a moment: the same merges, as fast, many times the memory.
HOLDS_MUCH = """

_train_bytes = train_bytes


def train_bytes(text, vocab_size, special_tokens=()):
    held = bytearray(400 * 1024 * 1024)
    del held
    return _train_bytes(text, vocab_size, special_tokens)
"""

# The reference's trainer, stopping the tracing the grader started.
STOPS_TRACING = """

_train_bytes = train_bytes


def train_bytes(text, vocab_size, special_tokens=()):
    import tracemalloc

    tracemalloc.stop()
    return _train_bytes(text, vocab_size, special_tokens)
"""


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        # A trained 50 KB under tracemalloc, held many times over: the bug corpus's memory mistakes cover it too.
        pytest.param(HOLDS_MUCH, "your peak was", marks=pytest.mark.slow),
        (STOPS_TRACING, "leave tracemalloc running"),
    ],
    ids=["holds much", "stops tracing"],
)
def test_the_memory_test_reads_the_workers_measure_of_the_call(tmp_path, extra, said):
    source = (SOLUTIONS / "real_tokenizer.py").read_text(encoding="utf-8") + extra
    (tmp_path / "real_tokenizer.py").write_text(source, encoding="utf-8")
    process, document = grade(tmp_path, "--part", "real_tokenizer", "--no-cache")
    assert process.returncode in (0, 1), process.stderr
    failed = {test["name"]: test["output"] for test in document["tests"] if test["status"] != "passed"}
    assert len(failed) == 1, list(failed)
    (name, output), *_ = failed.items()
    assert MEMORY_TEST in name and said in output, output
