"""How fast Part 6's reference encodes with GPT-2's own files, against tiktoken's ``gpt2`` in the same run.

Encodes the shared corpus (tiny Shakespeare, or the kit's excerpt where the shared folder is absent)
with the reference's ``encode`` and GPT-2's 50,000 merges, and with tiktoken's ``gpt2`` encoding, read
from the same files (single thread: ``encode_ordinary`` of one text). Each is timed 5 times, the two
alternated, and the median of each is compared. The reference keeps each distinct piece's ids once per
call (a text repeats its words), which is most of why pure Python comes within a few times of Rust.
Target: at most 5 times tiktoken's time.

    python benchmarks/encode_speed.py [--runs 5] [--corpus PATH]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from figures import Figures, add_option
from train_speed import corpus_path

from autograder.notebook.openai_tokenizers import gpt2_encoding
from autograder.testing.reference import reference
from autograder.testing.tokenizer_files import gpt2_folder

FIGURES = Figures("encode_speed")
TARGET = 5.0  # the reference at most this many times tiktoken's time


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--corpus", type=Path, default=None, help="the text to encode [default: the shared corpus]")
    add_option(parser)
    arguments = parser.parse_args()
    real_tokenizer = reference("real_tokenizer")
    vocab, merges = real_tokenizer.load(gpt2_folder())
    tiktoken_gpt2 = gpt2_encoding()
    corpus = arguments.corpus or corpus_path()
    text = corpus.read_text(encoding="utf-8")
    FIGURES.say(f"corpus: {corpus.name}, {len(text):,} characters; GPT-2's {len(merges):,} merges")
    seconds: dict[str, list[float]] = {"reference": [], "tiktoken": []}
    answers = {}
    for _ in range(arguments.runs):
        for name, encode in (
            ("reference", lambda: real_tokenizer.encode(text, vocab, merges)),
            ("tiktoken", lambda: tiktoken_gpt2.encode_ordinary(text)),
        ):
            started = time.perf_counter()
            answers[name] = encode()
            seconds[name].append(time.perf_counter() - started)
    if answers["reference"] != answers["tiktoken"]:
        raise SystemExit("the reference's ids differ from tiktoken's: fix that before timing it")
    median = {name: statistics.median(times) for name, times in seconds.items()}
    tokens = len(answers["tiktoken"])
    for name in ("reference", "tiktoken"):
        FIGURES.say(
            f"{name:>9}: {median[name]:.3f} s median of {arguments.runs} ({tokens / median[name]:,.0f} tokens/s)"
        )
    ratio = median["reference"] / median["tiktoken"]
    FIGURES.say(f"the reference takes {ratio:.1f}x tiktoken's time (target <= {TARGET:g}x), same {tokens:,} ids")
    if arguments.docs:
        FIGURES.write()
    if ratio > TARGET:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
