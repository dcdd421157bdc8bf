# module: word_bpe
"""Part 3. Encoding caches each word's tokens with functools.lru_cache."""
import re
from collections import Counter
from functools import lru_cache

END_OF_WORD = "</w>"
PRE_TOKEN = re.compile(r"\w+|[^\s\w]+")


def pre_tokenize(text: str) -> list[str]:
    return PRE_TOKEN.findall(text)


def word_frequencies(text: str) -> dict:
    counts = Counter(pre_tokenize(text))
    return {tuple(w) + (END_OF_WORD,): n for w, n in counts.items()}


def get_pair_counts(word_freqs) -> Counter:
    pairs = Counter()
    for symbols, n in word_freqs.items():
        for a, b in zip(symbols, symbols[1:]):
            pairs[(a, b)] += n
    return pairs


def _merge_symbols(symbols, a, b):
    merged = []
    i = 0
    while i < len(symbols):
        if symbols[i] == a and i + 1 < len(symbols) and symbols[i + 1] == b:
            merged.append(a + b)
            i += 2
        else:
            merged.append(symbols[i])
            i += 1
    return tuple(merged)


def merge_pair(word_freqs, pair):
    out = {}
    for symbols, n in word_freqs.items():
        key = _merge_symbols(symbols, *pair)
        out[key] = out.get(key, 0) + n
    return out


def train_bpe(text, num_merges):
    vocab = word_frequencies(text)
    merges = []
    while len(merges) < num_merges:
        pairs = get_pair_counts(vocab)
        if not pairs:
            break
        (best, freq), = pairs.most_common(1)
        if freq < 2:
            break
        vocab = merge_pair(vocab, best)
        merges.append(best)
    return merges


@lru_cache(maxsize=None)
def _encode_word(word, merges_key):
    symbols = tuple(word) + (END_OF_WORD,)
    for a, b in merges_key:
        symbols = _merge_symbols(symbols, a, b)
    return symbols


@lru_cache(maxsize=None)
def _encode_word_by_rank(word, merges_key):
    ranks = {p: i for i, p in enumerate(merges_key)}
    symbols = tuple(word) + (END_OF_WORD,)
    while len(symbols) >= 2:
        best = None
        best_rank = None
        for p in zip(symbols, symbols[1:]):
            r = ranks.get(p)
            if r is not None and (best_rank is None or r < best_rank):
                best, best_rank = p, r
        if best is None:
            break
        symbols = _merge_symbols(symbols, *best)
    return symbols


def encode(text, merges):
    key = tuple(tuple(m) for m in merges)
    result = []
    for w in pre_tokenize(text):
        result.extend(_encode_word(w, key))
    return result


def encode_by_rank(text, merges):
    key = tuple(tuple(m) for m in merges)
    result = []
    for w in pre_tokenize(text):
        result.extend(_encode_word_by_rank(w, key))
    return result


def decode(tokens):
    text = "".join(tokens).replace(END_OF_WORD, " ")
    return text[:-1] if text.endswith(" ") else text
