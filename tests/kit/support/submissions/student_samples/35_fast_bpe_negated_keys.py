# module: fast_bpe
"""Part 5. To get "largest pair first" out of heapq I turn each string into a tuple of negated code points."""
import heapq
from collections import Counter, defaultdict

END_OF_WORD = "</w>"


def _desc_key(s):
    # -ord(c) reverses the order of characters; the trailing 1 is bigger than any -ord(c),
    # so a prefix ("a") sorts *after* a longer string ("ab"), as descending order needs.
    return tuple(-ord(c) for c in s) + (1,)


def _heap_item(count, pair):
    return (-count, _desc_key(pair[0]), _desc_key(pair[1]), pair)


def train_bpe(word_freqs, num_merges):
    vocab = {}  # word id -> [symbols, freq]
    for i, (word, freq) in enumerate(word_freqs.items()):
        vocab[i] = [list(word) + [END_OF_WORD], freq]

    pair_counts = Counter()
    pair_words = defaultdict(set)
    for wid, (syms, freq) in vocab.items():
        for p in zip(syms, syms[1:]):
            pair_counts[p] += freq
            pair_words[p].add(wid)

    heap = [_heap_item(c, p) for p, c in pair_counts.items()]
    heapq.heapify(heap)
    merges = []

    while len(merges) < num_merges and heap:
        item = heapq.heappop(heap)
        count, pair = -item[0], item[3]
        if pair_counts[pair] != count:
            continue
        if count < 2:
            break
        merges.append(pair)
        new_token = pair[0] + pair[1]
        dirty = set()
        for wid in pair_words.pop(pair):
            syms, freq = vocab[wid]
            i = 0
            new_syms = []
            prev_merged = False  # was new_syms[-1] made by this very merge?
            while i < len(syms):
                if i + 1 < len(syms) and syms[i] == pair[0] and syms[i + 1] == pair[1]:
                    # neighbours lose their old pairs and gain pairs with the new token
                    if new_syms:
                        left = new_syms[-1]
                        if not prev_merged:
                            # (left, a) was an old pair; a merged left neighbour already gave it up
                            pair_counts[(left, syms[i])] -= freq
                            dirty.add((left, syms[i]))
                        pair_counts[(left, new_token)] += freq
                        pair_words[(left, new_token)].add(wid)
                        dirty.add((left, new_token))
                    if i + 2 < len(syms):
                        right = syms[i + 2]
                        pair_counts[(syms[i + 1], right)] -= freq
                        dirty.add((syms[i + 1], right))
                        # if the next two also merge, the right neighbour will be new_token;
                        # that case is handled when we get there (left = new_token)
                        if not (i + 3 < len(syms) and syms[i + 2] == pair[0] and syms[i + 3] == pair[1]):
                            pair_counts[(new_token, right)] += freq
                            pair_words[(new_token, right)].add(wid)
                            dirty.add((new_token, right))
                    pair_counts[pair] -= freq
                    new_syms.append(new_token)
                    prev_merged = True
                    i += 2
                else:
                    new_syms.append(syms[i])
                    prev_merged = False
                    i += 1
            vocab[wid][0] = new_syms
        del pair_counts[pair]
        for p in dirty:
            c = pair_counts.get(p, 0)
            if c > 0:
                heapq.heappush(heap, _heap_item(c, p))
            elif p in pair_counts:
                del pair_counts[p]
    return merges
