"""How Part 6's reference trainer (the training bonus) does where training's cost shows: 5 MB, a vocabulary of 4,096.

The text is assembled from whole documents, none repeated, joined by ``<|endoftext|>``: tiny Shakespeare
(the shared corpus, public domain), then Vim's help files as Debian's ``vim-runtime`` installs them
(``/usr/share/vim/vim*/doc/*.txt``, by name; Open Publication License 1.0 or later, no options exercised, per
``/usr/share/doc/vim-runtime/copyright``), until the text holds at least 5,000,000 bytes. The texts are read
where they are installed; the kit copies none of them.

The reference trains three ways on it: in one process (its peak of Python memory measured apart, with
tracemalloc, which slows it), and with the pre-split counted in several processes (the text cut at its
special tokens into one chunk a process, each chunk's pieces counted in a ``multiprocessing`` pool, the counts
added up), which must give the same merges.

    python benchmarks/train_bytes_speed.py [--processes 2] [--bytes 5000000]
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
import tracemalloc
from collections import Counter
from pathlib import Path

from figures import Figures, add_option
from train_speed import corpus_path

from autograder.testing.reference import reference

FIGURES = Figures("train_bytes_speed")
END_OF_TEXT = "<|endoftext|>"
VOCAB_SIZE = 4096
VIM_HELP = "/usr/share/vim"


def documents(at_least: int) -> tuple[str, list[str]]:
    """The text (at least ``at_least`` bytes of whole documents, each once) and where each part came from."""
    shakespeare = corpus_path()
    texts = [shakespeare.read_text(encoding="utf-8")]
    sources = [f"{shakespeare.name} (public domain)"]
    helps = sorted(Path(VIM_HELP).glob("vim*/doc/*.txt"))
    size = len(texts[0].encode("utf-8"))
    used = 0
    for path in helps:
        if size >= at_least:
            break
        text = path.read_text(encoding="utf-8", errors="replace")
        texts.append(text)
        size += len(text.encode("utf-8")) + len(END_OF_TEXT)
        used += 1
    if size < at_least:
        raise SystemExit(
            f"only {size:,} bytes of text: install Debian's vim-runtime (apt-get install vim-runtime) for Vim's help"
        )
    sources.append(f"{used} of Vim's help files (vim-runtime, Open Publication License)")
    return END_OF_TEXT.join(texts), sources


def piece_counts(chunk: str) -> Counter[str]:
    """One process's share of the pre-split: the pieces of a chunk of stretches, counted."""
    return reference("real_tokenizer")._piece_counts(chunk, [END_OF_TEXT])


def pooled_merges(text: str, processes: int) -> list[tuple[bytes, bytes]]:
    """The reference's merges with its pre-split counted in ``processes`` processes, one chunk each."""
    real_tokenizer = reference("real_tokenizer")
    stretches = text.split(END_OF_TEXT)
    step = -(-len(stretches) // processes)
    chunks = [END_OF_TEXT.join(stretches[at : at + step]) for at in range(0, len(stretches), step)]
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        counts: Counter[str] = Counter()
        for counted in pool.map(piece_counts, chunks):
            counts.update(counted)
    return real_tokenizer._merges_of(counts, VOCAB_SIZE - 256 - 1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--processes", type=int, default=2, help="processes for the pre-split [default: 2]")
    parser.add_argument("--bytes", type=int, default=5_000_000, help="the text's least size [default: 5,000,000]")
    add_option(parser)
    arguments = parser.parse_args()
    real_tokenizer = reference("real_tokenizer")
    text, sources = documents(arguments.bytes)
    FIGURES.say(f"text: {len(text.encode('utf-8')):,} bytes from {'; '.join(sources)}")
    FIGURES.say(f"vocabulary: {VOCAB_SIZE:,}, with {END_OF_TEXT} as its last token")
    started = time.perf_counter()
    _, merges = real_tokenizer.train_bytes(text, VOCAB_SIZE, [END_OF_TEXT])
    alone = time.perf_counter() - started
    FIGURES.say(f"one process: {alone:.1f} s for {len(merges):,} merges")
    started = time.perf_counter()
    pooled = pooled_merges(text, arguments.processes)
    FIGURES.say(
        f"pre-split in {arguments.processes} processes: {time.perf_counter() - started:.1f} s, "
        f"same merges: {pooled == merges}"
    )
    tracemalloc.start()
    real_tokenizer.train_bytes(text, VOCAB_SIZE, [END_OF_TEXT])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    FIGURES.say(f"peak of Python memory (tracemalloc, one process): {peak / 2**20:.0f} MiB")
    if arguments.docs:
        FIGURES.write()
    if pooled != merges:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
