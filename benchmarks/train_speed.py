"""How fast word-level BPE trains: the naive reference, the fast reference, subword-nmt and tokenizers.

Trains 1,000 merges (default) on the Shakespeare corpus with each, once, in
this process, and prints the times and their ratios. The naive reference
recounts every pair of every word after each merge (Part 3); the fast one
keeps the counts up to date (Part 5); subword-nmt is pure Python too;
Hugging Face tokenizers is Rust. Figures are from one run on this machine:
compare the ratios, not the seconds.

    python benchmarks/train_speed.py [--merges 1000] [--naive-merges 100]

The naive trainer takes about a tenth of a second per merge here, so by
default it runs 100 merges and its time for 1,000 is projected (its cost per
merge hardly changes as merges proceed: every step is a full recount).
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from collections import Counter
from pathlib import Path

from figures import Figures, add_option

from autograder.kit_root import KIT_ROOT
from autograder.testing.reference import reference

FIGURES = Figures("train_speed")

TARGET_VS_SUBWORD_NMT = 1.0  # the fast reference at least as fast
TARGET_VS_TOKENIZERS = 10.0  # and within 10x of Rust


def corpus_path() -> Path:
    shared = KIT_ROOT.parent / "shared" / "corpora" / "tinyshakespeare.txt"
    return shared if shared.is_file() else KIT_ROOT / "exercises" / "data" / "shakespeare.txt"


def timed(action: object) -> tuple[float, object]:
    started = time.perf_counter()
    result = action()  # type: ignore[operator]
    return time.perf_counter() - started, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--merges", type=int, default=1000)
    parser.add_argument("--naive-merges", type=int, default=100)
    add_option(parser)
    arguments = parser.parse_args()
    text = corpus_path().read_text(encoding="utf-8")
    words = Counter(word for line in text.splitlines() for word in line.strip("\r\n ").split(" ") if word)
    word_bpe, fast_bpe = reference("word_bpe"), reference("fast_bpe")
    FIGURES.say(f"corpus: {corpus_path().name}, {len(text):,} characters, {len(words):,} distinct words")

    def naive() -> list[tuple[str, str]]:  # Part 5's oracle: recount after every merge
        return fast_bpe.train_by_recount(
            {(*word, "</w>"): count for word, count in words.items()},
            arguments.naive_merges,
            count_pairs=word_bpe.get_pair_counts,
            merge_pair=word_bpe.merge_pair,
        )

    naive_seconds, _ = timed(naive)
    naive_projected = naive_seconds * arguments.merges / arguments.naive_merges
    fast_seconds, _ = timed(lambda: fast_bpe.train_bpe(dict(words), arguments.merges))
    times = {"naive reference (projected)": naive_projected, "fast reference": fast_seconds}

    try:
        from subword_nmt.learn_bpe import learn_bpe

        def subword() -> None:
            learn_bpe(io.StringIO(text), io.StringIO(), arguments.merges)

        stderr, sys.stderr = sys.stderr, io.StringIO()  # its progress bar
        try:
            times["subword-nmt"], _ = timed(subword)
        finally:
            sys.stderr = stderr
    except ImportError:
        FIGURES.say("subword-nmt is not installed (pip install -e '.[dev]'): skipped")
    try:
        from tokenizers import Tokenizer, models, pre_tokenizers, trainers

        def rust() -> None:
            tokenizer = Tokenizer(models.BPE(end_of_word_suffix="</w>"))
            tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
            alphabet = len({character for word in words for character in word})
            trainer = trainers.BpeTrainer(
                vocab_size=alphabet * 2 + arguments.merges,
                min_frequency=2,
                show_progress=False,
                end_of_word_suffix="</w>",
            )
            tokenizer.train_from_iterator(text.splitlines(), trainer=trainer)

        times["tokenizers (Rust)"], _ = timed(rust)
    except ImportError:
        FIGURES.say("tokenizers is not installed (pip install -e '.[dev]'): skipped")

    FIGURES.say(f"{arguments.merges} merges (naive: {arguments.naive_merges} run, the rest projected):")
    for name, seconds in times.items():
        FIGURES.say(f"  {name:<28} {seconds:8.2f} s   {seconds / fast_seconds:7.1f}x the fast reference")
    FIGURES.say(f"fast reference vs naive: {naive_projected / fast_seconds:.0f}x faster")
    if "subword-nmt" in times:
        FIGURES.say(
            f"fast reference vs subword-nmt: {times['subword-nmt'] / fast_seconds:.2f}x "
            f"(target >= {TARGET_VS_SUBWORD_NMT})"
        )
    if "tokenizers (Rust)" in times:
        FIGURES.say(
            f"fast reference vs tokenizers: {fast_seconds / times['tokenizers (Rust)']:.1f}x slower "
            f"(target <= {TARGET_VS_TOKENIZERS})"
        )
    if arguments.docs:
        FIGURES.write()


if __name__ == "__main__":
    main()
