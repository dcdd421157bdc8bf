# module: real_tokenizer
"""Part 6. A GPT2Tokenizer class with a per-piece cache; module functions wrap it."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Iterable, Sequence

import regex

GPT2_SPLIT = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
GPT4_SPLIT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|"""
    r"""\s+(?!\S)|\s"""
)
VOCAB_FILE = "vocab.json"
MERGES_FILE = "merges.txt"
MERGES_HEADER = "#version: 0.2"
NO_RANK = float("inf")
BYTE_VALUES = 256

_BYTE_TABLE: dict[int, str] | None = None  # module-level cache


def bytes_to_unicode() -> dict[int, str]:
    global _BYTE_TABLE
    if _BYTE_TABLE is None:
        printable = set(range(33, 127)) | set(range(161, 173)) | set(range(174, 256))
        shifted = iter(range(256, 512))
        _BYTE_TABLE = {b: chr(b) if b in printable else chr(next(shifted)) for b in range(BYTE_VALUES)}
    return dict(_BYTE_TABLE)


class GPT2Tokenizer:
    def __init__(
        self,
        vocab: dict[str, int],
        merges: Sequence[tuple[str, str]],
        pattern: str = GPT2_SPLIT,
        special_tokens: Iterable[str] = (),
    ) -> None:
        self.vocab = dict(vocab)
        self.ranks: dict[tuple[str, str], int] = {}
        for rank, (a, b) in enumerate(merges):
            self.ranks.setdefault((a, b), rank)
        self._split = regex.compile(pattern)
        self.special_tokens = tuple(sorted(set(special_tokens), key=len, reverse=True))
        self._special_re = (
            regex.compile("(" + "|".join(map(regex.escape, self.special_tokens)) + ")")
            if self.special_tokens
            else None
        )
        self._byte_enc = bytes_to_unicode()
        self._byte_dec = {c: b for b, c in self._byte_enc.items()}
        self._cache: dict[str, list[str]] = {}
        self._inverse: dict[int, str] | None = None

    @classmethod
    def from_folder(cls, folder: str | os.PathLike[str], **kwargs) -> "GPT2Tokenizer":
        vocab, merges = load(folder)
        return cls(vocab, merges, **kwargs)

    @property
    def inverse_vocab(self) -> dict[int, str]:
        if self._inverse is None:
            self._inverse = {i: t for t, i in self.vocab.items()}
        return self._inverse

    def __len__(self) -> int:
        return len(self.vocab)

    def __contains__(self, token: object) -> bool:
        return token in self.vocab

    def __repr__(self) -> str:
        return f"GPT2Tokenizer(vocab={len(self.vocab)}, merges={len(self.ranks)}, specials={self.special_tokens!r})"

    def _bpe(self, piece: str) -> list[str]:
        cached = self._cache.get(piece)
        if cached is not None:
            return cached
        word = [self._byte_enc[b] for b in piece.encode("utf-8")]
        while len(word) > 1:
            rank, pair = min((self.ranks.get(p, NO_RANK), p) for p in zip(word, word[1:]))
            if rank == NO_RANK:
                break
            first, second = pair
            new_word: list[str] = []
            i = 0
            while i < len(word):
                if i < len(word) - 1 and word[i] == first and word[i + 1] == second:
                    new_word.append(first + second)
                    i += 2
                else:
                    new_word.append(word[i])
                    i += 1
            word = new_word
        self._cache[piece] = word
        return word

    def stretches(self, text: str) -> list[str]:
        if self._special_re is None:
            return [text] if text else []
        return [s for s in self._special_re.split(text) if s]

    def encode(self, text: str) -> list[int]:
        out: list[int] = []
        for index, stretch in enumerate(self.stretches(text)):
            if stretch in self.special_tokens:
                out.append(self.vocab[stretch])
                continue
            for piece in self._split.findall(stretch):
                out.extend(self.vocab[t] for t in self._bpe(piece))
        return out

    def decode(self, ids: Iterable[int]) -> str:
        chars = "".join(self.inverse_vocab[i] for i in ids)
        return bytes(self._byte_dec[c] for c in chars).decode("utf-8", errors="replace")


def load(folder: str | os.PathLike[str]) -> tuple[dict[str, int], list[tuple[str, str]]]:
    folder = Path(folder)
    vocab = json.loads((folder / VOCAB_FILE).read_text(encoding="utf-8"))
    merges: list[tuple[str, str]] = []
    for n, line in enumerate((folder / MERGES_FILE).read_text(encoding="utf-8").split("\n")):
        if n == 0 and line.startswith("#version"):
            continue
        if not line:
            continue
        left, right = line.split(" ")
        merges.append((left, right))
    return vocab, merges


def save(folder: str | os.PathLike[str], vocab: dict[str, int], merges: list[tuple[str, str]]) -> None:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / VOCAB_FILE).write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    body = "".join(f"{a} {b}\n" for a, b in merges)
    (folder / MERGES_FILE).write_text(f"{MERGES_HEADER}\n{body}", encoding="utf-8")


def encode(text, vocab, merges, pattern=GPT2_SPLIT, special_tokens=()):
    return GPT2Tokenizer(vocab, merges, pattern, special_tokens).encode(text)


def decode(ids, vocab):
    return GPT2Tokenizer(vocab, []).decode(ids)


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    for candidate in (here / "data" / "gpt2", Path("data/gpt2")):
        if (candidate / VOCAB_FILE).exists():
            tok = GPT2Tokenizer.from_folder(candidate, special_tokens=["<|endoftext|>"])
            print(tok)
            ids = tok.encode("Hello world<|endoftext|>")
            print(ids, repr(tok.decode(ids)))
            break
