# module: fast_bpe
# Part 5 attempt: incremental counts work, but I still pick the best pair with max() over all counts.
# (Didn't manage the heap part in time, so it's probably not 10x faster.)
from collections import defaultdict

END_OF_WORD = "</w>"


def train_bpe(word_freqs, num_merges):
    words = {w: list(w) + [END_OF_WORD] for w in word_freqs}
    counts = defaultdict(int)
    index = defaultdict(set)
    for w, syms in words.items():
        for p in zip(syms, syms[1:]):
            counts[p] += word_freqs[w]
            index[p].add(w)

    merges = []
    for _ in range(num_merges):
        if not counts:
            break
        best = max(counts, key=lambda p: (counts[p], p))
        if counts[best] < 2:
            break
        merges.append(best)
        a, b = best
        for w in list(index[best]):
            syms = words[w]
            f = word_freqs[w]
            for p in zip(syms, syms[1:]):
                counts[p] -= f
                if counts[p] == 0:
                    del counts[p]
            new, i = [], 0
            while i < len(syms):
                if i < len(syms) - 1 and syms[i] == a and syms[i + 1] == b:
                    new.append(a + b)
                    i += 2
                else:
                    new.append(syms[i])
                    i += 1
            words[w] = new
            for p in zip(new, new[1:]):
                counts[p] += f
                index[p].add(w)
        del index[best]
    return merges
