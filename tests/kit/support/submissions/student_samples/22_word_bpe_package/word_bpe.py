# module: word_bpe
"""Part 3, with helpers in text_utils.py next to this file."""
from collections import Counter

from text_utils import describe, merge_in, split_words

END_OF_WORD = "</w>"


def pre_tokenize(text):
    return split_words(text)


def word_frequencies(text):
    c = Counter()
    for w in pre_tokenize(text):
        c[(*w, END_OF_WORD)] += 1
    return dict(c)


def get_pair_counts(word_freqs):
    out = Counter()
    for word, f in word_freqs.items():
        for i in range(len(word) - 1):
            out[(word[i], word[i + 1])] += f
    return out


def merge_pair(word_freqs, pair):
    new = Counter()
    for word, f in word_freqs.items():
        new[merge_in(word, pair)] += f
    return dict(new)


def train_bpe(text, num_merges):
    freqs = word_frequencies(text)
    merges = []
    for _ in range(num_merges):
        counts = get_pair_counts(freqs)
        if not counts:
            break
        pair, n = counts.most_common(1)[0]
        if n < 2:
            break
        merges.append(pair)
        freqs = merge_pair(freqs, pair)
    return merges


def encode(text, merges):
    tokens = []
    for w in pre_tokenize(text):
        symbols = (*w, END_OF_WORD)
        for pair in merges:
            symbols = merge_in(symbols, pair)
        tokens.extend(symbols)
    return tokens


def encode_by_rank(text, merges):
    rank = {}
    for i, pair in enumerate(merges):
        rank.setdefault(tuple(pair), i)
    tokens = []
    for w in pre_tokenize(text):
        symbols = (*w, END_OF_WORD)
        while len(symbols) > 1:
            best = min(zip(symbols, symbols[1:]), key=lambda p: rank.get(p, len(rank)))
            if best not in rank:
                break
            symbols = merge_in(symbols, best)
        tokens.extend(symbols)
    return tokens


def decode(tokens):
    s = "".join(tokens)
    s = s.replace(END_OF_WORD, " ")
    return s.rstrip(" ") if s.endswith(" ") else s


if __name__ == "__main__":
    m = train_bpe("naïve naïve café café", 10)
    print(m)
    for ch in "ïé":
        print(ch, describe(ch))
