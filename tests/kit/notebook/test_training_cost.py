"""Part 6's notebook trains the student's own ``train_bytes`` on 5 MB of the standard library's source: a slow
trainer is stopped with what to fix before the size its pace projects past the bound, a stub skips the
section, and the benchmark trains on the very text the notebook does."""

from __future__ import annotations

import sys
import types

import pytest
from bug_corpus import BUGS
from classroom import SOLUTIONS

from autograder.kit_root import KIT_ROOT
from autograder.notebook import training_cost
from autograder.notebook.stdlib_text import END_OF_TEXT, source_files, stdlib_text


def trainer_with(bug: str) -> types.FunctionType:
    """The reference module's ``train_bytes`` with one bug-corpus entry swapped in, its helpers in reach."""
    module, function, code = BUGS[bug]
    namespace: dict[str, object] = {"__name__": "with_bug"}
    source = (SOLUTIONS / f"{module}.py").read_text(encoding="utf-8") + "\n\n" + code
    exec(compile(source, f"{module}.py with {bug!r}", "exec"), namespace)
    trained = namespace[function]
    assert isinstance(trained, types.FunctionType)
    return trained


@pytest.mark.slow
@pytest.mark.unit
def test_a_trainer_whose_pace_projects_past_the_bound_is_stopped_with_what_to_fix():
    slow = trainer_with("train_bytes recounts every pair after each merge")
    calls: list[int] = []

    def watched(text, vocab_size, special_tokens):
        calls.append(len(text))
        if len(calls) > 1:
            raise AssertionError(f"trained again, on {len(text):,} characters, past the bound")
        return slow(text, vocab_size, special_tokens)

    said: list[str] = []
    # The first step (about 40 KB) takes the slow trainer a second or more; the next is 8 times the text.
    assert training_cost.grow(watched, bound=2, say=said.append) is None
    assert len(calls) == 1
    first = stdlib_text(training_cost.SIZES[0])
    second = stdlib_text(training_cost.SIZES[1])
    assert said[0].startswith(f"{first.size:>9,} bytes,"), said
    assert said[-1].startswith(f"stopped before {second.size:,} bytes: at this pace they take about "), said
    assert "past the 2 s this section waits. To fix: count each distinct piece once" in said[-1]
    assert "section 7's hints" in said[-1]


@pytest.mark.unit
def test_the_bound_is_the_whole_sections_wait_not_each_sizes(monkeypatch):
    """Sizes that each fit the bound, but not all together, stop the section where their sum would pass it."""
    clock = [0.0]
    monkeypatch.setattr(training_cost.time, "perf_counter", lambda: clock[0])
    trained: list[int] = []

    def one_second_a_20_kb(text, vocab_size, special_tokens=()):
        trained.append(len(text))
        clock[0] += len(text) / 20_000  # a pace that grows as the text does: 10 s for 200 KB
        return {}, [(b"a", b"b")] * (vocab_size - 256 - 1)  # the vocabulary full from the first size on

    said: list[str] = []
    first, second = (stdlib_text(size) for size in training_cost.SIZES[:2])
    bound = first.size / 20_000 + second.size / 20_000 * 0.9  # the second fits alone, not after the first
    assert training_cost.grow(one_second_a_20_kb, bound=bound, say=said.append) is None
    assert len(trained) == 1, said
    assert said[-1].startswith(f"stopped before {second.size:,} bytes: at this pace they take about "), said
    assert f"after the {first.size / 20_000:,.0f} s so far is past the {bound:,.0f} s this section waits" in said[-1]


@pytest.mark.unit
def test_a_stub_skips_the_section_with_one_line():
    def stub(text, vocab_size, special_tokens=()):
        raise NotImplementedError

    said: list[str] = []
    assert training_cost.grow(stub, say=said.append) is None
    assert said == ["train_bytes is not written yet (NotImplementedError): this section is skipped until it is."]


@pytest.mark.unit
@pytest.mark.parametrize("execution", ["autograde", "validate"])
def test_nbgrader_grading_the_notebook_skips_the_training_with_one_line(execution, monkeypatch):
    """nbgrader runs every cell of every hand-in, one notebook at a time (NBGRADER_EXECUTION says so): the
    section grades nothing, so it costs a class nothing there."""
    trained: list[int] = []

    def train(text, vocab_size, special_tokens=()):
        trained.append(len(text))
        return {}, []

    monkeypatch.setenv("NBGRADER_EXECUTION", execution)
    said: list[str] = []
    assert training_cost.grow(train, say=said.append) is None
    assert trained == []
    assert said == [
        f"nbgrader is running this notebook ({execution}): the 5 MB training, which grades nothing, is skipped."
    ]


@pytest.mark.unit
def test_the_text_is_whole_source_files_each_once_and_large_enough_on_this_python():
    text = stdlib_text(5_000_000)
    documents = text.text.split(END_OF_TEXT)
    assert text.size == len(text.text.encode("utf-8")) >= 5_000_000
    assert len(documents) == text.files == len(set(documents))
    files = source_files(text.folder)
    whole = {path.read_bytes().decode("utf-8", errors="replace") for path in files}
    assert set(documents) <= whole
    assert not any("/test/" in f"/{path.relative_to(text.folder).as_posix()}" for path in files)


@pytest.mark.unit
def test_the_benchmark_trains_on_the_notebooks_text():
    sys.path.insert(0, str(KIT_ROOT / "benchmarks"))
    try:
        import train_bytes_speed
    finally:
        sys.path.remove(str(KIT_ROOT / "benchmarks"))
    # One assembly, one pool: the benchmark's figures are about the notebook's text and helper.
    assert train_bytes_speed.stdlib_text is stdlib_text
    assert train_bytes_speed.pooled_piece_counts is training_cost.pooled_piece_counts
    assert train_bytes_speed.VOCAB_SIZE == training_cost.VOCAB_SIZE
    notebook = (KIT_ROOT / "exercises" / "src" / "real_tokenizer.md").read_text(encoding="utf-8")
    assert "from autograder.notebook.training_cost import" in notebook
    assert "grow(train_bytes)" in notebook
    assert training_cost.SIZES[-1] == 5_000_000


@pytest.mark.unit
def test_the_prose_quotes_the_helpers_sizes_and_bound():
    prose = (KIT_ROOT / "exercises" / "src" / "real_tokenizer.md").read_text(encoding="utf-8")
    assert "20 KB, 200 KB, 1 MB, then 5 MB asked for" in prose
    assert training_cost.SIZES == (20_000, 200_000, 1_000_000, 5_000_000)
    assert "would take the section past one minute" in " ".join(prose.split())
    assert training_cost.BOUND_SECONDS == 60
    assert "traced run keeps within half a minute" in " ".join(prose.split())
    assert training_cost.MEMORY_BOUND_SECONDS == 30
    assert "at least 5,000,000 bytes" in prose and "a vocabulary of 4,096" in prose
    assert training_cost.VOCAB_SIZE == 4096


@pytest.mark.unit
def test_memory_is_measured_on_the_largest_text_whose_traced_run_fits_the_bound():
    small, large = stdlib_text(training_cost.SIZES[0]), stdlib_text(training_cost.SIZES[1])
    steps = [
        training_cost.Step(training_cost.SIZES[0], small.size, small.files, 1.0),
        training_cost.Step(training_cost.SIZES[1], large.size, large.files, 30.0),  # traced: past 120 s
    ]
    grown = training_cost.Grown(large, {}, [], steps)
    trained_on: list[int] = []

    def holds_a_mebibyte(text, vocab_size, special_tokens):
        trained_on.append(len(text.encode("utf-8")))
        held = bytearray(2**20)
        del held
        return {}, []

    line = training_cost.peak_memory(holds_a_mebibyte, grown, bound=120)
    assert trained_on == [small.size]
    assert line.startswith("peak: 1 MiB of Python memory for 0.0 MiB of text"), line
    slow = training_cost.Grown(large, {}, [], [training_cost.Step(1, 1, 1, 30.0)])
    assert training_cost.peak_memory(holds_a_mebibyte, slow, bound=120).startswith("peak: not measured")
