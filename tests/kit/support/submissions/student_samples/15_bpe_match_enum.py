# module: bpe
"""Part 2, trying out match statements and an Enum for why training stopped."""
from __future__ import annotations

import enum
import logging
from collections import Counter

log = logging.getLogger(__name__)


class StopReason(enum.Enum):
    BUDGET = "used all merges"
    NO_PAIRS = "no pairs left"
    TOO_RARE = "best pair occurs once"


last_stop_reason: StopReason | None = None


def get_pair_counts(tokens: list[str]) -> Counter[tuple[str, str]]:
    match tokens:
        case [] | [_]:
            return Counter()
        case _:
            return Counter(zip(tokens, tokens[1:]))


def merge_pair(tokens: list[str], pair: tuple[str, str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(tokens):
        match tokens[i : i + 2]:
            case [a, b] if (a, b) == pair:
                out.append(a + b)
                i += 2
            case [a, *_]:
                out.append(a)
                i += 1
    return out


def train_bpe(text: str, num_merges: int = 20) -> tuple[list[str], list[tuple[str, str]]]:
    global last_stop_reason
    tokens = list(text)
    merges: list[tuple[str, str]] = []
    reason = StopReason.BUDGET
    for _ in range(num_merges):
        counts = get_pair_counts(tokens)
        match counts.most_common(1):
            case []:
                reason = StopReason.NO_PAIRS
                break
            case [(_, n)] if n < 2:
                reason = StopReason.TOO_RARE
                break
            case [(pair, n)]:
                log.debug("merge %r (%d times)", pair, n)
                tokens = merge_pair(tokens, pair)
                merges.append(pair)
    last_stop_reason = reason
    return tokens, merges


def build_bpe_vocab(text: str, merges: list[tuple[str, str]]) -> dict[str, int]:
    tokens = set(text) | {a + b for a, b in merges}
    return {t: i for i, t in enumerate(sorted(tokens, key=lambda t: (len(t), t)))}


def encode(text: str, merges: list[tuple[str, str]], vocab: dict[str, int]) -> list[int]:
    tokens = list(text)
    for pair in merges:
        tokens = merge_pair(tokens, pair)
    return [vocab[t] for t in tokens]


def decode(ids: list[int], vocab: dict[str, int]) -> str:
    inverse = {i: t for t, i in vocab.items()}
    return "".join(inverse[i] for i in ids)


if __name__ == "__main__":
    logging.basicConfig(level=logging.DEBUG)
    train_bpe("abcabcabd", 10)
    print(last_stop_reason)
