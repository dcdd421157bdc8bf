# module: bpe
"""I wrapped the trained model in a class with a cached inverse vocab."""
from __future__ import annotations

from collections import Counter


class BPEModel:
    __slots__ = ("merges", "vocab", "_inverse")

    def __init__(self, merges: list[tuple[str, str]], vocab: dict[str, int]) -> None:
        self.merges = list(merges)
        self.vocab = dict(vocab)
        self._inverse: dict[int, str] | None = None

    @property
    def inverse(self) -> dict[int, str]:
        if self._inverse is None:
            self._inverse = {i: t for t, i in self.vocab.items()}
        return self._inverse

    def __len__(self) -> int:
        return len(self.vocab)

    def __repr__(self) -> str:
        return f"BPEModel(merges={len(self.merges)}, vocab={len(self.vocab)})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BPEModel):
            return NotImplemented
        return self.merges == other.merges and self.vocab == other.vocab

    def encode(self, text: str) -> list[int]:
        tokens = list(text)
        for pair in self.merges:
            tokens = merge_pair(tokens, pair)
        return [self.vocab[t] for t in tokens]

    def decode(self, ids: list[int]) -> str:
        return "".join(self.inverse[i] for i in ids)


def get_pair_counts(tokens: list[str]) -> Counter[tuple[str, str]]:
    return Counter(zip(tokens, tokens[1:]))


def merge_pair(tokens: list[str], pair: tuple[str, str]) -> list[str]:
    a, b = pair
    result: list[str] = []
    i, n = 0, len(tokens)
    while i < n:
        if i + 1 < n and tokens[i] == a and tokens[i + 1] == b:
            result.append(a + b)
            i += 2
            continue
        result.append(tokens[i])
        i += 1
    return result


def train_bpe(text: str, num_merges: int = 20) -> tuple[list[str], list[tuple[str, str]]]:
    tokens = list(text)
    merges: list[tuple[str, str]] = []
    for _ in range(num_merges):
        counts = get_pair_counts(tokens)
        top = counts.most_common(1)
        if not top or top[0][1] < 2:
            break
        pair = top[0][0]
        tokens = merge_pair(tokens, pair)
        merges.append(pair)
    return tokens, merges


def build_bpe_vocab(text: str, merges: list[tuple[str, str]]) -> dict[str, int]:
    everything = set(text) | {"".join(m) for m in merges}
    return {t: i for i, t in enumerate(sorted(everything, key=lambda t: (len(t), t)))}


def encode(text: str, merges: list[tuple[str, str]], vocab: dict[str, int]) -> list[int]:
    return BPEModel(merges, vocab).encode(text)


def decode(ids: list[int], vocab: dict[str, int]) -> str:
    return BPEModel([], vocab).decode(ids)


if __name__ == "__main__":
    text = "the quick brown fox jumps over the lazy dog " * 3
    toks, merges = train_bpe(text, 10)
    model = BPEModel(merges, build_bpe_vocab(text, merges))
    print(model)
    assert model.decode(model.encode(text)) == text
