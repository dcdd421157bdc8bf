"""How Part 6's reference trainer (the training bonus) does where training's cost shows: 5 MB, a vocabulary of 4,096.

The text is the one Part 6's notebook trains the student's trainer on (``autograder/notebook/stdlib_text.py``):
the running interpreter's standard library source, whole files, each once, in the order of their paths,
tests left out, joined by ``<|endoftext|>`` until it holds at least 5,000,000 bytes. The files are the
Python Software Foundation's (PSF License Agreement); they are read where Python installed them, and the kit
copies none.

The reference trains three ways on it: in one process (its peak of Python memory measured apart, with
tracemalloc, which slows it), and from the pre-split counted in several processes by the notebook's own
helper (the text cut at its special tokens into one chunk a process, each chunk's pieces counted in a
``multiprocessing`` pool, the counts added up), which must give the same merges.

    python benchmarks/train_bytes_speed.py [--processes 2] [--bytes 5000000]
"""

from __future__ import annotations

import argparse
import platform
import time
import tracemalloc

from figures import Figures, add_option

from autograder.notebook.stdlib_text import END_OF_TEXT, stdlib_text
from autograder.notebook.training_cost import VOCAB_SIZE, pooled_piece_counts
from autograder.testing.reference import reference

FIGURES = Figures("train_bytes_speed")


def pooled_merges(text: str, processes: int) -> list[tuple[bytes, bytes]]:
    """The reference's merges learned from the pre-split counted in ``processes`` processes."""
    real_tokenizer = reference("real_tokenizer")
    counts = pooled_piece_counts(text, real_tokenizer.GPT2_SPLIT, [END_OF_TEXT], processes)
    return real_tokenizer._merges_of(counts, VOCAB_SIZE - 256 - 1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--processes", type=int, default=2, help="processes for the pre-split [default: 2]")
    parser.add_argument("--bytes", type=int, default=5_000_000, help="the text's least size [default: 5,000,000]")
    add_option(parser)
    arguments = parser.parse_args()
    real_tokenizer = reference("real_tokenizer")
    text = stdlib_text(arguments.bytes)
    FIGURES.say(
        f"text: {text.size:,} bytes, {text.files} source files of Python {platform.python_version()}'s "
        "standard library (PSF License)"
    )
    FIGURES.say(f"vocabulary: {VOCAB_SIZE:,}, with {END_OF_TEXT} as its last token")
    started = time.perf_counter()
    _, merges = real_tokenizer.train_bytes(text.text, VOCAB_SIZE, [END_OF_TEXT])
    alone = time.perf_counter() - started
    FIGURES.say(f"one process: {alone:.1f} s for {len(merges):,} merges")
    started = time.perf_counter()
    pooled = pooled_merges(text.text, arguments.processes)
    FIGURES.say(
        f"pre-split in {arguments.processes} processes: {time.perf_counter() - started:.1f} s, "
        f"same merges: {pooled == merges}"
    )
    tracemalloc.start()
    real_tokenizer.train_bytes(text.text, VOCAB_SIZE, [END_OF_TEXT])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    FIGURES.say(f"peak of Python memory (tracemalloc, one process): {peak / 2**20:.0f} MiB")
    if arguments.docs:
        FIGURES.write()
    if pooled != merges:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
