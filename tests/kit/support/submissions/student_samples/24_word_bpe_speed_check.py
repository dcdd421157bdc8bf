# module: word_bpe
"""Part 3. I time encode against encode_by_rank in the main block."""
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

END_OF_WORD = "</w>"
PRE_TOKEN = re.compile(r"\w+|[^\s\w]+")


def pre_tokenize(text):
    return re.findall(r"\w+|[^\s\w]+", text)


def word_frequencies(text):
    d = defaultdict(int)
    for w in pre_tokenize(text):
        d[tuple(w) + (END_OF_WORD,)] += 1
    return dict(d)


def get_pair_counts(word_freqs):
    counts = Counter()
    for word, freq in word_freqs.items():
        for i in range(1, len(word)):
            counts[word[i - 1], word[i]] += freq
    return counts


def merge_word(word, pair):
    a, b = pair
    new = []
    i = 0
    while i < len(word):
        j = i + 1
        if j < len(word) and word[i] == a and word[j] == b:
            new.append(a + b)
            i += 2
        else:
            new.append(word[i])
            i = j
    return new


def merge_pair(word_freqs, pair):
    out = defaultdict(int)
    for word, freq in word_freqs.items():
        out[tuple(merge_word(word, pair))] += freq
    return dict(out)


def train_bpe(text, num_merges):
    freqs = word_frequencies(text)
    merges = []
    for n in range(num_merges):
        counts = get_pair_counts(freqs)
        if not counts:
            break
        best = max(counts, key=counts.get)
        if counts[best] < 2:
            break
        merges.append(best)
        freqs = merge_pair(freqs, best)
    return merges


def encode(text, merges):
    out = []
    cache = {}
    for w in pre_tokenize(text):
        if w not in cache:
            sym = list(w) + [END_OF_WORD]
            for pair in merges:
                if len(sym) == 1:
                    break
                sym = merge_word(sym, pair)
            cache[w] = sym
        out.extend(cache[w])
    return out


def encode_by_rank(text, merges):
    ranks = {}
    for r, pair in enumerate(merges):
        if pair not in ranks:
            ranks[tuple(pair)] = r
    cache = {}
    out = []
    for w in pre_tokenize(text):
        got = cache.get(w)
        if got is None:
            sym = list(w) + [END_OF_WORD]
            while len(sym) > 1:
                best_rank, best_pair = min(
                    ((ranks.get(p, sys.maxsize), p) for p in zip(sym, sym[1:])),
                )
                if best_rank == sys.maxsize:
                    break
                sym = merge_word(sym, best_pair)
            got = cache[w] = sym
        out.extend(got)
    return out


def decode(tokens):
    return "".join(tokens).replace(END_OF_WORD, " ")[:-1] if tokens else ""


if __name__ == "__main__":
    path = Path("data/shakespeare.txt")
    text = path.read_text(encoding="utf-8") if path.exists() else "the cat sat on the mat " * 500
    t0 = time.perf_counter()
    merges = train_bpe(text, 200)
    t1 = time.perf_counter()
    a = encode(text, merges)
    t2 = time.perf_counter()
    b = encode_by_rank(text, merges)
    t3 = time.perf_counter()
    assert a == b
    print(f"train {t1 - t0:.2f}s, encode {t2 - t1:.3f}s, by rank {t3 - t2:.3f}s", file=sys.stderr)
