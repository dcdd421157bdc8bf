# module: word_bpe
"""Part 3. encode_by_rank uses a heap of (rank, position) like I read GPT-2 implementations do."""
import heapq
import re
from collections import Counter
from operator import itemgetter

END_OF_WORD = "</w>"
PRE_TOKEN = re.compile(r"\w+|[^\s\w]+")
INF = float("inf")


def pre_tokenize(text):
    return PRE_TOKEN.findall(text)


def word_frequencies(text):
    freq = Counter()
    for tok in pre_tokenize(text):
        freq[tuple(tok) + (END_OF_WORD,)] += 1
    return dict(freq)


def get_pair_counts(word_freqs):
    c = Counter()
    for word, n in word_freqs.items():
        for p in zip(word, word[1:]):
            c[p] += n
    return c


def _apply(symbols, pair):
    res = []
    i = 0
    L = len(symbols)
    while i < L:
        if i < L - 1 and symbols[i] == pair[0] and symbols[i + 1] == pair[1]:
            res.append(pair[0] + pair[1])
            i += 2
        else:
            res.append(symbols[i])
            i += 1
    return res


def merge_pair(word_freqs, pair):
    out = Counter()
    for word, n in word_freqs.items():
        out[tuple(_apply(word, pair))] += n
    return dict(out)


def train_bpe(text, num_merges):
    wf = word_frequencies(text)
    learned = []
    for _ in range(num_merges):
        counts = get_pair_counts(wf)
        if not counts:
            break
        best, best_count = max(counts.items(), key=itemgetter(1))
        if best_count < 2:
            break
        learned.append(best)
        wf = merge_pair(wf, best)
    return learned


def encode(text, merges):
    out = []
    for w in pre_tokenize(text):
        syms = list(w) + [END_OF_WORD]
        for pair in merges:
            syms = _apply(syms, pair)
        out.extend(syms)
    return out


def _rank_word(symbols, ranks, by_rank):
    while True:
        heap = [(ranks.get(p, INF), i) for i, p in enumerate(zip(symbols, symbols[1:]))]
        if not heap:
            return symbols
        heapq.heapify(heap)
        rank, _ = heap[0]
        if rank == INF:
            return symbols
        symbols = _apply(symbols, by_rank[rank])


def encode_by_rank(text, merges):
    ranks = {}
    for r, p in enumerate(merges):
        ranks.setdefault(tuple(p), r)
    by_rank = {r: p for p, r in ranks.items()}
    out = []
    for w in pre_tokenize(text):
        out.extend(_rank_word(list(w) + [END_OF_WORD], ranks, by_rank))
    return out


def decode(tokens):
    words = "".join(tokens).split(END_OF_WORD)
    return " ".join(words[:-1] if words and words[-1] == "" else words)
