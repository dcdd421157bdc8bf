# module: real_tokenizer
"""Part 6, with logging while loading and a warning for special tokens missing from the vocab."""
from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
import warnings
from typing import Iterator

import regex

logger = logging.getLogger("real_tokenizer")

GPT2_SPLIT = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
GPT4_SPLIT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|"""
    r"""\s+(?!\S)|\s"""
)
VOCAB_FILE = "vocab.json"
MERGES_FILE = "merges.txt"
MERGES_HEADER = "#version: 0.2"


def bytes_to_unicode() -> dict[int, str]:
    own = [b for b in range(256) if chr(b) in "".join(map(chr, range(33, 127))) or 161 <= b <= 172 or 174 <= b <= 255]
    others = [b for b in range(256) if b not in own]
    table = {b: chr(b) for b in own}
    table.update({b: chr(256 + n) for n, b in enumerate(others)})
    return dict(sorted(table.items()))


@contextlib.contextmanager
def _open_in(folder, name, mode="r"):
    path = os.path.join(folder, name)
    logger.debug("opening %s (%s)", path, mode)
    fh = open(path, mode, encoding="utf-8")
    try:
        yield fh
    finally:
        fh.close()


def load(folder):
    with _open_in(folder, VOCAB_FILE) as fh:
        vocab = json.load(fh)
    with _open_in(folder, MERGES_FILE) as fh:
        lines = fh.read().split("\n")
    if lines and lines[0].startswith("#version"):
        logger.info("merges header: %s", lines[0])
        lines = lines[1:]
    merges = []
    for line in lines:
        if not line:
            continue
        parts = line.split(" ")
        if len(parts) != 2:
            raise ValueError(f"bad merges line: {line!r}")
        merges.append((parts[0], parts[1]))
    logger.info("loaded %d tokens, %d merges", len(vocab), len(merges))
    return vocab, merges


def save(folder, vocab, merges):
    os.makedirs(folder, exist_ok=True)
    with _open_in(folder, VOCAB_FILE, "w") as fh:
        json.dump(vocab, fh, ensure_ascii=False)
    with _open_in(folder, MERGES_FILE, "w") as fh:
        fh.write(MERGES_HEADER + "\n")
        for a, b in merges:
            fh.write(a + " " + b + "\n")


def iter_stretches(text: str, special_tokens) -> Iterator[tuple[str, bool]]:
    if not special_tokens:
        if text:
            yield text, False
        return
    specials = sorted(special_tokens, key=len, reverse=True)
    pos = 0
    finder = regex.compile("|".join(regex.escape(s) for s in specials))
    for m in finder.finditer(text):
        if m.start() > pos:
            yield text[pos : m.start()], False
        yield m.group(), True
        pos = m.end()
    if pos < len(text):
        yield text[pos:], False


def bpe_piece(symbols: list[str], ranks: dict[tuple[str, str], int]) -> list[str]:
    while True:
        best_rank, best = None, None
        for pair in zip(symbols, symbols[1:]):
            r = ranks.get(pair)
            if r is not None and (best_rank is None or r < best_rank):
                best_rank, best = r, pair
        if best is None:
            return symbols
        merged: list[str] = []
        i = 0
        while i < len(symbols):
            if symbols[i : i + 2] == list(best):
                merged.append(best[0] + best[1])
                i += 2
            else:
                merged.append(symbols[i])
                i += 1
        symbols = merged


def encode(text, vocab, merges, pattern=GPT2_SPLIT, special_tokens=()):
    for s in special_tokens:
        if s not in vocab:
            warnings.warn(f"special token {s!r} is not in the vocabulary", stacklevel=2)
    ranks: dict[tuple[str, str], int] = {}
    for r, (a, b) in enumerate(merges):
        ranks.setdefault((a, b), r)
    table = bytes_to_unicode()
    ids: list[int] = []
    for stretch, is_special in iter_stretches(text, special_tokens):
        if is_special:
            ids.append(vocab[stretch])
            continue
        for piece in regex.findall(pattern, stretch):
            ids += [vocab[t] for t in bpe_piece([table[b] for b in piece.encode("utf-8")], ranks)]
    return ids


def decode(ids, vocab):
    inv = {v: k for k, v in vocab.items()}
    rev = {c: b for b, c in bytes_to_unicode().items()}
    data = bytearray()
    for i in ids:
        data += bytes(rev[c] for c in inv[i])
    return data.decode("utf-8", errors="replace")


if __name__ == "__main__":
    logging.basicConfig(level=logging.DEBUG)
    with tempfile.TemporaryDirectory() as tmp:
        save(tmp, {"h": 0, "i": 1, "Ġ": 2, "hi": 3, "Ġhi": 4}, [("h", "i"), ("Ġ", "hi")])
        v, m = load(tmp)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            print(encode("hi hi", v, m, special_tokens=["<|endoftext|>"]))
            print(len(caught), "warning(s)")
