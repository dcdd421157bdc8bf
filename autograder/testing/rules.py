"""Each graded function's contract as its rules: what the tests of both suites check, once.

A rule is one sentence of a function's contract: the output for the inputs of its documented domain, an
error it raises, what it must not change, or what it may choose freely. Each rule quotes the docstring
text it comes from (the reference's and the stub's docstring, or its module's) and names the domain its
inputs are drawn from (a strategy in ``autograder.testing.domains``). A graded test names the rules it
checks with ``@pytest.mark.rules("id", ...)``; a kit test holds every rule to a test in the hidden suite
and one in the public suite, and docs/reference/rules.md lists them (``autograder.authoring.rules_page``).

A mark names a rule of the function its file is for (``"unknown_word"`` in ``test_encode_words.py``), or
of another function of the same module as ``"function.rule"``.
"""

from __future__ import annotations

from dataclasses import dataclass

from autograder.parts import PARTS

UNCHANGED = "No function here changes the arguments it is given."


@dataclass(frozen=True)
class Rule:
    id: str
    sentence: str
    quote: str  # the docstring text the rule comes from, as written there
    domain: str  # the strategy in autograder.testing.domains its inputs are drawn from


@dataclass(frozen=True)
class Contract:
    module: str
    function: str
    rules: tuple[Rule, ...]

    def rule(self, rule_id: str) -> Rule:
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        raise KeyError(f"{self.module}.{self.function} has no rule {rule_id!r}")


def _contract(
    module: str, function: str, domain: str, *rules: tuple[str, str, str] | tuple[str, str, str, str]
) -> Contract:
    """A function's rules, each drawn from ``domain`` unless it names a domain of its own."""
    made = tuple(Rule(each[0], each[1], each[2], each[3] if len(each) == 4 else domain) for each in rules)
    return Contract(module, function, made)


def _unchanged(what: str) -> tuple[str, str, str]:
    return ("unchanged", f"It leaves {what} as they were.", UNCHANGED)


CONTRACTS: tuple[Contract, ...] = (
    # -- Part 1 ---------------------------------------------------------------------------------------------
    _contract(
        "simple_tokenizers",
        "char_tokenize",
        "any_text",
        (
            "every_character",
            "Every character of the text is one token, in order: spaces, newlines, accents and emoji included.",
            "Split ``text`` into its characters, spaces and newlines included.",
        ),
        ("empty", "The empty string gives the empty list.", "The empty string gives the empty list."),
    ),
    _contract(
        "simple_tokenizers",
        "build_char_vocab",
        "any_texts",
        (
            "sorted_ids",
            "Every distinct character of all the texts gets an id, 0 to n-1, in code point order.",
            "Give every distinct character of all ``texts`` an id, 0 to n-1, in sorted order.",
        ),
        (
            "whitespace_first",
            "Whitespace is a character like any other and sorts by code point, before digits and letters.",
            "Sorted means by code point (``sorted`` on strings)",
        ),
        ("empty", "No texts, or only empty ones, give {}.", "No texts, or only empty ones, give ``{}``."),
        _unchanged("the list of texts"),
    ),
    _contract(
        "simple_tokenizers",
        "word_tokenize",
        "any_text",
        (
            "any_whitespace",
            "Runs of any whitespace (spaces, tabs, newlines) separate words, as str.split() does.",
            "runs of any whitespace (spaces, tabs, newlines) separate them.",
        ),
        (
            "no_empty_words",
            "Whitespace at either end, or a text of whitespace only, gives no empty word.",
            "Leading and trailing whitespace give no empty words",
        ),
        (
            "kept_as_written",
            "Punctuation stays attached to its word and case is kept.",
            "punctuation stays attached to its word.",
        ),
    ),
    _contract(
        "simple_tokenizers",
        "build_word_vocab",
        "any_texts",
        (
            "sorted_words",
            "Every distinct word (split at any whitespace, kept as written) gets an id, 0 to n-1, in sorted order.",
            "Give every distinct word of all ``texts`` an id in sorted order",
        ),
        (
            "unknown_last",
            '"[UNK]" gets the id n after the n words, never sorted in with them.',
            'then ``"[UNK]"`` the next id.',
        ),
        (
            "no_words",
            'Texts without words give {"[UNK]": 0}.',
            'with no words at all the vocabulary is ``{"[UNK]": 0}``.',
        ),
        _unchanged("the list of texts"),
    ),
    _contract(
        "simple_tokenizers",
        "encode_words",
        "text_and_word_vocab",
        (
            "word_ids",
            "Each word of the text, split as word_tokenize splits and looked up exactly as written (case and "
            "punctuation kept), gives its id, in order.",
            "The id of each word of ``text``",
        ),
        (
            "unknown_word",
            'A word the vocabulary lacks gives vocab["[UNK]"], wherever [UNK] stands, and keeps its place.',
            'and ``vocab["[UNK]"]`` for a word the vocabulary lacks.',
        ),
        _unchanged("the vocabulary"),
    ),
    # -- Part 2 ---------------------------------------------------------------------------------------------
    _contract(
        "bpe",
        "get_pair_counts",
        "string_tokens",
        (
            "adjacent_pairs",
            "Each pair of neighbouring tokens, compared whole, is counted as often as it occurs.",
            "Count how often each adjacent pair of tokens occurs.",
        ),
        (
            "overlapping",
            'Overlapping pairs all count: ["a", "a", "a"] holds ("a", "a") twice.',
            "Overlapping pairs all count",
        ),
        (
            "short",
            "Fewer than two tokens hold no pair: the counts are empty.",
            "Fewer than two tokens hold no pair, so the result is empty.",
        ),
        _unchanged("the list of tokens"),
    ),
    _contract(
        "bpe",
        "merge_pair",
        "string_tokens_and_pair",
        (
            "every_occurrence",
            "Each occurrence of the pair becomes the one token pair[0] + pair[1]; every other token stays.",
            "A new list in which each occurrence of ``pair`` becomes the one token ``pair[0] + pair[1]``.",
        ),
        (
            "left_to_right",
            "Occurrences are taken left to right and never overlap: a a a with (a, a) gives aa a.",
            "once two tokens are merged, continue after both, so occurrences never overlap",
        ),
        (
            "whole_tokens",
            'Tokens are compared whole: ["ab", "c"] does not hold ("a", "bc").',
            "Tokens are compared whole",
        ),
        (
            "unchanged",
            "It returns a new list and leaves the one it is given as it was.",
            "The list you are given stays as it was.",
        ),
    ),
    _contract(
        "bpe",
        "train_bpe",
        "training_text",
        (
            "returns",
            "It returns the tuple (final_tokens, merges), two lists, the merges in the order made.",
            "return ``(final_tokens, merges)``.",
        ),
        (
            "most_frequent",
            "Each merge is a most frequent pair of its step, counted again after every merge; on a tie any of "
            "them is correct, and the tests accept every tie-break.",
            "When several pairs tie for most frequent, any of them is correct",
        ),
        (
            "stops",
            "Training stops early when no pair is left or the best count is below 2 (an empty or one-character "
            "text makes no merge).",
            "stop early if there is no pair or the best count is below 2",
        ),
        ("at_most", "It makes at most num_merges merges (none for 0).", "Learn up to ``num_merges`` merges"),
        ("tokens_join", "The final tokens join back to the text.", "Joining the final tokens gives back ``text``."),
    ),
    _contract(
        "bpe",
        "build_bpe_vocab",
        "training_text",
        (
            "every_token",
            "The vocabulary holds the distinct characters of the text and a + b of every merge, nothing else.",
            "Number the distinct characters of ``text`` and the token ``a + b`` of every merge.",
        ),
        (
            "length_order",
            "Ids run 0 to n-1 in order of (len(token), token), whatever order the merges came in.",
            "Ids run 0 to n-1 in order of ``(len(token), token)``",
        ),
        ("made_twice", "A token two merges make is numbered once.", "A token made twice is numbered once."),
        _unchanged("the merges"),
    ),
    _contract(
        "bpe",
        "encode",
        "text_over_training_alphabet",
        (
            "ids",
            "The ids are the vocabulary's ids of the tokens the merges leave, in order (none for the empty text).",
            "Token ids for ``text``: its characters, every merge applied in learned order, then looked up.",
        ),
        (
            "learned_order",
            "merges[0] is applied everywhere first, then merges[1], and so on, each with merge_pair.",
            "apply ``merges[0]`` everywhere first, then ``merges[1]``, and so on",
        ),
        _unchanged("the merges and the vocabulary"),
    ),
    _contract(
        "bpe",
        "decode",
        "text_over_training_alphabet",
        (
            "joined",
            "Each id's token (found by its value) is joined to the next with nothing between them.",
            "turn the vocabulary around (id to token) and join the tokens.",
        ),
        (
            "round_trip",
            "decode(encode(text)) gives back any text over the training alphabet.",
            "``decode(encode(text, merges, vocab), vocab) == text``",
        ),
        _unchanged("the ids and the vocabulary"),
    ),
    # -- Part 3 ---------------------------------------------------------------------------------------------
    _contract(
        "word_bpe",
        "pre_tokenize",
        "any_text",
        (
            "words_and_punctuation",
            r"The text is cut into words (\w+) and runs of punctuation, in order, case kept.",
            "Cut ``text`` into words and runs of punctuation, in order, case kept.",
        ),
        (
            "whitespace_separates",
            "Whitespace only separates (it is in no piece), and punctuation never sticks to a word.",
            "whitespace only separates, and punctuation never sticks to a word.",
        ),
    ),
    _contract(
        "word_bpe",
        "word_frequencies",
        "any_text",
        (
            "spelled",
            'Each pre-token is spelled as the tuple of its characters followed by the one symbol "</w>".',
            'each spelled as its characters plus ``"</w>"``.',
        ),
        (
            "counted",
            "Each pre-token is counted as often as it occurs ({} for a blank text).",
            "How often each pre-token occurs",
        ),
    ),
    _contract(
        "word_bpe",
        "get_pair_counts",
        "word_table",
        (
            "weighted",
            "Each adjacent pair inside a word, overlapping ones included, adds the word's frequency.",
            "each weighted by the word's frequency.",
        ),
        ("inside_words", "No pair spans two words.", "Pairs never span two words."),
        _unchanged("the table"),
    ),
    _contract(
        "word_bpe",
        "merge_pair",
        "word_table_and_pair",
        (
            "every_word",
            "The pair is merged in every word, left to right without overlap, whole symbols only.",
            "A new table in which ``pair`` is merged in every word, left to right, whole symbols only.",
        ),
        (
            "frequencies_add",
            "Two words the merge makes equal have their frequencies added up.",
            "Should two words become the same after the merge, their frequencies add up.",
        ),
        (
            "unchanged",
            "It returns a new table and leaves the one it is given as it was.",
            "The table you are given stays as it was.",
        ),
    ),
    _contract(
        "word_bpe",
        "train_bpe",
        "training_text",
        ("in_order", "It returns the list of merges, in the order they were made.", "return them in order."),
        (
            "most_frequent",
            "Each merge is a most frequent pair of its step, pairs weighted by word frequency and never across "
            "words; on a tie any of them is correct.",
            "count the weighted pairs, take the most frequent one",
        ),
        (
            "stops",
            "Training stops early when no pair is left or the best count is below 2.",
            "stop early if there is no pair or the best count is below 2",
        ),
        ("at_most", "It makes at most num_merges merges (none for 0).", "Learn up to ``num_merges`` merges"),
    ),
    _contract(
        "word_bpe",
        "encode",
        "text_and_word_merges",
        (
            "learned_order",
            'Each pre-token, spelled with "</w>", has the merges applied in learned order, merges[0] first.',
            'each pre-token spelled out with ``"</w>"``, merges applied in learned order.',
        ),
        (
            "concatenated",
            "The words' token lists are concatenated, each word ending in its own marker ([] for blank text).",
            "The words' token lists are concatenated.",
        ),
        (
            "unseen",
            "A character never seen in training stays a token of its own.",
            "A character never seen in training simply stays a token of its own",
        ),
        _unchanged("the merges"),
    ),
    _contract(
        "word_bpe",
        "encode_by_rank",
        "text_and_word_merges",
        (
            "same_as_encode",
            "With merges train_bpe made, the tokens are exactly encode's.",
            "For merges that ``train_bpe`` made this gives exactly ``encode``'s tokens",
        ),
        (
            "lowest_rank",
            "In each word the adjacent pair of lowest rank (its index in merges) is merged first, wherever it "
            "stands, and the words are merged until no adjacent pair is a merge.",
            "take the adjacent pair with the lowest rank",
        ),
        (
            "every_occurrence",
            "The chosen pair is merged wherever it occurs in the word, left to right: a run of three takes its "
            "first two.",
            "merge it wherever it occurs in the word, left to right",
        ),
        (
            "speed",
            "It looks only at the pairs a word holds: at least 5 times faster than replaying the merges in order.",
            "Only the pairs a word holds are ever looked at, never the whole list of merges.",
            "large_word_merges",
        ),
        _unchanged("the merges"),
    ),
    _contract(
        "word_bpe",
        "decode",
        "text_and_word_merges",
        (
            "words",
            'Tokens are joined, each "</w>" (alone or inside a token) ending a word, words separated by one space.',
            'each ``"</w>"`` ending a word, words separated by one space.',
        ),
        (
            "no_outer_space",
            "No space comes before the first word or after the last.",
            "No space before the first word or after the last.",
        ),
        (
            "round_trip",
            'decode(encode(text, merges)) is " ".join(pre_tokenize(text)) for any text.',
            '``decode(encode(text, merges)) == " ".join(pre_tokenize(text))``.',
        ),
        _unchanged("the list of tokens"),
    ),
    # -- Part 4 ---------------------------------------------------------------------------------------------
    _contract(
        "byte_bpe",
        "get_pair_counts",
        "byte_ids",
        (
            "adjacent_pairs",
            "Each pair of neighbouring ids, overlapping ones included, is counted as often as it occurs; fewer "
            "than two ids hold none.",
            "Count how often each adjacent pair of ids occurs; overlapping pairs all count.",
        ),
        _unchanged("the ids"),
    ),
    _contract(
        "byte_bpe",
        "merge_pair",
        "byte_ids_and_pair",
        (
            "every_occurrence",
            "Each occurrence of the pair, in its order, becomes new_id; every other id stays in its place.",
            "A new list in which each occurrence of ``pair``, scanning left to right, becomes ``new_id``.",
        ),
        (
            "left_to_right",
            "A merged id is not reused: 6 6 6 with (6, 6) gives 256 6.",
            "Once two ids are merged, continue after both.",
        ),
        (
            "unchanged",
            "It returns a new list and leaves the one it is given as it was.",
            "The list you are given stays as it was.",
        ),
    ),
    _contract(
        "byte_bpe",
        "train_bpe",
        "training_text",
        (
            "utf8_bytes",
            "Pairs are counted over the UTF-8 bytes of the text, not its characters.",
            'Start from ``list(text.encode("utf-8"))``.',
        ),
        (
            "new_ids",
            "Merge i (from 0) gets the new id 256 + i, and later merges may pair new ids.",
            "Merge ``i`` (counting from 0) gets the id ``256 + i``",
        ),
        ("at_most", "It makes at most vocab_size - 256 merges.", "at most ``vocab_size - 256`` merges are made"),
        (
            "stops",
            "It stops early when no pair occurs at least twice.",
            "stop early when no pair occurs at least twice.",
        ),
        (
            "most_frequent",
            "Each merge is a most frequent pair of its step; on a tie any of them is correct.",
            "Ties: any most frequent pair is correct.",
        ),
        (
            "too_small",
            "A vocab_size below 256 raises ValueError with a message saying why.",
            "A ``vocab_size`` below 256 cannot hold the bytes themselves: raise ``ValueError`` saying so.",
        ),
    ),
    _contract(
        "byte_bpe",
        "encode",
        "text_and_byte_merges",
        (
            "utf8_bytes",
            "Encoding starts from the UTF-8 bytes of the text (é is two ids, an emoji four, the empty text none).",
            "The ids of ``text``: its UTF-8 bytes",
        ),
        (
            "by_new_id",
            "Merges are applied one after the other by increasing new id, each everywhere before the next, "
            "whatever the dict's order or the pairs' values; a merge is never applied again after a later one.",
            "merges are applied by increasing new id (the order they were learned), whatever order the dict "
            "happens to list them in.",
        ),
        _unchanged("the merges"),
    ),
    _contract(
        "byte_bpe",
        "decode",
        "byte_ids_and_merges",
        (
            "bytes_joined",
            "Each id's bytes (a merged id, its pair's bytes, whatever order the dict lists them in) are joined "
            "before decoding, so a character split over two ids comes back whole.",
            "a merged id is the bytes of its pair.",
        ),
        (
            "replaced",
            "Bytes that are not valid UTF-8 become U+FFFD instead of raising.",
            "Bytes that are not valid UTF-8 (half a character, say) become U+FFFD instead of raising.",
        ),
        (
            "round_trip",
            "decode(encode(s)) == s for any string without lone surrogates, emoji and NUL included.",
            "The text of ``ids``: each id's bytes, joined, decoded as UTF-8",
            "any_text",
        ),
        _unchanged("the ids and the merges"),
    ),
    _contract(
        "byte_bpe",
        "train_on_pieces",
        "training_text",
        (
            "inside_pieces",
            "Pairs are counted inside GPT-2's pieces only, summed over the pieces; no merge spans two pieces.",
            "A pair's count is its count summed over all pieces, and no pair ever spans two pieces.",
        ),
        (
            "as_train_bpe",
            "Otherwise as train_bpe: ids from 256, at most vocab_size - 256 merges, stop when no pair occurs "
            "twice, any most frequent pair on a tie.",
            "ids from 256, at most ``vocab_size - 256`` merges, stop when no pair occurs twice",
        ),
        ("too_small", "A vocab_size below 256 raises ValueError.", "``ValueError`` below 256"),
    ),
    _contract(
        "byte_bpe",
        "encode_with_specials",
        "text_with_specials",
        (
            "special_ids",
            "Each special token is its one id, never the ids of its bytes.",
            "each special token is its own id",
        ),
        ("longest", "Where two special tokens start at the same place, the longer one wins.", "the longer one wins."),
        (
            "pieces",
            "The text between special tokens is split into GPT-2's pieces, each encoded on its own with encode: "
            "no merge crosses a piece or touches a special token.",
            "so no merge crosses a piece or touches a special token.",
        ),
        _unchanged("the merges and the special tokens"),
    ),
    _contract(
        "byte_bpe",
        "decode_with_specials",
        "text_with_specials",
        (
            "special_text",
            "The id of a special token stands for that token's text.",
            "where the id of a special token stands for that token's text.",
        ),
        (
            "bytes_joined",
            "All the bytes are joined first, then decoded as UTF-8 with errors='replace'.",
            "all bytes joined first, then decoded as UTF-8",
        ),
        _unchanged("the ids, the merges and the special tokens"),
    ),
    # -- Part 5 ---------------------------------------------------------------------------------------------
    _contract(
        "fast_bpe",
        "train_bpe",
        "word_counts",
        (
            "spelled",
            'Each word is spelled as its characters plus "</w>", and each pair weighs its word\'s count, once for '
            "every occurrence, whole symbols only.",
            'Each word is spelled as its characters plus ``"</w>"``, as in Part 3.',
        ),
        (
            "largest",
            "Each step takes the pair of largest (count, pair): exactly the merges of the naive recount.",
            "Each step takes the pair with the largest ``(count, pair)``",
        ),
        (
            "stops",
            "It stops when the best count is below 2, and makes at most num_merges merges.",
            "stops when the best count is below 2.",
        ),
        (
            "speed",
            "Pair counts are updated as it goes: at least 10 times faster than the naive recount on 1,000 merges.",
            "updating pair counts as it goes.",
            "large_word_counts",
        ),
        _unchanged("the table"),
    ),
    # -- Part 6 ---------------------------------------------------------------------------------------------
    _contract(
        "real_tokenizer",
        "bytes_to_unicode",
        "no_arguments",
        (
            "printable",
            "The bytes of ! to ~, ¡ to ¬ and ® to ÿ stand for themselves.",
            "The bytes of ``!`` to ``~``, ``¡`` to ``¬`` and ``®`` to ``ÿ`` stand for themselves",
        ),
        (
            "shifted",
            "Every other byte, in increasing order, takes the next character from chr(256) on: the space is Ġ.",
            "Every other byte, in increasing order, gets the next character from ``chr(256)`` on",
        ),
    ),
    _contract(
        "real_tokenizer",
        "load",
        "tokenizer_files",
        (
            "vocab",
            "vocab.json is read as one JSON object from token to id, in UTF-8.",
            "``vocab.json`` is one JSON object from token to id.",
        ),
        (
            "merges",
            "merges.txt gives one (first, second) merge a line, split at its one space, in rank order, in UTF-8.",
            "one merge a line, its two tokens separated by one space",
        ),
        (
            "version_line",
            "Only a first line starting with #version is skipped (and an empty last line): every other line is a "
            "merge, one whose token starts with # too.",
            "its first line is skipped when it starts with ``#version``, and so is an empty last line.",
        ),
    ),
    _contract(
        "real_tokenizer",
        "save",
        "tokenizer_files",
        (
            "reads_back",
            "It writes vocab.json and merges.txt that load, and a production library, read back as what was saved.",
            "so that ``load`` gives back what was saved",
        ),
        (
            "format",
            'merges.txt is "#version: 0.2", then "first second" for each merge, in order, each line ending in a '
            "newline, in UTF-8.",
            "``merges.txt``: the line ``#version: 0.2``",
        ),
        (
            "folder",
            "It makes the folder and the folders above it where they are missing, uses one that exists as it "
            "is, and replaces files already there: saving twice gives the same files.",
            "Make ``folder`` first where it is missing, and the folders above it.",
        ),
    ),
    _contract(
        "real_tokenizer",
        "split_specials",
        "text_and_special_tokens",
        (
            "whole",
            "Each special token in the text is a stretch of its own, whole, wherever it stands.",
            "A special token is cut out wherever it occurs",
        ),
        (
            "longest",
            "Where two special tokens start at the same place, the longer one is cut out.",
            "where two start at the same place the longer one is cut.",
        ),
        (
            "as_it_is",
            "The text between special tokens is one stretch, unchanged: the stretches joined give the text back.",
            "Nothing is dropped or changed, so the stretches joined are ``text`` again",
        ),
        (
            "no_empty",
            "No stretch is empty: two special tokens side by side are two stretches, the empty text none.",
            "no stretch is empty",
        ),
    ),
    _contract(
        "real_tokenizer",
        "merge_by_rank",
        "piece_and_ranks",
        (
            "characters",
            "Merging starts from the piece's characters, one token each: no pair in ranks leaves them as they are.",
            "Start from the piece's characters, one token each.",
        ),
        (
            "lowest_rank",
            "The adjacent pair of lowest rank is merged first, whatever order ranks lists its pairs in and wherever "
            "the pair stands in the piece.",
            "pair of tokens whose rank (``ranks[pair]``) is lowest",
        ),
        (
            "everywhere",
            "That pair is merged at every place it occurs in one round, left to right (a a a gives aa a), before "
            "any rank is looked at again.",
            "merge it wherever it occurs, left to right",
        ),
        (
            "until_none",
            "Rounds repeat until no adjacent pair is in ranks: merged tokens pair again.",
            "Repeat until no adjacent pair is in ``ranks``.",
        ),
    ),
    _contract(
        "real_tokenizer",
        "encode",
        "text_and_rank_merges",
        (
            "specials",
            "Special tokens the vocab holds are cut out first, the longer where two start at the same place, "
            "each its one id.",
            "where two start at the same place, the longer one wins.",
        ),
        (
            "pattern",
            "The text between them is split with the pattern given (GPT-2's by default, GPT-4's when passed).",
            "Split the text between them into pieces: ``regex.findall(pattern, ...)``.",
        ),
        (
            "spelled",
            "Each piece's UTF-8 bytes are spelled with bytes_to_unicode, one character a byte, before any merge.",
            "Spell each piece's UTF-8 bytes with ``bytes_to_unicode``",
        ),
        (
            "lowest_rank",
            "The adjacent pair of lowest rank is merged first, wherever it occurs in the piece, left to right "
            "(a run of three takes its first two), until no pair is a merge.",
            "take the adjacent pair of lowest rank (its index in ``merges``)",
        ),
        (
            "ids",
            "Each token's id is vocab[token] of the vocab of this call: the ids are GPT-2's own (tiktoken's), "
            "and nothing learned from another vocabulary or merges carries over.",
            "Each token's id is ``vocab[token]``.",
        ),
    ),
    _contract(
        "real_tokenizer",
        "encode_checked",
        "text_specials_and_allowed",
        (
            "refused",
            "A special token that allowed lacks, found anywhere in the text (across pieces, inside an allowed one), "
            "raises ValueError: no ids come back.",
            "occurs anywhere in ``text`` (as a substring), raise ``ValueError``",
        ),
        (
            "names_first",
            "The error's message names the refused token that occurs first in the text, the longer where two start "
            "at the same place, and no other.",
            "its message names that token: the one that occurs first in the text, and where two start at the same "
            "place, the longer.",
        ),
        (
            "allowed",
            "Otherwise the ids are encode's with special_tokens=allowed: each allowed token its one id, nothing "
            "refused where no refused token occurs.",
            "Otherwise the ids are ``encode(text, vocab, merges, pattern=pattern, special_tokens=allowed)``.",
        ),
        (
            "pattern",
            "The pattern given is the one the text is split with (GPT-2's by default, GPT-4's when passed).",
            "pattern=pattern",
        ),
        _unchanged("the special tokens, the allowed ones, the vocab and the merges"),
    ),
    _contract(
        "real_tokenizer",
        "add_tokens",
        "vocab_and_names",
        (
            "kept",
            "Every entry of vocab is in the new vocabulary with its id, and a name vocab holds keeps its id.",
            "A name already in ``vocab``, or repeated in ``names``, keeps its first id.",
        ),
        (
            "next_id",
            "Each new name takes one more than the largest id so far (0 for an empty vocab), not len(vocab): ids "
            "may have gaps and come in any order.",
            "one more than the largest id so far (0 for an empty vocab)",
        ),
        (
            "in_order",
            "The new names, as written, take their ids in the order given, each once (a repeated name keeps its "
            "first id), and the new dict lists them after vocab's entries.",
            "each name of ``names`` not already in it, in the order given",
        ),
        (
            "unchanged",
            "It returns a new dict and leaves vocab and names as they were.",
            "(``vocab`` is not changed)",
        ),
    ),
    _contract(
        "real_tokenizer",
        "decode",
        "text_and_rank_merges",
        (
            "bytes_back",
            "The ids' tokens are joined and every character turned back into the byte it stands for.",
            "turn every character back into the byte it stands for",
        ),
        (
            "replaced",
            "The bytes of all ids are decoded together with errors='replace': a character over several ids comes "
            "back whole, and half of one is U+FFFD.",
            'decode the bytes with ``errors="replace"``',
        ),
    ),
    _contract(
        "real_tokenizer",
        "merges_from_ranks",
        "ranks_table",
        (
            "vocab",
            "vocab holds every token of the table spelled with bytes_to_unicode, its rank its id: the single bytes "
            "keep their ranks, which need not be byte order.",
            "with its rank as its id (a single byte too)",
        ),
        (
            "recovered",
            "Each token of two or more bytes has one merge: the two tokens its own BPE over the lower ranks ends "
            "with (lowest rank first, the first place on a tie), so encode with GPT4_SPLIT gives tiktoken's ids.",
            "the two tokens that the token's own BPE over the lower ranks ends with",
        ),
        (
            "rank_order",
            "The merges are listed in the order of their tokens' ranks, whatever order the table lists them in.",
            "in the order of their ranks",
        ),
    ),
    _contract(
        "real_tokenizer",
        "chunk_text",
        "pieces_and_size",
        (
            "joined",
            "The chunks joined are the pieces joined, exactly: nothing dropped, added or moved, and no chunk empty.",
            'The chunks joined are exactly ``"".join(pieces)``.',
        ),
        (
            "cut",
            "Each chunk but the last ends right after a newline with a non-space character on both sides, so that "
            "encode of the chunks gives the whole text's ids, with GPT-2's pattern and GPT-4's.",
            'Each chunk but the last ends right after a ``"\\n"`` whose neighbours on both sides are not whitespace',
        ),
        (
            "shortest",
            "Each chunk is the shortest such chunk of at least size characters; the last is what remains.",
            "is the shortest such chunk of at least ``size`` characters; the last chunk is what remains",
        ),
        (
            "lazy",
            "It reads only as many pieces as it needs before yielding a chunk: an endless stream gives chunks.",
            "It is lazy: it reads only as many pieces as it needs before yielding a chunk.",
        ),
    ),
    _contract(
        "real_tokenizer",
        "write_ids",
        "ids_and_vocab_size",
        (
            "layout",
            "Each id is an unsigned integer, little-endian, one after another with no header.",
            "Each id as an unsigned integer, little-endian,",
        ),
        (
            "width",
            "Each id takes 2 bytes when vocab_size is at most 65,536, else 4: the file is len(ids) times that long.",
            "2 bytes (``uint16``) when ``vocab_size <= 65536``, else 4 bytes (``uint32``)",
        ),
        (
            "in_range",
            "An id outside range(vocab_size), negative or too large, raises ValueError.",
            "``ValueError`` if an id is not in ``range(vocab_size)``.",
        ),
    ),
    _contract(
        "real_tokenizer",
        "read_ids",
        "ids_and_vocab_size",
        (
            "reads_back",
            "It returns the list of ids of a file write_ids wrote, read 2 or 4 bytes each, little-endian, as "
            "vocab_size says: the whole file is ids, with nothing else.",
            "unsigned integers, little-endian, 2 bytes each when ``vocab_size <= 65536``, else 4",
        ),
        (
            "whole_ids",
            "A file whose length is not a multiple of the width raises ValueError.",
            "``ValueError`` when the file's length is not a multiple of that width.",
        ),
    ),
    _contract(
        "real_tokenizer",
        "train_bytes",
        "training_text_with_specials",
        (
            "pieces",
            "Pairs are counted inside GPT-2's pieces only, each piece weighed by how often it occurs.",
            "A pair is counted inside a piece only, weighed by how often the piece occurs.",
        ),
        (
            "specials",
            "Special tokens are cut out first, never split and no pair counted across one.",
            "they are never split, and no pair is counted across one.",
        ),
        (
            "largest",
            "Each merge is the pair of largest (count, pair): on equal counts the larger pair of bytes.",
            "Merge, one at a time, the pair of largest ``(count, pair)``",
        ),
        (
            "vocab",
            "vocab gives 0..255 to the bytes, the next ids to the merges' tokens, then the special tokens, so "
            "len(vocab) <= vocab_size: the special tokens are part of the budget.",
            "so ``len(vocab) <= vocab_size``.",
        ),
        (
            "too_small",
            "A vocab_size that cannot hold the bytes and the special tokens raises ValueError.",
            "``ValueError`` when ``vocab_size`` cannot hold the bytes and the special tokens.",
        ),
        (
            "time",
            "On about 200 KB to a vocabulary of 1,024 its time stays within 5 times the yardstick's.",
            "your time must stay within 5 times the reference's",
            "large_training_text",
        ),
        (
            "memory",
            "The memory its call adds to a process of its own stays within 4 times the yardstick's.",
            "the memory your call adds to its process within 4 times",
            "large_training_text",
        ),
    ),
    # -- Part 7 ---------------------------------------------------------------------------------------------
    _contract(
        "relatives",
        "wordpiece_encode",
        "word_and_wordpieces",
        (
            "longest_first",
            "From the left, each token is the longest piece of vocab that starts where the last one ended, "
            "never a shorter one to make a later piece fit.",
            "at each place, the longest piece of ``vocab`` that starts there.",
        ),
        (
            "continuation",
            'A piece after the first is looked up, and returned, with the prefix "##"; the first piece without it.',
            'A piece after the first is looked up, and returned, with the prefix ``"##"``',
        ),
        (
            "unknown_whole",
            'When no piece starts at some place, the whole word is ["[UNK]"]: no piece found before it is kept.',
            'the whole word is ``["[UNK]"]``, not just that part.',
        ),
        ("empty", "The empty word gives [].", "The empty word gives ``[]``."),
        _unchanged("the vocabulary"),
    ),
    _contract(
        "relatives",
        "unigram_segment",
        "word_and_log_probs",
        (
            "largest_sum",
            "The pieces join back to the word, each is a key of log_probs, and their log-probabilities add up to "
            "the largest sum of any such split.",
            "whose log-probabilities add up to the largest sum.",
        ),
        (
            "ties",
            "Of splits with equal sums, the one whose first differing piece is longer wins.",
            "Of splits with equal sums, the one whose first differing piece is longer wins.",
        ),
        (
            "no_split",
            "When no split into pieces of log_probs exists the answer is None, and the empty word gives [].",
            "When no split into pieces of ``log_probs`` exists, the answer is ``None``",
        ),
        _unchanged("the log-probabilities"),
    ),
)


# Exceptions that only one rule's break raises: a graded call that raises one of them has broken that rule,
# whichever test made the call, so its hint names the rule's fix. An exception with several causes (KeyError,
# ValueError) is not here: its hint says what raised and why, and names no fix.
RAISED_BREAKS: dict[tuple[str, str, str], str] = {
    ("byte_bpe", "decode", "UnicodeDecodeError"): "replaced",
    ("real_tokenizer", "decode", "UnicodeDecodeError"): "replaced",
    ("real_tokenizer", "save", "FileExistsError"): "folder",
    ("real_tokenizer", "save", "FileNotFoundError"): "folder",
}


# The rule whose sentence states what a function returns: an answer of another type breaks it, so the type's
# hint ("the contract asks for a str there") names that rule. A function none of whose rules states the type
# of its whole answer is not here (load's two parts have a rule each): its type hint names no rule.
ANSWER_RULES: dict[tuple[str, str], str] = {
    ("bpe", "merge_pair"): "unchanged",  # "It returns a new list"
    ("bpe", "train_bpe"): "returns",  # "It returns the tuple (final_tokens, merges), two lists"
    ("bpe", "encode"): "ids",  # "The ids are the vocabulary's ids"
    ("bpe", "decode"): "joined",  # "Each id's token ... is joined to the next"
    ("word_bpe", "merge_pair"): "unchanged",  # "It returns a new table"
    ("word_bpe", "train_bpe"): "in_order",  # "It returns the list of merges"
    ("byte_bpe", "merge_pair"): "unchanged",  # "It returns a new list"
    ("real_tokenizer", "read_ids"): "reads_back",  # "It returns the list of ids"
}


def _full_id(module: str, function: str, rule: str) -> str:
    return f"{module}.{function}.{rule}" if rule else ""


def answer_rule(module: str, function: str) -> str:
    """The id ("module.function.rule") of the rule that states the type of ``function``'s answer, or ""."""
    return _full_id(module, function, ANSWER_RULES.get((module, function), ""))


def raised_rule(module: str, function: str, error_type: str) -> str:
    """The id ("module.function.rule") of the one rule whose break raises ``error_type`` in ``function``, or ""."""
    return _full_id(module, function, RAISED_BREAKS.get((module, function, error_type), ""))


def contract_of(module: str, function: str) -> Contract:
    for contract in CONTRACTS:
        if (contract.module, contract.function) == (module, function):
            return contract
    raise KeyError(f"no contract for {module}.{function}")


def resolve(module: str, function: str, mark: str) -> tuple[Contract, Rule]:
    """The rule a test of ``module.function`` names by ``mark``: its own function's, or ``other.rule``."""
    owner, _, rule_id = mark.rpartition(".")
    contract = contract_of(module, owner or function)
    return contract, contract.rule(rule_id)


def graded_functions() -> list[tuple[str, str]]:
    return [(part.module, function) for part in PARTS for function in part.functions]
