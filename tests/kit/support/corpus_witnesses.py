"""For every mistake of the bug corpus, a written input on which it differs from the reference.

A mistake counts only with a written input inside the graded domain on which it differs from the reference
(docs: the suites' decisions; issue 50). WITNESSES holds that input for each entry of ``bug_corpus.BUGS``:
the call's keyword arguments, written out, inside the domain of the rule its Record names
(``autograder.testing.rules``, ``autograder.testing.domains``). Where a domain's inputs are made by another
function (the merges a training gives), the comment above says which call made them.

The mistake's call (the reference's module with the entry's source run over it, as ``corpus_grading``
builds the hand-in) and the reference's then differ in what ``shows`` names: the answer, the type of the
exception raised (or one raises and the other returns), the values the message of the exception both
raise names (quoted as repr shows them: another token), the arguments after the call (the "unchanged"
rules), the files the call leaves in its folder (``save``), or "unfinished": the mistake never returns,
where the reference does.

A few mistakes give the reference's answers and differ only in their cost (the bonus bounds): Costs says
what is counted on a written input (the calls of one of the module's helpers, or the peak memory the call
allocates) and how many times the reference's count the mistake takes at least; one is only timed, and
Costs names the graded test that times it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Stands for a fresh folder of the test's own (one for the mistake's call, one for the reference's); a
# witness's ``files`` are written into it first, and with no ``files`` it does not exist before the call.
FOLDER = "<folder>"


@dataclass(frozen=True)
class Named:
    """A constant of the function's module, by name (GPT4_SPLIT): the kit keeps its text in one place."""

    name: str


@dataclass(frozen=True)
class Differs:
    """A call on which the mistake and the reference differ, in the way ``shows`` names."""

    arguments: dict[str, Any]
    shows: str  # "answer", "exception", "message", "arguments", "files" or "unfinished"
    files: dict[str, str | bytes] | None = None  # written into FOLDER before the call (text in UTF-8)
    before: tuple[dict[str, Any], ...] = ()  # calls made first, in the same module: a mistake that keeps state
    # The argument (a list) fed piece by piece, as the worker feeds a streamed call (chunk_text): the answer's
    # items are then compared with how many pieces had been read as each came, the list repeated without end
    # where ``endless``, and at most ``take`` items read.
    fed: str = ""
    endless: bool = False
    take: int | None = None


@dataclass(frozen=True)
class Costs:
    """A call on which the mistake gives the reference's answer and costs at least ``at_least`` times as much.

    ``counted`` is a helper of the module whose calls are counted, or PEAK_MEMORY; with TIMED it is only
    timed, by the graded test ``timed_by``."""

    arguments: dict[str, Any]
    counted: str
    at_least: float
    timed_by: str = field(default="")


PEAK_MEMORY = "peak memory"  # the most the call holds at once, as tracemalloc counts it
TIMED = "timed"

# The rule's own factor is what the mistake's count must reach: encode_by_rank at least 5 times faster
# than replaying the merges, the fast trainer 10 times faster than the recount, train_bytes within 5 times
# the yardstick's time and 4 times its memory.
WITNESSES: dict[str, Differs | Costs] = {
    "char_tokenize drops spaces": Differs({"text": " "}, shows="answer"),
    "char vocab numbered in first-seen order": Differs({"texts": ["aA"]}, shows="answer"),
    "char vocab ids start at 1": Differs({"texts": ["a"]}, shows="answer"),
    "word_tokenize splits on a single space": Differs({"text": ""}, shows="answer"),
    "word vocab without [UNK]": Differs({"texts": []}, shows="answer"),
    "word vocab puts [UNK] first": Differs({"texts": ["a"]}, shows="answer"),
    "encode_words drops unknown words": Differs({"text": "a", "vocab": {"[UNK]": 0}}, shows="answer"),
    "encode_words adds unknown words to the vocabulary": Differs(
        {"text": "x", "vocab": {"[UNK]": 0}}, shows="arguments"
    ),
    "char_tokenize strips the text first": Differs({"text": " "}, shows="answer"),
    "char vocab numbered with repeated characters": Differs({"texts": ["aa"]}, shows="answer"),
    "word_tokenize drops punctuation": Differs({"text": ":"}, shows="answer"),
    "word_tokenize splits on spaces and newlines only": Differs({"text": "\t"}, shows="answer"),
    "word vocab sorts [UNK] in with the words": Differs({"texts": ["a"]}, shows="answer"),
    "word vocab splits on a single space": Differs({"texts": [""]}, shows="answer"),
    "encode_words takes the last id for unknown words": Differs(
        {"text": "A", "vocab": {"a": 0, "aa": 2, "[UNK]": 1}}, shows="answer"
    ),
    "encode_words splits on a single space": Differs({"text": "", "vocab": {"[UNK]": 0}}, shows="answer"),
    "pair counts miss the last pair": Differs({"tokens": ["0", "0"]}, shows="answer"),
    "pair counts skip overlapping pairs": Differs({"tokens": ["0", "0", "0"]}, shows="answer"),
    "merge_pair forgets to skip past a merged pair": Differs(
        {"tokens": ["0", "0"], "pair": ("0", "0")}, shows="answer"
    ),
    "merge_pair with join and str.replace": Differs({"tokens": [], "pair": ("0", "0")}, shows="answer"),
    "merge_pair edits the list in place": Differs({"tokens": ["0", "0"], "pair": ("0", "0")}, shows="arguments"),
    "train_bpe merges the least frequent pair": Differs({"text": "Aaaa", "num_merges": 1}, shows="answer"),
    "train_bpe never stops early": Differs({"text": "aa", "num_merges": 1}, shows="answer"),
    "train_bpe returns merges then tokens": Differs({"text": "a", "num_merges": 0}, shows="answer"),
    "train_bpe counts pairs only once": Differs({"text": "aßaßa", "num_merges": 2}, shows="answer"),
    "train_bpe loops forever on short input": Differs({"text": "", "num_merges": 1}, shows="unfinished"),
    "bpe vocab sorted alphabetically": Differs({"text": "AaAa", "merges": [("A", "a")]}, shows="answer"),
    "bpe vocab numbers a repeated token twice": Differs(
        {"text": "aab", "merges": [("a", "a"), ("aa", "b"), ("a", "ab")]}, shows="answer"
    ),
    # merges and vocab: train_bpe("bbbaba", 2) and build_bpe_vocab of them
    "encode applies merges in vocabulary order": Differs(
        {"text": "bba", "merges": [("b", "b"), ("b", "a")], "vocab": {"a": 0, "b": 1, "ba": 2, "bb": 3}}, shows="answer"
    ),
    "encode returns tokens instead of ids": Differs({"text": "!", "merges": [], "vocab": {"!": 0}}, shows="answer"),
    "decode joins tokens with spaces": Differs({"ids": [0, 0], "vocab": {"a": 0}}, shows="answer"),
    "decode returns a list of tokens": Differs({"ids": [], "vocab": {}}, shows="answer"),
    "merge_pair pops the tokens off the list it is given": Differs(
        {"tokens": ["0"], "pair": ("0", "0")}, shows="arguments"
    ),
    "merge_pair returns a tuple": Differs({"tokens": [], "pair": ("0", "0")}, shows="answer"),
    "train_bpe crashes on text shorter than two characters": Differs({"text": "", "num_merges": 1}, shows="exception"),
    "bpe vocab numbered in merge order": Differs(
        {"text": "aéaéaaa", "merges": [("a", "é"), ("a", "a")]}, shows="answer"
    ),
    # merges and vocab: train_bpe("abaaba", 2) and build_bpe_vocab of them
    "encode takes the longest token of the vocabulary, greedily": Differs(
        {"text": "abab", "merges": [("a", "b"), ("ab", "a")], "vocab": {"a": 0, "b": 1, "ab": 2, "aba": 3}},
        shows="answer",
    ),
    # build_bpe_vocab("ab", []), listed in another order: the same dict
    "decode looks an id up by its place in the vocabulary": Differs(
        {"ids": [0], "vocab": {"b": 1, "a": 0}}, shows="answer"
    ),
    "pre_tokenize lowercases the text": Differs({"text": "A"}, shows="answer"),
    "pre_tokenize splits on whitespace only": Differs({"text": "a."}, shows="answer"),
    "word_frequencies glues the marker to the last character": Differs({"text": "a"}, shows="answer"),
    "word_frequencies counts each distinct word once": Differs({"text": "🙂a🙂"}, shows="answer"),
    "word pair counts ignore the frequencies": Differs({"word_freqs": {("A", "</w>"): 2}}, shows="answer"),
    "word pair counts run across words": Differs({"word_freqs": {("A", "</w>"): 1, ("a", "</w>"): 1}}, shows="answer"),
    "word merge_pair with str.replace on spaced symbols": Differs(
        {"word_freqs": {("A", "🙂A", "</w>"): 1}, "pair": ("A", "🙂")}, shows="answer"
    ),
    "word merge_pair edits the table in place": Differs(
        {"word_freqs": {("A", "A", "</w>"): 1}, "pair": ("A", "</w>")}, shows="arguments"
    ),
    "word merge_pair overwrites the count of words that become equal": Differs(
        {"word_freqs": {("a", "b", "</w>"): 1, ("ab", "</w>"): 2}, "pair": ("a", "b")}, shows="answer"
    ),
    "word train_bpe counts the pairs only once": Differs({"text": "aa aa", "num_merges": 2}, shows="answer"),
    "word train_bpe merges pairs seen once": Differs({"text": "a", "num_merges": 1}, shows="answer"),
    "word encode forgets the end-of-word marker": Differs({"text": "a", "merges": []}, shows="answer"),
    # merges: train_bpe("bbbaba", 2)
    "word encode sorts the merges": Differs({"text": "bba", "merges": [("b", "b"), ("b", "a")]}, shows="answer"),
    # merges: train_bpe("aaabab", 2)
    "encode_by_rank merges the newest pair first": Differs(
        {"text": "aab", "merges": [("a", "a"), ("a", "b")]}, shows="answer"
    ),
    "encode_by_rank stops after one merge per word": Differs(
        {"text": "aaaa", "merges": [("a", "a"), ("aa", "aa")]}, shows="answer"
    ),
    # merges: train_bpe("ab ab cd cd ef ef gh gh ij ij kl kl", 12); "ab" is merged twice, encode tries all 12
    "encode_by_rank replays every merge in order": Costs(
        {
            "text": "ab",
            "merges": [
                ("a", "b"),
                ("ab", "</w>"),
                ("c", "d"),
                ("cd", "</w>"),
                ("e", "f"),
                ("ef", "</w>"),
                ("g", "h"),
                ("gh", "</w>"),
                ("i", "j"),
                ("ij", "</w>"),
                ("k", "l"),
                ("kl", "</w>"),
            ],
        },
        counted="merge_pair",
        at_least=5,
    ),
    "word decode glues the words together": Differs({"tokens": ["a", "</w>", "🙂", "</w>"]}, shows="answer"),
    "word decode leaves a trailing space": Differs({"tokens": ["a", "</w>"]}, shows="answer"),
    # merges: train_bpe("abaaba", 2)
    "encode_by_rank merges the leftmost mergeable pair": Differs(
        {"text": "abab", "merges": [("a", "b"), ("ab", "a")]}, shows="answer"
    ),
    "word train_bpe stops at a count of two": Differs({"text": "aaa", "num_merges": 1}, shows="answer"),
    "pre_tokenize drops punctuation": Differs({"text": "."}, shows="answer"),
    "word decode puts a space between the tokens of a word": Differs({"tokens": ["a", "a", "</w>"]}, shows="answer"),
    "byte pair counts step two ids at a time": Differs({"ids": [0, 0, 0]}, shows="answer"),
    "byte merge_pair steps by one after a merge": Differs(
        {"ids": [0, 0], "pair": (0, 0), "new_id": 256}, shows="answer"
    ),
    "byte train_bpe starts from ord() of each character": Differs({"text": "éé", "vocab_size": 257}, shows="answer"),
    "byte train_bpe numbers merges from 257": Differs({"text": "aaa", "vocab_size": 257}, shows="answer"),
    "byte train_bpe accepts any vocab_size": Differs({"text": "", "vocab_size": 255}, shows="exception"),
    "byte encode applies merges in pair order": Differs(
        {"text": "aé", "merges": {(195, 169): 256, (97, 256): 257}}, shows="answer"
    ),
    "byte encode uses ord() instead of UTF-8": Differs({"text": "é", "merges": {}}, shows="answer"),
    "byte decode with errors=strict": Differs({"ids": [226, 130], "merges": {}}, shows="exception"),
    "byte decode decodes each token on its own": Differs({"ids": [195, 169], "merges": {}}, shows="answer"),
    "pieces training counts pairs across pieces": Differs({"text": "0a0a", "vocab_size": 257}, shows="answer"),
    "pieces training splits on whitespace instead of the pattern": Differs(
        {"text": "a0a0", "vocab_size": 257}, shows="answer"
    ),
    # merges: train_bpe("a a a", 257)
    "specials encoded without the pre-split": Differs(
        {"text": "a a", "merges": {(97, 32): 256}, "special_tokens": {"<|endoftext|>": 257}}, shows="answer"
    ),
    "special tokens tried in dict order, not longest first": Differs(
        {"text": "<|endoftext|>", "merges": {}, "special_tokens": {"<|e": 256, "<|endoftext|>": 257}}, shows="answer"
    ),
    "special ids decoded as if they were merges": Differs(
        {"ids": [256], "merges": {}, "special_tokens": {"<|endoftext|>": 256, "<|end|>": 257, "<|e": 258}},
        shows="answer",
    ),
    "byte train_bpe makes one merge too many": Differs({"text": "aaa", "vocab_size": 256}, shows="answer"),
    # merges: train_bpe("aaaaaaaa", 258), listed in the other order
    "byte encode applies merges in the dict's order": Differs(
        {"text": "aaaa", "merges": {(256, 256): 257, (97, 97): 256}}, shows="answer"
    ),
    # merges: train_bpe("aaa", 257)
    "special tokens: an empty dict splits between every character": Differs(
        {"text": "aa", "merges": {(97, 97): 256}, "special_tokens": {}}, shows="answer"
    ),
    "special-token text decoded one id at a time": Differs(
        {"ids": [195, 169], "merges": {}, "special_tokens": {"<|endoftext|>": 256, "<|end|>": 257, "<|e": 258}},
        shows="answer",
    ),
    "fast trainer breaks ties by first seen": Differs({"word_freqs": {"Aa": 2}, "num_merges": 1}, shows="answer"),
    "fast trainer never lowers the counts of a merged word's old pairs": Differs(
        {"word_freqs": {"A": 1, "AAAA": 1}, "num_merges": 2}, shows="answer"
    ),
    # It calls the reference's trainer and sleeps: the same answers, only slower.
    "fast trainer below the speed target, remembering its answers": Costs(
        {"word_freqs": {"ab": 2, "cd": 2}, "num_merges": 4},
        counted=TIMED,
        at_least=10,
        timed_by="tests/hidden/fast_bpe/test_train_bpe.py::test_at_least_ten_times_faster_than_the_recount",
    ),
    # 12 words of one pair each, 24 merges: the recount merges in every word each time, the reference in one.
    "fast trainer is the naive recount (right, but slow)": Costs(
        {
            "word_freqs": {
                "ab": 2,
                "cd": 2,
                "ef": 2,
                "gh": 2,
                "ij": 2,
                "kl": 2,
                "mn": 2,
                "op": 2,
                "qr": 2,
                "st": 2,
                "uv": 2,
                "wx": 2,
            },
            "num_merges": 24,
        },
        counted="_merge",
        at_least=10,
    ),
    "fast trainer's heap pops the smallest pair on a tie": Differs(
        {"word_freqs": {"AA": 2}, "num_merges": 1}, shows="answer"
    ),
    "fast trainer forgets the end-of-word marker": Differs({"word_freqs": {"A": 2}, "num_merges": 1}, shows="answer"),
    "fast trainer adds a merged word's new pairs once, not by its frequency": Differs(
        {"word_freqs": {"AA": 2}, "num_merges": 2}, shows="answer"
    ),
    "fast trainer merges pairs seen only once": Differs({"word_freqs": {"A": 1}, "num_merges": 1}, shows="answer"),
    "fast trainer merges across symbols with str.replace": Differs(
        {"word_freqs": {"Ab": 3, "Ababa": 2}, "num_merges": 5}, shows="answer"
    ),
    "fast trainer spells the words into the table it is given": Differs(
        {"word_freqs": {"A": 1}, "num_merges": 0}, shows="arguments"
    ),
    "byte table: every byte stands for itself": Differs({}, shows="answer"),
    "byte table shifts a byte to chr(256 + byte)": Differs({}, shows="answer"),
    "byte table leaves out the range ¡ to ¬": Differs({}, shows="answer"),
    "byte table ranges stop one short (range end excluded)": Differs({}, shows="answer"),
    "load keeps the #version line as a merge": Differs(
        {"folder": FOLDER},
        files={"vocab.json": '{"a": 0, "b": 1, "ab": 2}', "merges.txt": "#version: 0.2\na b\n"},
        shows="answer",
    ),
    "load drops the first line even when it is a merge": Differs(
        {"folder": FOLDER}, files={"vocab.json": '{"a": 0, "b": 1, "ab": 2}', "merges.txt": "a b\n"}, shows="answer"
    ),
    # A last line without its newline: only an empty last line is skipped.
    "load drops the last merge, as encoder.py's [1:-1]": Differs(
        {"folder": FOLDER},
        files={"vocab.json": '{"a": 0, "b": 1, "ab": 2}', "merges.txt": "#version: 0.2\na b"},
        shows="answer",
    ),
    "load gives each merge as a list": Differs(
        {"folder": FOLDER},
        files={"vocab.json": '{"a": 0, "b": 1, "ab": 2}', "merges.txt": "#version: 0.2\na b\n"},
        shows="answer",
    ),
    "save leaves out the #version line": Differs(
        {"folder": FOLDER, "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": [("a", "b")]}, shows="files"
    ),
    "save does not make the folder": Differs(
        {"folder": FOLDER + "/tokenizer", "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": [("a", "b")]}, shows="exception"
    ),
    "save joins the lines with no newline after the last": Differs(
        {"folder": FOLDER, "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": [("a", "b")]}, shows="files"
    ),
    "save writes each merge as its tuple's repr": Differs(
        {"folder": FOLDER, "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": [("a", "b")]}, shows="files"
    ),
    "encode merges the first pair it meets that is a merge": Differs(
        {"text": "abc", "vocab": {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4}, "merges": [("b", "c"), ("a", "b")]},
        shows="answer",
    ),
    # "é" is the bytes 195 169, spelled "Ã" "©"
    "encode spells characters, not bytes": Differs(
        {"text": "é", "vocab": {"Ã": 0, "©": 1}, "merges": []}, shows="answer"
    ),
    # GPT-4's split cuts numbers in threes: "123", "4"; GPT-2's keeps "1234" whole.
    "encode always splits with GPT2_SPLIT": Differs(
        {
            "text": "1234",
            "vocab": {"1": 0, "2": 1, "3": 2, "4": 3, "34": 4},
            "merges": [("3", "4")],
            "pattern": Named("GPT4_SPLIT"),
        },
        shows="answer",
    ),
    "encode tries special tokens in the order given": Differs(
        {
            "text": "<|end|>",
            "vocab": {"<|e": 0, "<|end|>": 1, "n": 2, "d": 3, "|": 4, ">": 5},
            "merges": [],
            "special_tokens": ["<|e", "<|end|>"],
        },
        shows="answer",
    ),
    "encode merges across pieces (no pre-split)": Differs(
        {"text": "a b", "vocab": {"a": 0, "Ġ": 1, "b": 2, "aĠ": 3}, "merges": [("a", "Ġ")]}, shows="answer"
    ),
    "encode splits on an empty alternation when there are no special tokens": Differs(
        {"text": "ab", "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": [("a", "b")]}, shows="answer"
    ),
    "decode decodes each token on its own": Differs({"ids": [0, 1], "vocab": {"Ã": 0, "©": 1}}, shows="answer"),
    "decode with errors=strict": Differs({"ids": [0], "vocab": {"Ã": 0}}, shows="exception"),
    "decode joins the tokens as they are written": Differs({"ids": [0], "vocab": {"Ġ": 0}}, shows="answer"),
    "decode turns only Ġ back into a space": Differs({"ids": [0, 1], "vocab": {"Ã": 0, "©": 1}}, shows="answer"),
    "train_bytes breaks a tie toward the smallest pair": Differs(
        {"text": "<|endoftext|><|endoftext|>", "vocab_size": 257, "special_tokens": []}, shows="answer"
    ),
    "train_bytes counts pairs across GPT-2's pieces": Differs(
        {"text": "<|endoftext|><|endoftext|>", "vocab_size": 257, "special_tokens": []}, shows="answer"
    ),
    "train_bytes trains on the special tokens' bytes": Differs(
        {"text": "<|endoftext|><|endoftext|>", "vocab_size": 258, "special_tokens": ["<|endoftext|>"]}, shows="answer"
    ),
    # Each merge touches one piece; the recount merges in all of them each time.
    "train_bytes recounts every pair after each merge": Costs(
        {"text": "ab ab cd cd ef ef gh gh ij ij kl kl", "vocab_size": 300, "special_tokens": []},
        counted="_merge_tokens",
        at_least=5,
    ),
    # 64 distinct pieces and as many merges: a copy of every piece after each merge.
    "train_bytes keeps every merge's pieces (memory grows with merges times pieces)": Costs(
        {
            "text": " ".join(a + b + c for a in "abcd" for b in "efgh" for c in "ijkl") * 2,
            "vocab_size": 400,
            "special_tokens": [],
        },
        counted=PEAK_MEMORY,
        at_least=4,
    ),
    "encode_words lowercases a word before looking it up": Differs(
        {"text": "A", "vocab": {"A": 0, "[UNK]": 1}}, shows="answer"
    ),
    "encode_words strips punctuation off a word before looking it up": Differs(
        {"text": ".", "vocab": {"a": 0, "aa": 1, ".": 2, "[UNK]": 3}}, shows="answer"
    ),
    "byte encode takes the longest known token at each place": Differs(
        {"text": "ßß", "merges": {(195, 159): 256, (256, 195): 257}}, shows="answer"
    ),
    # merges: train_bpe("ab ab bcbcbc", 270)
    "byte encode applies the most frequent merge first": Differs(
        {"text": "ababc", "merges": {(98, 99): 256, (97, 98): 257, (257, 32): 258, (256, 256): 259}}, shows="answer"
    ),
    "save makes its folder even when it exists": Differs(
        {"folder": FOLDER, "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": [("a", "b")]}, files={}, shows="exception"
    ),
    # The folder as the docstring's example leaves it, saved into again.
    "save appends to a merges.txt already there": Differs(
        {"folder": FOLDER, "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": [("a", "b")]},
        files={"vocab.json": '{"a": 0, "b": 1, "ab": 2}', "merges.txt": "#version: 0.2\na b\n"},
        shows="files",
    ),
    "load skips every line that starts with #": Differs(
        {"folder": FOLDER},
        files={"vocab.json": '{"#": 0, "##": 1}', "merges.txt": "#version: 0.2\n# #\n"},
        shows="answer",
    ),
    "real encode keeps each piece's ids from one vocabulary to the next": Differs(
        {"text": "ab", "vocab": {"a": 0, "b": 1, "ab": 5}, "merges": [("a", "b")]},
        before=({"text": "ab", "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": [("a", "b")]},),
        shows="answer",
    ),
    "real encode merges the last of the pairs of lowest rank": Differs(
        {"text": "aaa", "vocab": {"a": 0, "aa": 1}, "merges": [("a", "a")]}, shows="answer"
    ),
    "train_bytes leaves the special tokens out of its budget": Differs(
        {"text": "<|endoftext|><|endoftext|>", "vocab_size": 257, "special_tokens": ["<|end|>"]}, shows="answer"
    ),
    "train_bpe takes max(counts) without a key, the largest pair": Differs(
        {"text": "aaaé", "num_merges": 1}, shows="answer"
    ),
    "fast trainer's heap trusts an entry pushed before its count changed": Differs(
        {"word_freqs": {"AA": 1, "AAA": 1}, "num_merges": 2}, shows="answer"
    ),
    "encode_by_rank reads rank 0 as no rank": Differs({"text": "🙂", "merges": [("🙂", "</w>")]}, shows="answer"),
    "byte pair counts skip a pair that overlaps the one before": Differs({"ids": [0, 0, 0]}, shows="answer"),
    # merges: train_bpe("ababaaa", 2)
    "word encode merges the leftmost pair that is any merge": Differs(
        {"text": "aab", "merges": [("a", "b"), ("a", "a")]}, shows="answer"
    ),
    "fast trainer pushes only a merged word's new pairs back on the heap": Differs(
        {"word_freqs": {"🙂": 2, "A🙂": 1, "A🙂A🙂A": 2}, "num_merges": 2}, shows="answer"
    ),
    "real encode splits the special tokens off without keeping them": Differs(
        {"text": "a<|e", "vocab": {"a": 0, "<|e": 1}, "merges": [], "special_tokens": ["<|e"]}, shows="answer"
    ),
    "train_bytes breaks a tie toward the pair seen first": Differs(
        {"text": "<|endoftext|><|endoftext|>", "vocab_size": 257, "special_tokens": []}, shows="answer"
    ),
    # The KeyError: '<' of issue 50: "<|e" unescaped is "<" or "e".
    "real encode joins the special tokens into the pattern unescaped": Differs(
        {"text": "<|e", "vocab": {"<|e": 0}, "merges": [], "special_tokens": ["<|e"]}, shows="exception"
    ),
    "char vocab gives the empty texts a token of their own": Differs({"texts": []}, shows="answer"),
    "pair counts skip a pair that overlaps the last one counted": Differs({"tokens": ["0", "0", "0"]}, shows="answer"),
    "merge_pair matches the pair inside the joined text": Differs(
        {"tokens": ["ab", "a"], "pair": ("a", "ba")}, shows="answer"
    ),
    "word decode leaves a space after the last word": Differs({"tokens": ["a", "</w>"]}, shows="answer"),
    "byte decode raises on bytes that are not UTF-8": Differs({"ids": [195], "merges": {}}, shows="exception"),
    "byte train_bpe numbers the first merge 257": Differs({"text": "éé", "vocab_size": 257}, shows="answer"),
    "word merge_pair keeps the frequency of the last word it makes twice": Differs(
        {"word_freqs": {("ab", "</w>"): 2, ("a", "b", "</w>"): 1}, "pair": ("a", "b")}, shows="answer"
    ),
    "char train_bpe runs one merge past num_merges": Differs({"text": "aaa", "num_merges": 0}, shows="answer"),
    "char_tokenize gives one empty token for the empty text": Differs({"text": ""}, shows="answer"),
    "char vocab sorts whitespace after the other characters": Differs({"texts": ["a "]}, shows="answer"),
    "char vocab sorts the list of texts it is given": Differs({"texts": ["a", ""]}, shows="arguments"),
    "word_tokenize keeps the empty words at either end": Differs({"text": ""}, shows="answer"),
    "word vocab is empty for texts without words": Differs({"texts": []}, shows="answer"),
    "encode pops the merges off the list it is given": Differs(
        {"text": "", "merges": [("a", "a")], "vocab": {"a": 0, "aa": 1}}, shows="arguments"
    ),
    "word train_bpe makes one merge more than num_merges": Differs({"text": "aaa", "num_merges": 0}, shows="answer"),
    "byte merge_pair merges in the list it is given": Differs(
        {"ids": [0, 0], "pair": (0, 0), "new_id": 256}, shows="arguments"
    ),
    "special tokens encoded as their bytes": Differs(
        {"text": "<|endoftext|>", "merges": {}, "special_tokens": {"<|endoftext|>": 256, "<|end|>": 257, "<|e": 258}},
        shows="answer",
    ),
    "pieces training accepts a vocab_size below 256": Differs({"text": "aaaa", "vocab_size": 255}, shows="exception"),
    "train_bytes makes no merge where it should refuse a vocab_size too small": Differs(
        {"text": "", "vocab_size": 256, "special_tokens": ["<|endoftext|>"]}, shows="exception"
    ),
    # The mistakes that each negate one rule of the contract (source "negated-rule").
    "bpe vocab holds the merged tokens only, not the characters": Differs({"text": "ab", "merges": []}, shows="answer"),
    # merges: train_bpe("bbbaba", 2)
    "bpe vocab sorts the merges it is given": Differs(
        {"text": "bbbaba", "merges": [("b", "b"), ("b", "a")]}, shows="arguments"
    ),
    # vocab: build_bpe_vocab(" a", []); ids: encode(" a", [], vocab)
    "decode strips the whitespace at either end": Differs({"ids": [0, 1], "vocab": {" ": 0, "a": 1}}, shows="answer"),
    "decode empties the list of ids as it reads it": Differs({"ids": [0], "vocab": {"a": 0}}, shows="arguments"),
    "pair counts are None for fewer than two tokens": Differs({"tokens": ["a"]}, shows="answer"),
    "pair counts pop the tokens off the list they are given": Differs({"tokens": ["a", "b"]}, shows="arguments"),
    "merge_pair merges only the first occurrence": Differs(
        {"tokens": ["a", "b", "a", "b"], "pair": ("a", "b")}, shows="answer"
    ),
    "train_bpe returns the distinct final tokens, sorted": Differs({"text": "abab", "num_merges": 1}, shows="answer"),
    # ids: encode("e\u0301", {}), an e and a combining acute accent
    "byte decode normalises the text it decodes (NFC)": Differs({"ids": [101, 204, 129], "merges": {}}, shows="answer"),
    "byte decode empties the list of ids as it reads it": Differs({"ids": [97], "merges": {}}, shows="arguments"),
    "special-token decode moves the special tokens out of their dict": Differs(
        {"ids": [256], "merges": {}, "special_tokens": {"<|endoftext|>": 256}}, shows="arguments"
    ),
    # merges: train_bpe("abab", 257)
    "byte encode pops the merges off the dict it is given": Differs(
        {"text": "ab", "merges": {(97, 98): 256}}, shows="arguments"
    ),
    "special-token encode deletes the special tokens the text lacks": Differs(
        {"text": "a", "merges": {}, "special_tokens": {"<|endoftext|>": 256}}, shows="arguments"
    ),
    "byte pair counts pop the ids off the list they are given": Differs({"ids": [1, 2]}, shows="arguments"),
    "byte merge_pair also merges the pair's ids the other way round": Differs(
        {"ids": [2, 1], "pair": (1, 2), "new_id": 256}, shows="answer"
    ),
    # (c, c) occurs 3 times, (a, b) twice: no tie
    "byte train_bpe merges the first pair seen twice, not the most frequent": Differs(
        {"text": "ababcccc", "vocab_size": 257}, shows="answer"
    ),
    "byte train_bpe merges pairs seen once": Differs({"text": "ab", "vocab_size": 257}, shows="answer"),
    "pieces training merges pairs seen once": Differs({"text": "ab", "vocab_size": 257}, shows="answer"),
    "load turns the vocabulary around, id to token": Differs(
        {"folder": FOLDER},
        files={"vocab.json": '{"a": 0, "b": 1, "ab": 2}', "merges.txt": "#version: 0.2\na b\n"},
        shows="answer",
    ),
    "save writes the vocabulary id to token": Differs(
        {"folder": FOLDER, "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": [("a", "b")]}, shows="files"
    ),
    "word vocab splits the texts in the list it is given": Differs({"texts": ["a b"]}, shows="arguments"),
    # tokens: encode("a,", [])
    "word decode puts punctuation back against the word before it": Differs(
        {"tokens": ["a", "</w>", ",", "</w>"]}, shows="answer"
    ),
    "word decode empties the list of tokens as it reads it": Differs({"tokens": ["a", "</w>"]}, shows="arguments"),
    "word encode gives a list of tokens per word": Differs({"text": "a", "merges": []}, shows="answer"),
    # merges: train_bpe("ab ab", 1)
    "word encode pops the merges off the list it is given": Differs(
        {"text": "ab", "merges": [("a", "b")]}, shows="arguments"
    ),
    # merges: train_bpe("ab ab", 1); "c" was never seen
    "word encode makes characters no merge holds [UNK]": Differs({"text": "c", "merges": [("a", "b")]}, shows="answer"),
    # merges: train_bpe("aaa aaa", 1)
    "encode_by_rank merges a pair's occurrences from the right": Differs(
        {"text": "aaa", "merges": [("a", "a")]}, shows="answer"
    ),
    "encode_by_rank spells a word without the end-of-word marker": Differs({"text": "a", "merges": []}, shows="answer"),
    # merges: train_bpe("ab ab", 1)
    "encode_by_rank pops the merges off the list to rank them": Differs(
        {"text": "ab", "merges": [("a", "b")]}, shows="arguments"
    ),
    "word pair counts pop the words off the table": Differs({"word_freqs": {("a", "</w>"): 1}}, shows="arguments"),
    "word train_bpe collects the merges in a set": Differs({"text": "aab aab", "num_merges": 2}, shows="answer"),
    # Part 6's steps of encode and GPT-4's merges: the special tokens are the domain's, the pieces spelled with
    # its characters (a, b), the tables over its bytes.
    "split_specials cuts out only the first special token": Differs(
        {"text": "a<|end|>b<|end|>c", "special_tokens": ["<|end|>"]}, shows="answer"
    ),
    # "<|e" is the prefix of "<|end|>": tried first, it cuts "<|end|>" apart
    "split_specials tries the special tokens in the order given": Differs(
        {"text": "<|end|>", "special_tokens": ["<|e", "<|end|>"]}, shows="answer"
    ),
    "split_specials strips the text between special tokens": Differs(
        {"text": " a <|end|>", "special_tokens": ["<|end|>"]}, shows="answer"
    ),
    "split_specials keeps the empty strings regex.split gives": Differs(
        {"text": "<|end|><|end|>", "special_tokens": ["<|end|>"]}, shows="answer"
    ),
    "merge_by_rank gives the piece whole when no pair is a merge": Differs(
        {"piece": "ab", "ranks": {}}, shows="answer"
    ),
    # ranks lists ("a", "b") first, but ("b", "a") ranks lower
    "merge_by_rank merges the pair ranks lists first": Differs(
        {"piece": "aba", "ranks": {("a", "b"): 1, ("b", "a"): 0}}, shows="answer"
    ),
    # one round merges both places of ("a", "b"); merging the first alone lets ("ab", "a") take the second's a
    "merge_by_rank merges one place a round": Differs(
        {"piece": "abab", "ranks": {("ab", "a"): 0, ("a", "b"): 1}}, shows="answer"
    ),
    # the token ("a", "b") makes pairs again, with the a before it
    "merge_by_rank makes one round only": Differs(
        {"piece": "aab", "ranks": {("a", "b"): 0, ("a", "ab"): 1}}, shows="answer"
    ),
    # the single bytes listed out of byte order
    "merges_from_ranks numbers the single bytes by their byte value": Differs(
        {"mergeable_ranks": {b"b": 0, b"a": 1, b"ab": 2}}, shows="answer"
    ),
    # in aaa, the pair aa stands at two places of one rank
    "merges_from_ranks merges the last place of a tie": Differs(
        {"mergeable_ranks": {b"a": 0, b"aa": 1, b"aaa": 2}}, shows="answer"
    ),
    # the table lists aab (rank 3) before ab (rank 2)
    "merges_from_ranks lists the merges in the table's order": Differs(
        {"mergeable_ranks": {b"aab": 3, b"ab": 2, b"a": 0, b"b": 1}}, shows="answer"
    ),
    # Part 6's special tokens as production uses them: the domain's special tokens, a vocab of the characters
    # the text needs (no merge but where the pattern shows), ids any order.
    # "text|>" ends the allowed <|endoftext|>: the reference raises, the mistake gives [10]
    "encode_checked looks for refused tokens only outside the allowed ones": Differs(
        {
            "text": "<|endoftext|>",
            "vocab": {
                **{character: at for at, character in enumerate("<|endoftx>")},
                "<|endoftext|>": 10,
                "text|>": 11,
            },
            "merges": [],
            "special_tokens": ["<|endoftext|>", "text|>"],
            "allowed": ["<|endoftext|>"],
        },
        shows="exception",
    ),
    # both raise ValueError: the reference names <|end|>, which comes first in the text
    "encode_checked names the first refused token of special_tokens": Differs(
        {
            "text": "<|end|><|endoftext|>",
            "vocab": {"<|endoftext|>": 0, "<|end|>": 1},
            "merges": [],
            "special_tokens": ["<|endoftext|>", "<|end|>"],
        },
        shows="message",
    ),
    "encode_checked encodes the allowed tokens as text": Differs(
        {
            "text": "<|endoftext|>",
            "vocab": {**{character: at for at, character in enumerate("<|endoftx>")}, "<|endoftext|>": 10},
            "merges": [],
            "special_tokens": ["<|endoftext|>"],
            "allowed": ["<|endoftext|>"],
        },
        shows="answer",
    ),
    # GPT-2's pattern keeps 1234 one piece, GPT-4's cuts it after three digits
    "encode_checked splits with GPT-2's pattern whatever it is given": Differs(
        {
            "text": "1234",
            "vocab": {"1": 0, "2": 1, "3": 2, "4": 3, "12": 4, "123": 5, "1234": 6, "<|endoftext|>": 7},
            "merges": [("1", "2"), ("12", "3"), ("123", "4")],
            "special_tokens": ["<|endoftext|>"],
            "pattern": Named("GPT4_SPLIT"),
        },
        shows="answer",
    ),
    "add_tokens gives a name the vocab holds a new id": Differs({"vocab": {"a": 0}, "names": ["a"]}, shows="answer"),
    # the id 5 leaves gaps below it: len(vocab), 1, is no id after the largest
    "add_tokens numbers the new names from len(vocab)": Differs(
        {"vocab": {"a": 5}, "names": ["<|pad|>"]}, shows="answer"
    ),
    "add_tokens adds the names in sorted order": Differs(
        {"vocab": {}, "names": ["<|pad|>", "<|im_end|>"]}, shows="answer"
    ),
    "add_tokens adds the names to the vocab it is given": Differs(
        {"vocab": {"a": 0}, "names": ["<|pad|>"]}, shows="arguments"
    ),
    # Issue 51's blind sample: the vocab holds the characters of the special tokens and the tokens themselves;
    # eight names, so that a set's order is not the order given but by a chance of 1 in 40,320.
    "encode_checked refuses the allowed tokens too": Differs(
        {
            "text": "<|endoftext|>",
            "vocab": {
                **{character: at for at, character in enumerate("<|endoftx>")},
                "<|endoftext|>": 10,
                "<|end|>": 11,
            },
            "merges": [],
            "special_tokens": ["<|endoftext|>"],
            "allowed": ["<|endoftext|>"],
        },
        shows="exception",
    ),
    "encode_checked names the refused token listed first": Differs(
        {
            "text": "<|end|><|endoftext|>",
            "vocab": {
                **{character: at for at, character in enumerate("<|endoftx>")},
                "<|endoftext|>": 10,
                "<|end|>": 11,
            },
            "merges": [],
            "special_tokens": ["<|endoftext|>", "<|end|>"],
        },
        shows="message",
    ),
    "encode_checked names the shorter of two refused tokens at one place": Differs(
        {
            "text": "<|endoftext|>",
            "vocab": {
                **{character: at for at, character in enumerate("<|endoftx>")},
                "<|endoftext|>": 10,
                "<|end|>": 11,
            },
            "merges": [],
            "special_tokens": ["<|e", "<|endoftext|>"],
        },
        shows="message",
    ),
    "encode_checked puts the special tokens in its pattern unescaped": Differs(
        {
            "text": "<",
            "vocab": {
                **{character: at for at, character in enumerate("<|endoftx>")},
                "<|endoftext|>": 10,
                "<|end|>": 11,
            },
            "merges": [],
            "special_tokens": ["<|endoftext|>"],
        },
        shows="exception",
    ),
    "encode_checked looks for the refused tokens' ids in encode's": Differs(
        {
            "text": "<|endoftext|>",
            "vocab": {
                **{character: at for at, character in enumerate("<|endoftx>")},
                "<|endoftext|>": 10,
                "<|end|>": 11,
            },
            "merges": [],
            "special_tokens": ["<|endoftext|>"],
        },
        shows="exception",
    ),
    "encode_checked calls encode without the allowed tokens": Differs(
        {
            "text": "<|endoftext|>",
            "vocab": {
                **{character: at for at, character in enumerate("<|endoftx>")},
                "<|endoftext|>": 10,
                "<|end|>": 11,
            },
            "merges": [],
            "special_tokens": ["<|endoftext|>"],
            "allowed": ["<|endoftext|>"],
        },
        shows="answer",
    ),
    "encode_checked names a refused token the text lacks": Differs(
        {
            "text": "<|endoftext|>",
            "vocab": {
                **{character: at for at, character in enumerate("<|endoftx>")},
                "<|endoftext|>": 10,
                "<|end|>": 11,
            },
            "merges": [],
            "special_tokens": ["<|im_start|>", "<|endoftext|>"],
        },
        shows="message",
    ),
    "encode_checked checks the first special token only": Differs(
        {
            "text": "<|end|>",
            "vocab": {
                **{character: at for at, character in enumerate("<|endoftx>")},
                "<|endoftext|>": 10,
                "<|end|>": 11,
            },
            "merges": [],
            "special_tokens": ["<|endoftext|>", "<|end|>"],
        },
        shows="exception",
    ),
    "encode_checked takes the allowed tokens out before it searches": Differs(
        {
            "text": "<|endoftext|>",
            "vocab": {
                **{character: at for at, character in enumerate("<|endoftx>")},
                "<|endoftext|>": 10,
                "<|end|>": 11,
            },
            "merges": [],
            "special_tokens": ["<|endoftext|>", "text|>"],
            "allowed": ["<|endoftext|>"],
        },
        shows="exception",
    ),
    "encode_checked looks for refused tokens among the words": Differs(
        {
            "text": "e<|end|>",
            "vocab": {
                **{character: at for at, character in enumerate("<|endoftx>")},
                "<|endoftext|>": 10,
                "<|end|>": 11,
            },
            "merges": [],
            "special_tokens": ["<|end|>"],
        },
        shows="exception",
    ),
    "encode_checked misses a refused token that ends the text": Differs(
        {
            "text": "<|end|>",
            "vocab": {
                **{character: at for at, character in enumerate("<|endoftx>")},
                "<|endoftext|>": 10,
                "<|end|>": 11,
            },
            "merges": [],
            "special_tokens": ["<|end|>"],
        },
        shows="exception",
    ),
    "encode_checked's message names no token": Differs(
        {
            "text": "<|end|>",
            "vocab": {
                **{character: at for at, character in enumerate("<|endoftx>")},
                "<|endoftext|>": 10,
                "<|end|>": 11,
            },
            "merges": [],
            "special_tokens": ["<|end|>"],
        },
        shows="message",
    ),
    "encode_checked removes the allowed tokens from special_tokens": Differs(
        {
            "text": "e",
            "vocab": {
                **{character: at for at, character in enumerate("<|endoftx>")},
                "<|endoftext|>": 10,
                "<|end|>": 11,
            },
            "merges": [],
            "special_tokens": ["<|endoftext|>", "<|end|>"],
            "allowed": ["<|endoftext|>"],
        },
        shows="arguments",
    ),
    "encode_checked leaves out the pattern it is given": Differs(
        {
            "text": "1234",
            "vocab": {"1": 0, "2": 1, "3": 2, "4": 3, "12": 4, "123": 5, "1234": 6, "<|endoftext|>": 7},
            "merges": [("1", "2"), ("12", "3"), ("123", "4")],
            "special_tokens": ["<|endoftext|>"],
            "pattern": Named("GPT4_SPLIT"),
        },
        shows="answer",
    ),
    "encode_checked asserts where it should raise ValueError": Differs(
        {
            "text": "<|end|>",
            "vocab": {
                **{character: at for at, character in enumerate("<|endoftx>")},
                "<|endoftext|>": 10,
                "<|end|>": 11,
            },
            "merges": [],
            "special_tokens": ["<|end|>"],
        },
        shows="exception",
    ),
    "add_tokens counts the ids on from the vocab's size": Differs(
        {"vocab": {"a": 5}, "names": ["<|pad|>"]}, shows="answer"
    ),
    "add_tokens grows the vocab it is given and returns it": Differs(
        {"vocab": {"a": 0}, "names": ["<|pad|>"]}, shows="arguments"
    ),
    "add_tokens gives a name repeated in names a second id": Differs(
        {"vocab": {}, "names": ["<|pad|>", "<|pad|>"]}, shows="answer"
    ),
    "add_tokens takes max of an empty vocab": Differs({"vocab": {}, "names": ["<|pad|>"]}, shows="exception"),
    "add_tokens drops repeated names with a set": Differs(
        {
            "vocab": {},
            "names": [
                "<|im_start|>",
                "<|im_end|>",
                "<|pad|>",
                "[MASK]",
                "<|user|>",
                "<|assistant|>",
                "<|system|>",
                "<|tool|>",
            ],
        },
        shows="answer",
    ),
    "add_tokens gives each new name the id of its place in names": Differs(
        {"vocab": {"a": 0}, "names": ["a", "<|pad|>"]}, shows="answer"
    ),
    "add_tokens gives the first new name the largest id": Differs(
        {"vocab": {"a": 0}, "names": ["<|pad|>"]}, shows="answer"
    ),
    "add_tokens starts an empty vocab at id 1": Differs({"vocab": {}, "names": ["<|pad|>"]}, shows="answer"),
    "add_tokens gives every name of names a new id": Differs({"vocab": {"a": 0}, "names": ["a"]}, shows="answer"),
    "add_tokens returns only the names it adds": Differs({"vocab": {"a": 0}, "names": ["<|pad|>"]}, shows="answer"),
    "add_tokens lists the new names before vocab's entries": Differs(
        {"vocab": {"a": 0}, "names": ["<|pad|>"]}, shows="answer"
    ),
    "add_tokens gives every new name the same id": Differs(
        {"vocab": {}, "names": ["<|pad|>", "[MASK]"]}, shows="answer"
    ),
    "add_tokens strips the names before adding them": Differs({"vocab": {" a": 0}, "names": [" a"]}, shows="answer"),
    # Part 7's relatives: a word and pieces of it, the log-probabilities in quarters as the domain draws them.
    # "ab" whole is the longest piece at the start
    "wordpiece takes the shortest piece first": Differs({"word": "ab", "vocab": {"a", "ab", "##b"}}, shows="answer"),
    # the longest first piece, "ab", leaves "c", which no "##" piece covers: the word is unknown
    "wordpiece goes back to a shorter piece when the longest leaves a gap": Differs(
        {"word": "abc", "vocab": {"ab", "a", "##bc"}}, shows="answer"
    ),
    # the vocabulary has b only as a first piece
    "wordpiece looks pieces up without ##": Differs({"word": "ab", "vocab": {"a", "b"}}, shows="answer"),
    "wordpiece writes ## before the first piece too": Differs({"word": "a", "vocab": {"a"}}, shows="answer"),
    "wordpiece keeps the pieces found before the gap": Differs({"word": "ab", "vocab": {"a"}}, shows="answer"),
    "wordpiece gives [UNK] for the unknown character and goes on": Differs(
        {"word": "ab", "vocab": {"##b"}}, shows="answer"
    ),
    "wordpiece calls the empty word unknown": Differs({"word": "", "vocab": {"a"}}, shows="answer"),
    # the word is no piece of the vocabulary, so adding it changes it
    "wordpiece adds the pieces it finds to the vocabulary": Differs(
        {"word": "ab", "vocab": {"a", "##b"}}, shows="arguments"
    ),
    # a and b sum to -2, above ab's -5
    "unigram takes the longest known piece first": Differs(
        {"word": "ab", "log_probs": {"ab": -5.0, "a": -1.0, "b": -1.0}}, shows="answer"
    ),
    # the product of two negatives is positive: (-2) * (-2) beats ab's -1
    "unigram multiplies the log-probabilities": Differs(
        {"word": "ab", "log_probs": {"ab": -1.0, "a": -2.0, "b": -2.0}}, shows="answer"
    ),
    # ab and a b both sum to -2
    "unigram breaks a tie toward the shorter first piece": Differs(
        {"word": "ab", "log_probs": {"ab": -2.0, "a": -1.0, "b": -1.0}}, shows="answer"
    ),
    # ab c and a bc both sum to -2: the longer first piece is ab, the longer last bc
    "unigram fills the table from the start, keeping the longer last piece on a tie": Differs(
        {"word": "abc", "log_probs": {"a": -1.0, "bc": -1.0, "ab": -1.0, "c": -1.0}}, shows="answer"
    ),
    "unigram answers [] when no split exists": Differs({"word": "a", "log_probs": {"b": -1.0}}, shows="answer"),
    # the word is no piece of log_probs, so keeping its sum there changes it
    "unigram keeps the word's best sum in log_probs for next time": Differs(
        {"word": "ab", "log_probs": {"a": -1.0, "b": -1.0}}, shows="arguments"
    ),
    # Part 6's tokenizer at scale. One piece with no cut after it: the mistake yields nothing
    "chunk_text loses the text after the last cut": Differs({"pieces": ["a"], "size": 1}, shows="answer"),
    # the newline between two newlines has whitespace on both sides: the reference keeps a\n\nb whole
    "chunk_text cuts after any newline": Differs({"pieces": ["a\n\nb"], "size": 1}, shows="answer"),
    # a\n is 2 characters, so with size 2 the reference cuts after it
    "chunk_text looks for the newline from index size": Differs({"pieces": ["a\nb"], "size": 2}, shows="answer"),
    # an endless stream of a\n: the reference yields its first chunk after reading two pieces
    "chunk_text joins every piece before it cuts": Differs(
        {"pieces": ["a\n"], "size": 1}, shows="unfinished", fed="pieces", endless=True, take=1
    ),
    "write_ids packs the ids big-endian": Differs(
        {"path": FOLDER + "/train.bin", "ids": [1], "vocab_size": 256}, files={"notes.txt": ""}, shows="files"
    ),
    "write_ids takes 4 bytes an id from 65,536 tokens on": Differs(
        {"path": FOLDER + "/train.bin", "ids": [0], "vocab_size": 65536}, files={"notes.txt": ""}, shows="files"
    ),
    # the reference raises ValueError, the mistake struct.error
    "write_ids checks only that an id is below vocab_size": Differs(
        {"path": FOLDER + "/train.bin", "ids": [-1], "vocab_size": 256}, files={"notes.txt": ""}, shows="exception"
    ),
    # 00 80 is the id 32768 unsigned, -32768 signed
    "read_ids reads signed ids": Differs(
        {"path": FOLDER + "/train.bin", "vocab_size": 65536}, files={"train.bin": b"\x00\x80"}, shows="answer"
    ),
    "read_ids drops the bytes of a last part id": Differs(
        {"path": FOLDER + "/train.bin", "vocab_size": 256}, files={"train.bin": b"\x01\x00\x02"}, shows="exception"
    ),
    # the blind helper's mistakes, each on the first of a few written inputs where it differs
    "chunk_text, blind 01: any newline": Differs({"pieces": ["a\n\nb"], "size": 1}, shows="answer"),
    "chunk_text, blind 02: cut before newline": Differs({"pieces": ["a\nb"], "size": 2}, shows="answer"),
    "chunk_text, blind 03: blank line cut": Differs({"pieces": ["a\n\nb"], "size": 1}, shows="answer"),
    "chunk_text, blind 04: left neighbour only": Differs({"pieces": ["a\n\nb"], "size": 1}, shows="answer"),
    "chunk_text, blind 05: not lazy": Differs(
        {"pieces": ["a\n"], "size": 1}, shows="unfinished", fed="pieces", endless=True, take=1
    ),
    "chunk_text, blind 06: loses tail": Differs({"pieces": ["a"], "size": 1}, shows="answer"),
    "chunk_text, blind 07: yields empty tail": Differs({"pieces": [], "size": 1}, shows="answer"),
    "chunk_text, blind 08: size in pieces": Differs({"pieces": ["a\nb"], "size": 2}, shows="answer"),
    "chunk_text, blind 09: size in bytes": Differs({"pieces": ["é\nb\nc"], "size": 3}, shows="answer"),
    "chunk_text, blind 10: strictly more than size": Differs({"pieces": ["a\nb"], "size": 2}, shows="answer"),
    "chunk_text, blind 11: cuts before next char": Differs({"pieces": ["a\n", "\n", "b\n"], "size": 1}, shows="answer"),
    "chunk_text, blind 12: one cut per piece": Differs({"pieces": ["a\nb\nc"], "size": 1}, shows="answer"),
    "chunk_text, blind 13: space char only": Differs({"pieces": ["a\r\nb"], "size": 1}, shows="answer"),
    "chunk_text, blind 14: longest not shortest": Differs({"pieces": ["a\nb\nc"], "size": 1}, shows="answer"),
    "chunk_text, blind 15: regex whitespace class": Differs({"pieces": ["a\n\x1fb"], "size": 1}, shows="answer"),
    "chunk_text, blind 16: right neighbour only": Differs({"pieces": ["a\n\nb"], "size": 1}, shows="answer"),
    "chunk_text, blind 17: reads one ahead": Differs(
        {"pieces": ["ab\ncd\n"], "size": 1}, shows="answer", fed="pieces", endless=True, take=2
    ),
    "write_ids, blind 01: boundary 65535": Differs(
        {"path": "<folder>/train.bin", "ids": [0], "vocab_size": 65536}, files={"notes.txt": ""}, shows="files"
    ),
    "read_ids, blind 01: boundary 65535": Differs(
        {"path": "<folder>/train.bin", "vocab_size": 65536}, files={"train.bin": b"\x00\x80"}, shows="exception"
    ),
    "write_ids, blind 02: big endian": Differs(
        {"path": "<folder>/train.bin", "ids": [1], "vocab_size": 256}, files={"notes.txt": ""}, shows="files"
    ),
    "read_ids, blind 02: big endian": Differs(
        {"path": "<folder>/train.bin", "vocab_size": 65536}, files={"train.bin": b"\x00\x80"}, shows="answer"
    ),
    "write_ids, blind 03: signed": Differs(
        {"path": "<folder>/train.bin", "ids": [40000], "vocab_size": 50257}, files={"notes.txt": ""}, shows="files"
    ),
    "read_ids, blind 03: signed": Differs(
        {"path": "<folder>/train.bin", "vocab_size": 65536}, files={"train.bin": b"\x00\x80"}, shows="answer"
    ),
    "write_ids, blind 04: length header": Differs(
        {"path": "<folder>/train.bin", "ids": [1], "vocab_size": 256}, files={"notes.txt": ""}, shows="files"
    ),
    "read_ids, blind 04: length header": Differs(
        {"path": "<folder>/train.bin", "vocab_size": 65536}, files={"train.bin": b"\x00\x80"}, shows="exception"
    ),
    "write_ids, blind 05: no range check": Differs(
        {"path": "<folder>/train.bin", "ids": [-1], "vocab_size": 256}, files={"notes.txt": ""}, shows="exception"
    ),
    "write_ids, blind 06: range off by one": Differs(
        {"path": "<folder>/train.bin", "ids": [256], "vocab_size": 256}, files={"notes.txt": ""}, shows="files"
    ),
    "read_ids, blind 07: no length check": Differs(
        {"path": "<folder>/train.bin", "vocab_size": 256}, files={"train.bin": b"\x01\x00\x02"}, shows="exception"
    ),
    "read_ids, blind 08: checks even length only": Differs(
        {"path": "<folder>/train.bin", "vocab_size": 100277},
        files={"train.bin": b"\x01\x00\x00\x00\x02\x00"},
        shows="exception",
    ),
    "read_ids, blind 09: returns tuple": Differs(
        {"path": "<folder>/train.bin", "vocab_size": 65536}, files={"train.bin": b"\x00\x80"}, shows="answer"
    ),
    "write_ids, blind 10: width from ids": Differs(
        {"path": "<folder>/train.bin", "ids": [5], "vocab_size": 100277}, files={"notes.txt": ""}, shows="files"
    ),
    "read_ids, blind 11: width guessed from length": Differs(
        {"path": "<folder>/train.bin", "vocab_size": 100277},
        files={"train.bin": b"\x01\x00\x00\x00\x02\x00"},
        shows="exception",
    ),
    "write_ids, blind 12: append mode": Differs(
        {"path": "<folder>/train.bin", "ids": [1], "vocab_size": 256}, files={"train.bin": "x"}, shows="files"
    ),
    "write_ids, blind 13: empty ids min": Differs(
        {"path": "<folder>/train.bin", "ids": [], "vocab_size": 256}, files={"notes.txt": ""}, shows="files"
    ),
    "write_ids, blind 14: no lower bound": Differs(
        {"path": "<folder>/train.bin", "ids": [-1], "vocab_size": 256}, files={"notes.txt": ""}, shows="exception"
    ),
}
