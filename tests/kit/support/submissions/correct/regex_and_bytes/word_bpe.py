"""Part 3 the way the original subword-nmt code merges: a regex over space-separated symbols.

Written differently from the reference on purpose: symbols joined by spaces
and merged with a regex that only matches whole symbols, ties broken towards
the largest pair, decoding with re.sub.
"""

import re
from collections import defaultdict

END_OF_WORD = "</w>"


def pre_tokenize(text):
    return [match.group(0) for match in re.finditer(r"\w+|[^\s\w]+", text)]


def word_frequencies(text):
    table = defaultdict(int)
    for word in pre_tokenize(text):
        table[(*word, END_OF_WORD)] += 1
    return dict(table)


def get_pair_counts(word_freqs):
    counts = defaultdict(int)
    for word, frequency in word_freqs.items():
        for i in range(len(word) - 1):
            counts[word[i], word[i + 1]] += frequency
    return dict(counts)


def merge_pair(word_freqs, pair):
    # Whole symbols only: the pair must sit between spaces (or the ends of the word).
    pattern = re.compile(r"(?<!\S)" + re.escape(pair[0] + " " + pair[1]) + r"(?!\S)")
    merged = defaultdict(int)
    for word, frequency in word_freqs.items():
        if any(" " in symbol for symbol in word):  # a symbol holding a space cannot be spaced out safely
            merged[_merge_by_index(word, pair)] += frequency
            continue
        merged[tuple(pattern.sub(pair[0] + pair[1], " ".join(word)).split(" "))] += frequency
    return dict(merged)


def _merge_by_index(word, pair):
    out, i = [], 0
    while i < len(word):
        if word[i:i + 2] == pair:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(word[i])
            i += 1
    return tuple(out)


def train_bpe(text, num_merges):
    table = word_frequencies(text)
    merges = []
    while len(merges) < num_merges:
        counts = get_pair_counts(table)
        if not counts:
            break
        best = max(counts, key=lambda pair: (counts[pair], pair))
        if counts[best] < 2:
            break
        table = merge_pair(table, best)
        merges.append(best)
    return merges


def encode(text, merges):
    tokens = []
    for word in pre_tokenize(text):
        symbols = (*word, END_OF_WORD)
        for pair in merges:
            symbols = _merge_by_index(symbols, pair)
        tokens += symbols
    return tokens



def encode_by_rank(text, merges):
    # tiktoken's way: merge the single leftmost occurrence of the best pair, then look again.
    rank = {}
    for index, pair in enumerate(merges):
        rank.setdefault(pair, index)
    tokens = []
    for word in pre_tokenize(text):
        parts = list(word) + [END_OF_WORD]
        while True:
            ranked = [(rank[pair], i) for i, pair in enumerate(zip(parts, parts[1:])) if pair in rank]
            if not ranked:
                break
            _, i = min(ranked)
            parts[i : i + 2] = [parts[i] + parts[i + 1]]
        tokens += parts
    return tokens

def decode(tokens):
    return re.sub(re.escape(END_OF_WORD), " ", "".join(tokens)).rstrip(" ") if tokens else ""
