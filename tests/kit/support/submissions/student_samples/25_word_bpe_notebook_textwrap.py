# module: word_bpe
# Part 3 - my notebook, exported as a script. Demo output printed at top level.
import re
import textwrap
from collections import Counter

END_OF_WORD = "</w>"
PRE_TOKEN = re.compile(r"\w+|[^\s\w]+")


def pre_tokenize(text):
    return PRE_TOKEN.findall(text)


def word_frequencies(text):
    return dict(Counter(tuple(word) + (END_OF_WORD,) for word in pre_tokenize(text)))


print(word_frequencies("to be or not to be"))


def get_pair_counts(word_freqs):
    return sum(
        (Counter({pair: freq for pair in zip(word, word[1:])}) for word, freq in word_freqs.items()),
        Counter(),
    ) if False else _pair_counts_loop(word_freqs)


def _pair_counts_loop(word_freqs):
    # the sum(...) version above was my first try; it drops repeated pairs inside one word
    counts = Counter()
    for word, freq in word_freqs.items():
        for pair in zip(word, word[1:]):
            counts[pair] += freq
    return counts


def merge_pair(word_freqs, pair):
    joined = "".join(pair)
    result = {}
    for word, freq in word_freqs.items():
        i, new = 0, []
        while i < len(word):
            if word[i : i + 2] == pair:
                new.append(joined)
                i += 2
            else:
                new.append(word[i])
                i += 1
        key = tuple(new)
        result[key] = result.get(key, 0) + freq
    return result


def train_bpe(text, num_merges):
    freqs = word_frequencies(text)
    merges = []
    for _ in range(num_merges):
        counts = get_pair_counts(freqs)
        if not counts:
            break
        best, count = counts.most_common(1)[0]
        if count < 2:
            break
        merges.append(best)
        freqs = merge_pair(freqs, best)
    return merges


merges_demo = train_bpe("low lower lowest low", 3)
print(merges_demo)


def _merge_list(symbols, pair):
    return list(next(iter(merge_pair({tuple(symbols): 1}, pair))))


def encode(text, merges):
    tokens = []
    for word in pre_tokenize(text):
        symbols = list(word) + [END_OF_WORD]
        for pair in merges:
            symbols = _merge_list(symbols, tuple(pair))
        tokens += symbols
    return tokens


def encode_by_rank(text, merges):
    ranks = {}
    for i, p in enumerate(merges):
        ranks.setdefault(tuple(p), i)
    tokens = []
    for word in pre_tokenize(text):
        symbols = list(word) + [END_OF_WORD]
        while True:
            ranked = sorted((ranks[p], p) for p in set(zip(symbols, symbols[1:])) if p in ranks)
            if not ranked:
                break
            symbols = _merge_list(symbols, ranked[0][1])
        tokens += symbols
    return tokens


def decode(tokens):
    out = []
    word = ""
    for tok in tokens:
        if tok.endswith(END_OF_WORD):
            out.append(word + tok[: -len(END_OF_WORD)])
            word = ""
        else:
            word += tok
    if word:
        out.append(word)
    return " ".join(out)


corpus = """It was the best of times, it was the worst of times, it was the age of wisdom,
it was the age of foolishness, it was the epoch of belief, it was the epoch of incredulity."""
learned = train_bpe(corpus, 40)
print(textwrap.fill(" ".join(a + b for a, b in learned), width=72))
encoded = encode(corpus, learned)
print(encoded[:20])
assert encoded == encode_by_rank(corpus, learned)
assert decode(encoded) == " ".join(pre_tokenize(corpus))
