# module: bpe
"""Part 2 with itertools.pairwise and a bit of walrus."""
from __future__ import annotations

from collections import Counter
from itertools import pairwise

Pair = tuple[str, str]


def get_pair_counts(tokens: list[str]) -> Counter[Pair]:
    return Counter(pairwise(tokens))


def merge_pair(tokens: list[str], pair: Pair) -> list[str]:
    merged: list[str] = []
    it = iter(range(len(tokens)))
    joined = pair[0] + pair[1]
    for i in it:
        if (tokens[i], tokens[i + 1] if i + 1 < len(tokens) else None) == pair:
            merged.append(joined)
            next(it, None)  # skip the second half of the pair
        else:
            merged.append(tokens[i])
    return merged


def train_bpe(text: str, num_merges: int = 20) -> tuple[list[str], list[Pair]]:
    tokens, merges = list(text), []
    while len(merges) < num_merges and (counts := get_pair_counts(tokens)):
        best = max(counts, key=counts.get)
        if counts[best] < 2:
            break
        tokens = merge_pair(tokens, best)
        merges.append(best)
    return tokens, merges


def build_bpe_vocab(text: str, merges: list[Pair]) -> dict[str, int]:
    tokens = {*text, *(a + b for a, b in merges)}
    return {tok: idx for idx, tok in enumerate(sorted(tokens, key=lambda t: (len(t), t)))}


def encode(text: str, merges: list[Pair], vocab: dict[str, int]) -> list[int]:
    tokens = list(text)
    for pair in merges:
        tokens = merge_pair(tokens, pair)
    return [vocab[t] for t in tokens]


def decode(ids: list[int], vocab: dict[str, int]) -> str:
    id_to_token = {v: k for k, v in vocab.items()}
    return "".join(map(id_to_token.__getitem__, ids))


if __name__ == "__main__":
    toks, m = train_bpe("aaabdaaabac", num_merges=3)
    print(f"{toks=!r} {m=}")
