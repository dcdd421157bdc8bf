# A correct submission identical in behaviour to the reference for Part 1.
"""Part 1: the two extremes of tokenization, characters and whole words.

A tokenizer turns text into a list of tokens, and a vocabulary gives every
token an integer id, because models read numbers, not strings. The two
simplest choices sit at opposite ends: characters make a tiny vocabulary but
long sequences; words make short sequences but a vocabulary that never stops
growing, and any word it has not seen becomes ``[UNK]``. BPE (Part 2) sits
between them.

No function here changes the arguments it is given.
"""

from __future__ import annotations

UNKNOWN = "[UNK]"


def char_tokenize(text: str) -> list[str]:
    """Split ``text`` into its characters, spaces and newlines included.

    The empty string gives the empty list.

    >>> char_tokenize("hi there")
    ['h', 'i', ' ', 't', 'h', 'e', 'r', 'e']
    """
    ### TODO (guided): a string is already a sequence of characters; make it a list.
    ### BEGIN SOLUTION
    return list(text)
    ### END SOLUTION


def build_char_vocab(texts: list[str]) -> dict[str, int]:
    """Give every distinct character of all ``texts`` an id, 0 to n-1, in sorted order.

    Sorted means by code point (``sorted`` on strings), so ``" "`` and
    ``"\\n"`` come before letters. No texts, or only empty ones, give ``{}``.

    >>> build_char_vocab(["ba", "ca"])
    {'a': 0, 'b': 1, 'c': 2}
    """
    ### TODO (guided): collect the characters in a set, sort them, number them with enumerate.
    ### BEGIN SOLUTION
    characters = sorted({character for text in texts for character in text})
    return {character: index for index, character in enumerate(characters)}
    ### END SOLUTION


def word_tokenize(text: str) -> list[str]:
    """Split ``text`` into words: runs of any whitespace (spaces, tabs, newlines) separate them.

    Leading and trailing whitespace give no empty words; punctuation stays
    attached to its word.

    >>> word_tokenize("the cat\\tsat.\\n")
    ['the', 'cat', 'sat.']
    """
    ### TODO (guided): one string method does exactly this when you call it with no argument.
    ### BEGIN SOLUTION
    return text.split()
    ### END SOLUTION


def build_word_vocab(texts: list[str]) -> dict[str, int]:
    """Give every distinct word of all ``texts`` an id in sorted order, then ``"[UNK]"`` the next id.

    With n distinct words they get ids 0 to n-1 and ``"[UNK]"`` gets n, so
    with no words at all the vocabulary is ``{"[UNK]": 0}``.

    >>> build_word_vocab(["the cat", "the hat"])
    {'cat': 0, 'hat': 1, 'the': 2, '[UNK]': 3}
    """
    ### TODO (supported): reuse word_tokenize on every text; add "[UNK]" after the sorted words.
    ### BEGIN SOLUTION
    words = sorted({word for text in texts for word in word_tokenize(text)})
    vocab = {word: index for index, word in enumerate(words)}
    vocab[UNKNOWN] = len(words)
    return vocab
    ### END SOLUTION


def encode_words(text: str, vocab: dict[str, int]) -> list[int]:
    """The id of each word of ``text``, and ``vocab["[UNK]"]`` for a word the vocabulary lacks.

    >>> encode_words("the dog", {"dog": 0, "the": 1, "[UNK]": 2})
    [1, 0]
    >>> encode_words("the cow", {"dog": 0, "the": 1, "[UNK]": 2})
    [1, 2]
    """
    ### TODO (independent): tokenize into words, then look each one up.
    ### BEGIN SOLUTION
    unknown = vocab[UNKNOWN]
    return [vocab.get(word, unknown) for word in word_tokenize(text)]
    ### END SOLUTION
