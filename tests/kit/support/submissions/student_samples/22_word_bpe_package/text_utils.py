"""Small text helpers for my word-level BPE."""
import re
import unicodedata

WORD_OR_PUNCT = re.compile(r"\w+|[^\s\w]+")


def split_words(text):
    return WORD_OR_PUNCT.findall(text)


def describe(ch):
    """Unicode name of a character, for debugging prints."""
    return unicodedata.name(ch, f"U+{ord(ch):04X}")


def merge_in(symbols, pair):
    """Merge ``pair`` inside one tuple of symbols, left to right."""
    a, b = pair
    out = []
    i = 0
    while i < len(symbols):
        if symbols[i] == a and i + 1 < len(symbols) and symbols[i + 1] == b:
            out.append(a + b)
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return tuple(out)
