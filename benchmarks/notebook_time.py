"""How long Part 6's notebook takes top to bottom, as a student runs it: with the reference's trainer and a naive one.

The notebook is the solved one (``grade make-notebooks`` builds it from the same source as the student's),
run by nbclient in a fresh kernel beside a copy of ``exercises/data``. The naive trainer is correct (its
merges are the reference's: the public suite fails it on the bonus's time rule alone) but recounts every
pair of every distinct piece after each merge: the trainer a student writes first. The slowest cells are
printed with their time, since the training sections are where a slow trainer shows; the reference's run
also checks that the notebook printed every figure its prose quotes.

    python benchmarks/notebook_time.py [--trainer reference|naive|both] [--part real_tokenizer]
"""

from __future__ import annotations

import argparse
import datetime
import shutil
import tempfile
import time
from pathlib import Path

from figures import Figures, add_option

from autograder.authoring import notebooks
from autograder.parts import part_of
from autograder.scoring.points import suite_points

FIGURES = Figures("notebook_time")

# Counts the distinct pieces once, then recounts all their pairs after every merge: no index, no heap.
NAIVE_TRAIN_BYTES = """def train_bytes(text, vocab_size, special_tokens=()):
    specials = list(dict.fromkeys(special_tokens))
    budget = vocab_size - 256 - len(specials)
    if budget < 0:
        raise ValueError(f"vocab_size {vocab_size} cannot hold the bytes and {specials}")
    chunks = [text]
    if specials:
        chunks = regex.split("|".join(regex.escape(t) for t in sorted(specials, key=len, reverse=True)), text)
    counts = Counter(piece for chunk in chunks for piece in regex.findall(GPT2_SPLIT, chunk))
    pieces = {tuple(bytes([b]) for b in piece.encode("utf-8")): n for piece, n in counts.items()}
    merges = []
    while len(merges) < budget:
        pairs = Counter()
        for tokens, n in pieces.items():
            for pair in zip(tokens, tokens[1:]):
                pairs[pair] += n
        if not pairs:
            break
        best = max(pairs, key=lambda pair: (pairs[pair], pair))
        if pairs[best] < 2:
            break
        merges.append(best)
        merged = {}
        for tokens, n in pieces.items():
            out, at = [], 0
            while at < len(tokens):
                if tokens[at : at + 2] == best:
                    out.append(best[0] + best[1])
                    at += 2
                else:
                    out.append(tokens[at])
                    at += 1
            merged[tuple(out)] = merged.get(tuple(out), 0) + n
        pieces = merged
    vocab = {i: bytes([i]) for i in range(256)}
    for first, second in merges:
        vocab[len(vocab)] = first + second
    for token in specials:
        vocab[len(vocab)] = token.encode("utf-8")
    return vocab, merges"""


def solved_notebook(part: str, trainer: str):  # an nbformat node
    notebook = notebooks.build(part_of(part), "solved", points=suite_points("hidden"))
    if trainer == "naive":
        cell = next(cell for cell in notebook.cells if cell.source.startswith("def train_bytes("))
        cell.source = "from collections import Counter\n\n\n" + NAIVE_TRAIN_BYTES
    return notebook


def seconds(cell) -> float:
    """A cell's time as nbclient recorded it: from the kernel's start of it to its reply."""
    timing = cell.get("metadata", {}).get("execution", {})
    if "iopub.execute_input" not in timing or "shell.execute_reply" not in timing:
        return 0.0
    start, end = (
        datetime.datetime.fromisoformat(timing[key].replace("Z", "+00:00"))
        for key in ("iopub.execute_input", "shell.execute_reply")
    )
    return (end - start).total_seconds()


def run(part: str, trainer: str) -> None:
    from nbclient import NotebookClient

    notebook = solved_notebook(part, trainer)
    with tempfile.TemporaryDirectory() as folder:
        shutil.copytree(notebooks.EXERCISES / "data", Path(folder) / "data")
        started = time.perf_counter()
        NotebookClient(
            notebook, timeout=1800, kernel_name="python3", resources={"metadata": {"path": folder}}
        ).execute()
        total = time.perf_counter() - started
    places = [place for place, cell in enumerate(notebook.cells, start=1) if cell.cell_type == "code"]
    slowest = sorted(places, key=lambda place: -seconds(notebook.cells[place - 1]))[:4]
    shown = ", ".join(f"cell {place} {seconds(notebook.cells[place - 1]):.1f} s" for place in sorted(slowest))
    FIGURES.say(f"{part}, {trainer} trainer: {total:.1f} s top to bottom; slowest: {shown}")
    errors = [output.ename for cell in notebook.cells for output in cell.get("outputs", []) if "ename" in output]
    if errors:
        raise SystemExit(f"{part}, {trainer} trainer: cells raised {', '.join(errors)}")
    if trainer == "reference":  # what the prose quotes is what this run printed
        printed = "".join(
            output.get("text", "") + output.get("data", {}).get("text/plain", "")
            for cell in notebook.cells
            for output in cell.get("outputs", [])
        )
        unsupported = [claim for claim in notebooks.claims(part_of(part)) if claim not in printed]
        FIGURES.say(f"the prose's figures printed: {not unsupported}{'' if not unsupported else f' ({unsupported})'}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trainer", choices=("reference", "naive", "both"), default="both")
    parser.add_argument("--part", default="real_tokenizer")
    add_option(parser)
    arguments = parser.parse_args()
    for trainer in ("reference", "naive") if arguments.trainer == "both" else (arguments.trainer,):
        run(arguments.part, trainer)
    if arguments.docs:
        FIGURES.write()


if __name__ == "__main__":
    main()
