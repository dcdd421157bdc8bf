"""Helpers shared by my BPE parts (imported by bpe.py)."""
from collections import Counter


def count_adjacent(seq):
    """Count adjacent pairs of any sequence (overlaps count)."""
    return Counter(zip(seq, seq[1:]))


def replace_pair(seq, pair, replacement):
    """Left-to-right, non-overlapping replacement of ``pair`` by ``replacement``."""
    out = []
    i = 0
    last = len(seq) - 1
    while i <= last:
        if i < last and seq[i] == pair[0] and seq[i + 1] == pair[1]:
            out.append(replacement)
            i += 2
        else:
            out.append(seq[i])
            i += 1
    return out


def by_length_then_text(token):
    return (len(token), token)
