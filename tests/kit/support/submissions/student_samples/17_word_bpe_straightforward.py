# module: word_bpe
import re
from collections import Counter

END_OF_WORD = "</w>"
PRE_TOKEN = re.compile(r"\w+|[^\s\w]+")


def pre_tokenize(text):
    return PRE_TOKEN.findall(text)


def word_frequencies(text):
    freqs = {}
    for w in pre_tokenize(text):
        key = tuple(w) + (END_OF_WORD,)
        freqs[key] = freqs.get(key, 0) + 1
    return freqs


def get_pair_counts(word_freqs):
    counts = Counter()
    for word, freq in word_freqs.items():
        for i in range(len(word) - 1):
            counts[word[i], word[i + 1]] += freq
    return counts


def _merge_word(word, pair):
    out = []
    i = 0
    while i < len(word):
        if i + 1 < len(word) and word[i] == pair[0] and word[i + 1] == pair[1]:
            out.append(word[i] + word[i + 1])
            i += 2
        else:
            out.append(word[i])
            i += 1
    return tuple(out)


def merge_pair(word_freqs, pair):
    new = {}
    for word, freq in word_freqs.items():
        w = _merge_word(word, pair)
        new[w] = new.get(w, 0) + freq
    return new


def train_bpe(text, num_merges):
    freqs = word_frequencies(text)
    merges = []
    for _ in range(num_merges):
        counts = get_pair_counts(freqs)
        if not counts:
            break
        best, c = counts.most_common(1)[0]
        if c < 2:
            break
        freqs = merge_pair(freqs, best)
        merges.append(best)
    return merges


def encode(text, merges):
    tokens = []
    for w in pre_tokenize(text):
        symbols = list(w) + [END_OF_WORD]
        for pair in merges:
            symbols = list(_merge_word(symbols, pair))
        tokens.extend(symbols)
    return tokens


def encode_by_rank(text, merges):
    ranks = {pair: r for r, pair in enumerate(merges)}
    tokens = []
    for w in pre_tokenize(text):
        symbols = list(w) + [END_OF_WORD]
        while len(symbols) > 1:
            pairs = list(zip(symbols, symbols[1:]))
            best = min(pairs, key=lambda p: ranks.get(p, float("inf")))
            if best not in ranks:
                break
            symbols = list(_merge_word(symbols, best))
        tokens.extend(symbols)
    return tokens


def decode(tokens):
    return "".join(tokens).replace(END_OF_WORD, " ").rstrip(" ")
