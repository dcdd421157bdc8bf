# module: bpe
"""Part 2. encode raises a clearer error than KeyError for unseen characters."""

from collections import Counter
from typing import Dict, List, Tuple


class UnknownCharacterError(KeyError):
    """A character the training text never contained."""

    def __init__(self, char: str, position: int) -> None:
        super().__init__(char)
        self.char = char
        self.position = position

    def __str__(self) -> str:
        return f"character {self.char!r} at position {self.position} is not in the vocabulary"


def get_pair_counts(tokens: List[str]) -> Counter:
    c: Counter = Counter()
    if len(tokens) < 2:
        return c
    for pair in zip(tokens[:-1], tokens[1:]):
        c[pair] += 1
    return c


def merge_pair(tokens: List[str], pair: Tuple[str, str]) -> List[str]:
    first, second = pair
    out: List[str] = []
    idx = 0
    while idx < len(tokens):
        here = tokens[idx]
        nxt = tokens[idx + 1] if idx + 1 < len(tokens) else None
        if here == first and nxt == second:
            out.append(first + second)
            idx += 2
        else:
            out.append(here)
            idx += 1
    return out


def train_bpe(text: str, num_merges: int = 20) -> Tuple[List[str], List[Tuple[str, str]]]:
    tokens = list(text)
    learned: List[Tuple[str, str]] = []
    for step in range(num_merges):
        pair_counts = get_pair_counts(tokens)
        if not pair_counts:
            break
        (pair, count), = pair_counts.most_common(1)
        if count < 2:
            break
        tokens = merge_pair(tokens, pair)
        learned.append(pair)
    return tokens, learned


def build_bpe_vocab(text: str, merges: List[Tuple[str, str]]) -> Dict[str, int]:
    toks = set(text)
    toks.update(a + b for a, b in merges)
    return {tok: n for n, tok in enumerate(sorted(toks, key=lambda t: (len(t), t)))}


def encode(text: str, merges: List[Tuple[str, str]], vocab: Dict[str, int]) -> List[int]:
    for pos, ch in enumerate(text):
        if ch not in vocab:
            raise UnknownCharacterError(ch, pos)
    tokens = list(text)
    for pair in merges:
        tokens = merge_pair(tokens, pair)
    return [vocab[t] for t in tokens]


def decode(ids: List[int], vocab: Dict[str, int]) -> str:
    reverse = {}
    for token, i in vocab.items():
        reverse[i] = token
    pieces = []
    for i in ids:
        pieces.append(reverse[i])
    return "".join(pieces)


if __name__ == "__main__":
    t, m = train_bpe("banana bandana", 4)
    v = build_bpe_vocab("banana bandana", m)
    try:
        encode("bananz", m, v)
    except UnknownCharacterError as err:
        print("as expected:", err)
