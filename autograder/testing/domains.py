"""The documented input domains the rules draw from (``rules.Rule.domain``), as hypothesis strategies.

Each strategy draws the whole of what a docstring allows, not a friendly corner of it: capitals,
punctuation, accents, other scripts, emoji, whitespace of every kind, the empty input and the single one.
A domain whose inputs are made by another function (the merges a training gives) draws what that function
is given, and the test makes the rest with its own oracle. Hypothesis is imported only when a strategy is
built, so importing the rules costs a student's ``grade`` nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# Characters every text domain mixes in: the corners students' code trips on.
CORNERS = "aAbBzZ0_ \t\n.,!?'-#"
WIDE = "éßİ日🙂\u200d"  # beyond ASCII: two-byte, dotted capital, CJK, emoji, a zero-width joiner
SPECIALS = ("<|endoftext|>", "<|end|>", "<|e")


@dataclass(frozen=True)
class Domain:
    name: str
    description: str
    build: Callable[[], Any]  # the strategy


def _text(max_size: int = 24) -> Any:
    from hypothesis import strategies as st

    corner, wide = st.sampled_from(CORNERS), st.sampled_from(WIDE)
    anything = st.characters(exclude_categories=["Cs"])  # no lone surrogates: they cannot be UTF-8
    # A list joined, not st.text: text() folds its alphabet into one set of characters, where the few corners
    # would be lost among all of Unicode.
    return st.lists(st.one_of(corner, wide, anything), max_size=max_size).map("".join)


def _texts() -> Any:
    from hypothesis import strategies as st

    return st.lists(_text(16), max_size=4)


def _text_and_word_vocab() -> Any:
    from hypothesis import strategies as st

    @st.composite
    def draw(draw_: Any) -> dict[str, Any]:
        known = draw_(st.lists(_text(6).map(lambda word: "".join(word.split())).filter(bool), unique=True, max_size=6))
        ids = draw_(st.permutations(range(len(known) + 1)))
        vocab = {word: ids[index] for index, word in enumerate(known)}
        vocab["[UNK]"] = ids[-1]
        text = draw_(st.one_of(_text(), st.lists(st.sampled_from(known or ["x"]), max_size=5).map(" ".join)))
        return {"text": text, "vocab": vocab}

    return draw()


def _string_tokens() -> Any:
    from hypothesis import strategies as st

    return st.lists(st.text(alphabet=CORNERS[:10], min_size=1, max_size=3), max_size=10)


def _string_tokens_and_pair() -> Any:
    from hypothesis import strategies as st

    token = st.text(alphabet=CORNERS[:10], min_size=1, max_size=2)
    return st.fixed_dictionaries({"tokens": st.lists(token, max_size=10), "pair": st.tuples(token, token)})


def _training_text() -> Any:
    from hypothesis import strategies as st

    return st.fixed_dictionaries({"text": _text(40), "size": st.integers(0, 12)})


def _text_over_training_alphabet() -> Any:
    from hypothesis import strategies as st

    @st.composite
    def draw(draw_: Any) -> dict[str, Any]:
        training = draw_(_text(30))
        text = draw_(st.text(alphabet=sorted(set(training)), max_size=20)) if training else ""
        return {"training": training, "text": text, "size": draw_(st.integers(0, 10))}

    return draw()


def _word_table() -> Any:
    from hypothesis import strategies as st

    symbol = st.text(alphabet="abAé🙂.", min_size=1, max_size=2)
    word = st.lists(symbol, min_size=1, max_size=4).map(lambda symbols: (*symbols, "</w>"))
    return st.dictionaries(word, st.integers(1, 6), max_size=5)


def _word_table_and_pair() -> Any:
    from hypothesis import strategies as st

    symbol = st.text(alphabet="abAé🙂.", min_size=1, max_size=2)
    return st.fixed_dictionaries(
        {"table": _word_table(), "pair": st.tuples(symbol, st.one_of(symbol, st.just("</w>")))}
    )


def _text_and_training() -> Any:
    from hypothesis import strategies as st

    return st.fixed_dictionaries({"training": _text(40), "text": _text(24), "size": st.integers(0, 12)})


def _large(description: str) -> Any:
    from hypothesis import strategies as st

    return st.just(description)


def _byte_ids() -> Any:
    from hypothesis import strategies as st

    return st.lists(st.one_of(st.integers(0, 3), st.integers(0, 300)), max_size=12)


def _byte_ids_and_pair() -> Any:
    from hypothesis import strategies as st

    small = st.integers(0, 3)
    return st.fixed_dictionaries(
        {"ids": st.lists(small, max_size=12), "pair": st.tuples(small, small), "new_id": st.integers(256, 300)}
    )


def _text_with_specials() -> Any:
    from hypothesis import strategies as st

    pieces = st.lists(st.one_of(_text(8), st.sampled_from(SPECIALS)), max_size=5).map("".join)
    return st.fixed_dictionaries({"training": _text(40), "text": pieces, "size": st.integers(256, 270)})


def _word_counts() -> Any:
    from hypothesis import strategies as st

    word = st.text(alphabet="abcAé🙂", min_size=1, max_size=6)
    return st.fixed_dictionaries(
        {"word_freqs": st.dictionaries(word, st.integers(1, 9), max_size=6), "size": st.integers(0, 12)}
    )


def _tokenizer_files() -> Any:
    from hypothesis import strategies as st

    token = st.text(alphabet='aĠ#é🙂"\\{', min_size=1, max_size=3).filter(lambda token: " " not in token)
    return st.fixed_dictionaries({"merges": st.lists(st.tuples(token, token), max_size=6), "existing": st.booleans()})


def _no_arguments() -> Any:
    from hypothesis import strategies as st

    return st.just({})


def _training_text_with_specials() -> Any:
    from hypothesis import strategies as st

    return st.fixed_dictionaries(
        {
            "text": st.lists(st.one_of(_text(10), st.sampled_from(SPECIALS)), max_size=5).map("".join),
            "specials": st.lists(st.sampled_from(SPECIALS), unique=True, max_size=2),
            "size": st.integers(256, 280),
        }
    )


def _text_and_special_tokens() -> Any:
    from hypothesis import strategies as st

    return st.fixed_dictionaries(
        {
            "text": st.lists(st.one_of(_text(8), st.sampled_from(SPECIALS)), max_size=6).map("".join),
            # Some of the tokens the text holds, or none: one the text holds but the list lacks is plain text.
            "specials": st.lists(st.sampled_from(SPECIALS), unique=True, max_size=3),
        }
    )


# The special tokens a model knows, for encode_checked: "text|>" ends "<|endoftext|>", so a refused token can
# stand inside an allowed one; "<|e" starts two others, so two start at one place.
CHECKED_SPECIALS = (*SPECIALS, "text|>", "<|im_start|>")


def _text_specials_and_allowed() -> Any:
    from hypothesis import strategies as st

    @st.composite
    def draw(draw_: Any) -> dict[str, Any]:
        known = draw_(st.lists(st.sampled_from(CHECKED_SPECIALS), unique=True, max_size=4))
        # Some of the known ones, or none, or all: the text may hold tokens of each kind, and unknown ones.
        allowed = draw_(st.lists(st.sampled_from(known), unique=True)) if known else []
        text = draw_(st.lists(st.one_of(_text(8), st.sampled_from(CHECKED_SPECIALS)), max_size=6).map("".join))
        return {"text": text, "special_tokens": known, "allowed": allowed, "gpt4": draw_(st.booleans())}

    return draw()


# Names a chat model adds, for add_tokens: drawn beside the vocab's own tokens, so some are there already;
# eight, so that names in a set's order are rarely in the order given.
ADDED_NAMES = ("<|im_start|>", "<|im_end|>", "<|pad|>", "[MASK]", "<|user|>", "<|assistant|>", "<|system|>", "<|tool|>")


def _vocab_and_names() -> Any:
    from hypothesis import strategies as st

    @st.composite
    def draw(draw_: Any) -> dict[str, Any]:
        tokens = draw_(st.lists(_text(4).filter(bool), unique=True, max_size=6))
        size = len(tokens)
        # Ids 0 to n-1 in any order, or distinct ids with gaps: the largest need not be the last, nor len(vocab)-1.
        ids = draw_(
            st.one_of(
                st.permutations(range(size)),
                st.lists(st.integers(0, 40), min_size=size, max_size=size, unique=True),
            )
        )
        names = st.sampled_from(ADDED_NAMES) | st.sampled_from(tokens) if tokens else st.sampled_from(ADDED_NAMES)
        return {"vocab": dict(zip(tokens, ids, strict=True)), "names": draw_(st.lists(names, max_size=6))}

    return draw()


# GPT-2's characters for a few bytes: letters, the space (Ġ), é's two bytes (Ã ©), and a newline (Ċ).
PIECE_CHARACTERS = "abĠÃ©Ċ"


def _piece_and_ranks() -> Any:
    from hypothesis import strategies as st

    @st.composite
    def draw(draw_: Any) -> dict[str, Any]:
        tokens = list(PIECE_CHARACTERS)
        pairs: list[tuple[str, str]] = []
        for _ in range(draw_(st.integers(0, 8))):
            pair = (draw_(st.sampled_from(tokens)), draw_(st.sampled_from(tokens)))
            if pair not in pairs:
                pairs.append(pair)
                tokens.append(pair[0] + pair[1])
        # Distinct ranks in any order, with gaps: a rank is compared, never used as an index.
        ranks = draw_(st.lists(st.integers(0, 60), min_size=len(pairs), max_size=len(pairs), unique=True))
        listed = draw_(st.permutations(range(len(pairs))))
        piece = draw_(st.lists(st.sampled_from(PIECE_CHARACTERS), min_size=1, max_size=12).map("".join))
        return {"piece": piece, "ranks": {pairs[index]: ranks[index] for index in listed}}

    return draw()


# Bytes a ranks table is drawn over: letters, the space, a newline, é's two bytes, NUL and 255.
TABLE_BYTES = (97, 98, 32, 10, 0xC3, 0xA9, 0, 255)


def _ranks_table() -> Any:
    from hypothesis import strategies as st

    from autograder.testing.tokenizer_files import recovered_merge

    @st.composite
    def draw(draw_: Any) -> dict[bytes, int]:
        # The single bytes first, in the order drawn: as in cl100k_base, not byte order.
        singles = draw_(st.lists(st.sampled_from(TABLE_BYTES), min_size=1, max_size=6, unique=True))
        table = {bytes([byte]): rank for rank, byte in enumerate(singles)}
        for _ in range(draw_(st.integers(0, 12))):
            known = list(table)
            token = draw_(st.sampled_from(known)) + draw_(st.sampled_from(known))
            if token in table or len(token) > 8:
                continue
            table[token] = len(table)
            try:
                recovered_merge(table, token)
            except ValueError:  # its BPE over the lower ranks cannot make it: no byte-level BPE holds it
                del table[token]
        # Listed in any order: the ranks are what orders the tokens.
        listed = draw_(st.permutations(list(table)))
        return {token: table[token] for token in listed}

    return draw()


def _word() -> Any:
    from hypothesis import strategies as st

    # Words of any characters, "#" among them, as short as empty and one character.
    return st.one_of(_text(8), st.text(alphabet="ab#é🙂", max_size=7))


def _pieces_of(word: str, draw_: Any, *, most: int) -> list[str]:
    """Substrings of ``word`` (so that splits exist and compete) and a few pieces of its alphabet's own."""
    from hypothesis import strategies as st

    spans = st.tuples(st.integers(0, len(word)), st.integers(1, 4)).map(lambda span: word[span[0] : span[0] + span[1]])
    other = st.text(alphabet=word + "ab" if word else "ab", min_size=1, max_size=3)
    return [piece for piece in draw_(st.lists(st.one_of(spans, other), max_size=most)) if piece]


def _word_and_wordpieces() -> Any:
    from hypothesis import strategies as st

    @st.composite
    def draw(draw_: Any) -> dict[str, Any]:
        word = draw_(_word())
        pieces = _pieces_of(word, draw_, most=10)
        # Each piece as a first piece, a continuation ("##" + piece), or both.
        forms = draw_(st.lists(st.sampled_from(("first", "continued", "both")), min_size=len(pieces)))
        vocab: set[str] = set()
        for piece, form in zip(pieces, forms, strict=False):
            vocab.update({"first": [piece], "continued": ["##" + piece], "both": [piece, "##" + piece]}[form])
        return {"word": word, "vocab": vocab}

    return draw()


def _word_and_log_probs() -> Any:
    from hypothesis import strategies as st

    @st.composite
    def draw(draw_: Any) -> dict[str, Any]:
        word = draw_(_word())
        pieces = _pieces_of(word, draw_, most=12)
        # Multiples of 1/4 from -6 to 0: every sum is exact, so an equal sum is a true tie, and ties are many.
        values = draw_(st.lists(st.integers(-24, 0).map(lambda quarters: quarters / 4), min_size=len(pieces)))
        return {"word": word, "log_probs": dict(zip(pieces, values, strict=False))}

    return draw()


# What a corpus's text is cut at: newlines, with spaces, tabs and carriage returns beside them or not, and
# the whitespace that str.isspace() and regex's \s judge apart (the separators \x1c to \x1f), or alike
# (the next-line \x85, the no-break and the line-separator spaces).
CUT_CORNERS = "\n\n\n  \t\r\x1c\x1f\x85\xa0\u2028"


def _pieces_and_size() -> Any:
    from hypothesis import strategies as st

    character = st.one_of(st.sampled_from(CUT_CORNERS), st.sampled_from(CORNERS), st.sampled_from(WIDE))
    # Pieces as a file's lines or blocks are: any length, the empty string too, a newline anywhere in them,
    # and now and then one long enough to hold several chunks.
    piece = st.one_of(st.lists(character, max_size=10), st.lists(character, min_size=10, max_size=40)).map("".join)
    return st.fixed_dictionaries({"pieces": st.lists(piece, max_size=8), "size": st.integers(1, 16)})


def _ids_and_vocab_size() -> Any:
    from hypothesis import strategies as st

    @st.composite
    def draw(draw_: Any) -> dict[str, Any]:
        # Both widths, and their edges: 65,536 ids is the largest vocabulary 2 bytes hold.
        size = draw_(st.sampled_from((1, 256, 50257, 65535, 65536, 65537, 100277, 2**32)))
        ends = st.sampled_from(sorted({0, size - 1, min(size - 1, 255), min(size - 1, 256)}))
        ids = draw_(st.lists(st.one_of(ends, st.integers(0, size - 1)), max_size=12))
        return {"ids": ids, "vocab_size": size}

    return draw()


DOMAINS: tuple[Domain, ...] = (
    Domain("any_text", "any str: capitals, punctuation, accents, CJK, emoji, every whitespace, empty", _text),
    Domain("any_texts", "a list of any texts, the empty list and empty texts included", _texts),
    Domain(
        "text_and_word_vocab",
        "any text, and a vocabulary of words as written (capitals, punctuation) with [UNK] at any id",
        _text_and_word_vocab,
    ),
    Domain(
        "string_tokens", "a list of string tokens, single characters and longer ones, empty and single", _string_tokens
    ),
    Domain("string_tokens_and_pair", "a list of string tokens and any pair of tokens", _string_tokens_and_pair),
    Domain("training_text", "any text to train on, and any number of merges or vocabulary room", _training_text),
    Domain(
        "text_over_training_alphabet",
        "a training text, the merges and vocabulary it gives, and any text over its alphabet",
        _text_over_training_alphabet,
    ),
    Domain("word_table", "a table of words (symbol tuples ending in </w>) to frequencies", _word_table),
    Domain("word_table_and_pair", "a table of words and any pair of symbols", _word_table_and_pair),
    Domain(
        "text_and_word_merges",
        "any text, and the merges train_bpe makes on any training text",
        _text_and_training,
    ),
    Domain("large_word_merges", "800 words and 2,000 merges trained on a generated corpus", lambda: _large("large")),
    Domain("byte_ids", "a list of ids, bytes and merged ids, empty and single", _byte_ids),
    Domain("byte_ids_and_pair", "a list of ids, any pair of ids and a new id", _byte_ids_and_pair),
    Domain(
        "text_and_byte_merges",
        "any text, and merges as train_bpe makes them on any text, listed in any order",
        _text_and_training,
    ),
    Domain("byte_ids_and_merges", "the ids of any text under trained merges, and any ids", _text_and_training),
    Domain(
        "text_with_specials",
        "any text with special tokens (some the prefix of another) anywhere, and trained merges",
        _text_with_specials,
    ),
    Domain("word_counts", "a table of words (any characters) to counts, and any number of merges", _word_counts),
    Domain("large_word_counts", "1,000 merges on a generated table of words", lambda: _large("large")),
    Domain("no_arguments", "no arguments", _no_arguments),
    Domain(
        "tokenizer_files",
        "a vocab and merges whose tokens hold Ġ, #, quotes, backslashes and emoji, in a folder new or not",
        _tokenizer_files,
    ),
    Domain(
        "text_and_special_tokens",
        "any text with special tokens (some the prefix of another) anywhere, and any few of them, or none",
        _text_and_special_tokens,
    ),
    Domain(
        "piece_and_ranks",
        "a piece of GPT-2's byte characters and ranks for pairs of its characters and merged tokens, in any order",
        _piece_and_ranks,
    ),
    Domain(
        "text_specials_and_allowed",
        "any text with special tokens (one inside another, one the prefix of two) anywhere, any few of them the "
        "model's, any of those allowed, and either pattern",
        _text_specials_and_allowed,
    ),
    Domain(
        "vocab_and_names",
        "a vocab of any tokens with ids 0 to n-1 or with gaps, in any order, empty too, and names to add, some "
        "in it already, some repeated",
        _vocab_and_names,
    ),
    Domain(
        "text_and_rank_merges",
        "any text with special tokens, a small merge table and its vocab, and GPT-2's own files",
        _text_with_specials,
    ),
    Domain(
        "ranks_table",
        "a byte-level BPE as token bytes to rank: single bytes first in any order, then merged tokens, listed "
        "in any order",
        _ranks_table,
    ),
    Domain(
        "pieces_and_size",
        "any few pieces of text (empty ones too) with newlines, spaces, tabs and carriage returns anywhere, and "
        "a size from 1",
        _pieces_and_size,
    ),
    Domain(
        "ids_and_vocab_size",
        "ids in range of a vocabulary of 1 to 2**32 tokens, both widths' edges (65,536 and 65,537) included",
        _ids_and_vocab_size,
    ),
    Domain(
        "training_text_with_specials",
        "any small text with special tokens, any special tokens, any vocabulary room",
        _training_text_with_specials,
    ),
    Domain("large_training_text", "about 200 KB of text to a vocabulary of 1,024", lambda: _large("large")),
    Domain(
        "word_and_wordpieces",
        "a word of any characters, empty and single included, and pieces of it and others, with and without ##",
        _word_and_wordpieces,
    ),
    Domain(
        "word_and_log_probs",
        "a word of any characters, empty and single included, and pieces of it and others with log-probabilities "
        "in quarters from -6 to 0 (exact sums, many ties)",
        _word_and_log_probs,
    ),
)


def domain(name: str) -> Domain:
    for each in DOMAINS:
        if each.name == name:
            return each
    raise KeyError(f"no domain {name!r}: see autograder.testing.domains.DOMAINS")


def strategy(name: str) -> Any:
    """The hypothesis strategy of the domain ``name``."""
    return domain(name).build()
