# module: simple_tokenizers
# Exported from my notebook, cells kept in order.

# %%
import re
from collections import Counter

UNKNOWN = "[UNK]"

# %%
def char_tokenize(text: str) -> list[str]:
    tokens = []
    for ch in text:
        tokens.append(ch)
    return tokens


print(char_tokenize("hi there"))

# %%
def build_char_vocab(texts: list[str]) -> dict[str, int]:
    seen = set()
    for text in texts:
        for ch in text:
            seen.add(ch)
    vocab = {}
    for i, ch in enumerate(sorted(seen)):
        vocab[ch] = i
    return vocab


print(build_char_vocab(["ba", "ca"]))

# %%
def word_tokenize(text: str) -> list[str]:
    # I first tried re.split(r"\s+", text) but it leaves '' at the ends
    return [w for w in re.split(r"\s+", text) if w]


print(word_tokenize("the cat\tsat.\n"))

# %%
def build_word_vocab(texts: list[str]) -> dict[str, int]:
    counts = Counter()
    for text in texts:
        counts.update(word_tokenize(text))
    vocab = {word: i for i, word in enumerate(sorted(counts))}
    vocab[UNKNOWN] = len(vocab)
    return vocab


sample = ["the cat sat on the mat", "the dog sat"]
vocab = build_word_vocab(sample)
print(vocab)

# %%
def encode_words(text: str, vocab: dict[str, int]) -> list[int]:
    out = []
    for word in word_tokenize(text):
        if word in vocab:
            out.append(vocab[word])
        else:
            out.append(vocab[UNKNOWN])
    return out


print(encode_words("the cow sat", vocab))
print(f"{len(vocab)=}")
