"""What training costs at 5 MB, with the student's own ``train_bytes`` (Part 6's notebook, its last bonus section).

``grow`` trains on ever larger prefixes of the standard library's source (``stdlib_text``) and stops, with
one line saying what to fix, before a size its pace projects past the section's bound: a slow trainer
costs the student a minute at most. ``peak_memory`` measures the peak of Python memory with
``tracemalloc``, on the largest text whose traced run fits a bound of its own. ``pooled_piece_counts`` is
the pre-split in several processes: the contract's ``train_bytes`` takes a text, not counts, so the notebook
shows the pool with this helper of its own, and the kit's benchmark trains the reference from the pooled
counts.
"""

from __future__ import annotations

import multiprocessing
import os
import platform
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import regex

from autograder.notebook.stdlib_text import END_OF_TEXT, StdlibText, stdlib_text

SIZES = (20_000, 200_000, 1_000_000, 5_000_000)
VOCAB_SIZE = 4096
# The whole section's wait, not each size's: a slow but correct trainer costs the student a minute at most.
BOUND_SECONDS = 60.0
# What the traced run of section 8's memory measure may take: the largest text that fits is measured.
MEMORY_BOUND_SECONDS = 30.0
# tracemalloc hooks every allocation: the reference trains about 5 times slower traced (measured at 5 MB).
TRACING_SLOWDOWN = 6
WHAT_TO_FIX = (
    "count each distinct piece once with its frequency, recount only the pieces that hold the merged pair, "
    "and find the best pair with a heap (the TODO in train_bytes and section 7's hints)"
)

# Set by nbgrader while it executes a notebook to grade or validate it.
NBGRADER_EXECUTION = "NBGRADER_EXECUTION"

Trainer = Callable[[str, int, list[str]], tuple[dict[int, bytes], list[tuple[bytes, bytes]]]]


@dataclass(frozen=True)
class Step:
    """One size trained on: the bytes asked for, the text it gave, the seconds the trainer took, its merges."""

    asked: int
    size: int
    files: int
    seconds: float
    merges: int = 0  # how many it learned: fewer than the vocabulary holds on a small text


@dataclass(frozen=True)
class Grown:
    """The largest text trained on, what the trainer learned from it, and every step on the way."""

    corpus: StdlibText
    vocab: dict[int, bytes]
    merges: list[tuple[bytes, bytes]]
    steps: list[Step]


def grow(
    train: Trainer,
    *,
    sizes: Sequence[int] = SIZES,
    bound: float = BOUND_SECONDS,
    vocab_size: int = VOCAB_SIZE,
    say: Callable[[str], Any] = print,
) -> Grown | None:
    """Train on each size in turn, ``<|endoftext|>`` kept whole; ``None`` when stopped, not written yet, or
    run by nbgrader (autograde and validate run every cell of every hand-in, and this one grades nothing)."""
    execution = os.environ.get(NBGRADER_EXECUTION, "")
    if execution in ("autograde", "validate"):
        say(f"nbgrader is running this notebook ({execution}): the 5 MB training, which grades nothing, is skipped.")
        return None
    steps: list[Step] = []
    for asked in sizes:
        text = stdlib_text(asked)
        if steps:
            # Training reads the whole text, so its time grows at least as the text does; and a small text
            # gives fewer merges than the vocabulary holds, where a larger one fills it: a trainer that
            # recounts every pair after each merge pays for each merge too (15 times the time for 8 times
            # the text, measured), which a projection from the text alone would let run for minutes.
            budget = vocab_size - 256 - 1
            projected = steps[-1].seconds * text.size / steps[-1].size * max(1.0, budget / max(steps[-1].merges, 1))
            spent = sum(step.seconds for step in steps)
            if spent + projected > bound:
                say(
                    f"stopped before {text.size:,} bytes: at this pace they take about {projected:,.0f} s, "
                    f"which after the {spent:,.0f} s so far is past the {bound:,.0f} s this section waits. "
                    f"To fix: {WHAT_TO_FIX}."
                )
                return None
        started = time.perf_counter()
        try:
            vocab, merges = train(text.text, vocab_size, [END_OF_TEXT])
        except NotImplementedError:
            say("train_bytes is not written yet (NotImplementedError): this section is skipped until it is.")
            return None
        steps.append(Step(asked, text.size, text.files, time.perf_counter() - started, len(merges)))
        say(f"{text.size:>9,} bytes, {text.files:>3} files: {steps[-1].seconds:6.1f} s, {len(merges):,} merges")
    say(
        f"text: {text.size:,} bytes, {text.files} files of Python {platform.python_version()}'s standard library "
        f"({text.folder})"
    )
    return Grown(text, vocab, merges, steps)


def peak_memory(
    train: Trainer, grown: Grown, *, bound: float = MEMORY_BOUND_SECONDS, vocab_size: int = VOCAB_SIZE
) -> str:
    """The trainer's peak of Python memory on the largest text whose traced run fits ``bound``, as a line."""
    fitting = [step for step in grown.steps if step.seconds * TRACING_SLOWDOWN <= bound]
    if not fitting:
        return f"peak: not measured, tracemalloc would take over {bound:,.0f} s even on the smallest text"
    step = fitting[-1]
    text = grown.corpus if step is grown.steps[-1] else stdlib_text(step.asked)
    tracemalloc.start()
    try:
        train(text.text, vocab_size, [END_OF_TEXT])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return (
        f"peak: {peak / 2**20:,.0f} MiB of Python memory for {text.size / 2**20:.1f} MiB of text "
        f"({peak / text.size:.1f} times the text)"
    )


def stretches_of(text: str, special_tokens: Sequence[str]) -> list[str]:
    """The text between its special tokens (the longer first where two start at the same place)."""
    if not special_tokens:
        return [text]
    cut = "|".join(regex.escape(token) for token in sorted(special_tokens, key=len, reverse=True))
    return regex.split(cut, text)


def counted_pieces(stretches: Sequence[str], pattern: str) -> Counter[str]:
    """How often each piece of ``pattern``'s pre-split occurs in the stretches."""
    pieces: Counter[str] = Counter()
    for stretch in stretches:
        pieces.update(regex.findall(pattern, stretch))
    return pieces


def piece_counts(text: str, pattern: str, special_tokens: Sequence[str]) -> Counter[str]:
    """The pre-split in this process: each piece's count, the text cut at its special tokens first."""
    return counted_pieces(stretches_of(text, special_tokens), pattern)


def pooled_piece_counts(text: str, pattern: str, special_tokens: Sequence[str], processes: int) -> Counter[str]:
    """The same counts, each of ``processes`` chunks of whole stretches counted in a process of its own.

    A piece never crosses a special token, so chunks cut there count what the whole text counts.
    """
    stretches = stretches_of(text, special_tokens)
    share = -(-sum(len(stretch) for stretch in stretches) // processes)
    chunks: list[list[str]] = [[]]
    filled = 0
    for stretch in stretches:
        if filled >= share and len(chunks) < processes:
            chunks.append([])
            filled = 0
        chunks[-1].append(stretch)
        filled += len(stretch)
    total: Counter[str] = Counter()
    with multiprocessing.Pool(len(chunks)) as pool:
        for counted in pool.starmap(counted_pieces, [(chunk, pattern) for chunk in chunks]):
            total.update(counted)
    return total
