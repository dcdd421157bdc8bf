"""The reference solutions against implementations no one here wrote.

- subword-nmt's ``learn_bpe`` (Sennrich et al.'s own code) is a recount
  trainer over word frequencies, like Part 3, that breaks ties towards the
  largest pair and glues the end-of-word marker to the last character (its
  version 0.2). Given those two conventions through a small adapter, the kit's
  references make the very same merges.
- tiktoken's educational trainer (``tiktoken._educational.bpe_train``) is
  byte-level BPE, like Part 4, whose ties go to the pair seen first, as in the
  reference. With a pattern that keeps the text whole, both learn the same
  byte sequences.
- minbpe's well-known worked example, by its published numbers.
- Hugging Face ``tokenizers``' WordPiece and Unigram *models*, given a
  vocabulary, cut a word as Part 7's references do: WordPiece piece for piece,
  Unigram to the same best sum (its ties go its own way, and it has an
  unknown piece where the kit answers None, so only the sum is compared, on
  words whose every character is a piece).

Hugging Face ``tokenizers`` is deliberately not an oracle for training: its trainer
breaks ties by token id, and with an end-of-word suffix its merges differ from
run to run; ``benchmarks/train_speed.py`` uses it for speed only.
"""

from __future__ import annotations

import io
import math
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder.kit_root import KIT_ROOT
from autograder.testing.reference import reference

word_bpe = reference("word_bpe")
byte_bpe = reference("byte_bpe")
fast_bpe = reference("fast_bpe")
relatives = reference("relatives")
CORPUS = KIT_ROOT.parent / "shared" / "corpora" / "tinyshakespeare.txt"
if not CORPUS.is_file():  # a clone outside the workspace: the notebooks' excerpt of the same text
    CORPUS = KIT_ROOT / "exercises" / "data" / "shakespeare.txt"


@pytest.fixture(scope="module")
def corpus() -> str:
    return CORPUS.read_text(encoding="utf-8")


def subword_nmt_merges(text: str, count: int) -> list[tuple[str, str]]:
    learn_bpe = pytest.importorskip("subword_nmt.learn_bpe", reason="subword-nmt is in the dev extra").learn_bpe
    out = io.StringIO()
    learn_bpe(io.StringIO(text), out, count)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("#version: 0.2")
    return [tuple(line.split(" ")) for line in lines[1:]]  # type: ignore[misc]


def subword_nmt_words(text: str) -> dict[tuple[str, ...], int]:
    """The word table as learn_bpe builds it: words split on single spaces, the marker glued to the last character."""
    words = Counter(word for line in text.splitlines() for word in line.strip("\r\n ").split(" ") if word)
    return {(*word[:-1], word[-1] + "</w>"): count for word, count in words.items()}


def naive_largest_tie(table: dict[tuple[str, ...], int], count: int) -> list[tuple[str, str]]:
    """Part 3's reference primitives in Part 5's recount oracle (the largest pair wins ties)."""
    return fast_bpe.train_by_recount(table, count, count_pairs=word_bpe.get_pair_counts, merge_pair=word_bpe.merge_pair)


@pytest.mark.unit
def test_part_3_reference_makes_subword_nmts_first_merges(corpus):
    """The naive recount (Part 3's primitives) against learn_bpe: the first 60 merges, one by one."""
    assert naive_largest_tie(subword_nmt_words(corpus), 60) == subword_nmt_merges(corpus, 60)


@pytest.mark.unit
def test_fast_reference_makes_subword_nmts_first_1000_merges(corpus):
    """Part 5's incremental trainer against learn_bpe: the first 1,000 merges on the whole corpus."""
    assert fast_bpe.train_on_symbols(subword_nmt_words(corpus), 1000) == subword_nmt_merges(corpus, 1000)


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(
    words=st.dictionaries(st.text(alphabet="aab", min_size=1, max_size=7), st.integers(1, 6), max_size=7),
    count=st.integers(0, 12),
)
@pytest.mark.unit
def test_fast_reference_equals_the_naive_recount_ties_included(words, count):
    """Part 5's trainer and Part 3's recount (largest pair on ties) agree on any table: the bridge to 1,000 merges."""
    table = {(*word, "</w>"): frequency for word, frequency in words.items()}
    assert fast_bpe.train_bpe(words, count) == naive_largest_tie(table, count)


@pytest.mark.parametrize(
    ("trainer", "pattern"),
    [("train_bpe", r"[\s\S]+"), ("train_on_pieces", byte_bpe.GPT2_SPLIT_PATTERN)],
    ids=["whole text", "GPT-2 pieces"],
)
@pytest.mark.unit
def test_part_4_reference_learns_tiktokens_educational_merges(corpus, trainer, pattern):
    """Byte-level training against tiktoken's educational trainer: the same byte sequences, in the same order."""
    educational = pytest.importorskip("tiktoken._educational", reason="tiktoken is in the dev extra")
    excerpt = corpus[:6000]
    vocab_size = 256 + 60
    ranks = educational.bpe_train(excerpt, vocab_size, pattern, visualise=None)
    theirs = [token for token, rank in sorted(ranks.items(), key=lambda item: item[1]) if rank >= 256]
    merges = getattr(byte_bpe, trainer)(excerpt, vocab_size)
    token_bytes = byte_bpe._token_bytes(merges)
    ours = [token_bytes[new_id] for new_id in sorted(merges.values())]
    assert len(ours) == 60
    assert ours == theirs


@pytest.mark.unit
def test_part_4_reference_round_trips_the_whole_corpus(corpus):
    merges = byte_bpe.train_bpe(corpus[:3000], 256 + 12)
    ids = byte_bpe.encode(corpus, merges)
    assert len(ids) < len(corpus.encode("utf-8"))
    assert byte_bpe.decode(ids, merges) == corpus


@pytest.mark.unit
def test_minbpes_worked_example():
    """karpathy/minbpe: "aaabdaaabac" with three merges encodes to [258, 100, 258, 97, 99]."""
    merges = byte_bpe.train_bpe("aaabdaaabac", 256 + 3)
    assert byte_bpe.encode("aaabdaaabac", merges) == [258, 100, 258, 97, 99]


@pytest.mark.unit
def test_corpus_is_the_published_one():
    text = CORPUS.read_text(encoding="utf-8")
    assert text.startswith("First Citizen:\nBefore we proceed any further, hear me speak.")
    assert Path(CORPUS).stat().st_size > 30_000


PIECE = st.text(alphabet="abé#", min_size=1, max_size=3)


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(
    word=st.text(alphabet="abé#", max_size=8),
    firsts=st.sets(PIECE, max_size=8),
    insides=st.sets(PIECE, max_size=8),
)
@pytest.mark.unit
def test_part_7_wordpiece_cuts_words_as_hugging_faces_wordpiece_model(word, firsts, insides):
    from tokenizers import models

    vocab = firsts | {"##" + piece for piece in insides}
    library = models.WordPiece(
        {token: index for index, token in enumerate(sorted(vocab | {"[UNK]"}))}, unk_token="[UNK]"
    )
    assert relatives.wordpiece_encode(word, vocab) == [token.value for token in library.tokenize(word)]


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(
    word=st.text(alphabet="abé", min_size=1, max_size=9),
    log_probs=st.dictionaries(
        st.text(alphabet="abé", min_size=1, max_size=3), st.floats(-8.0, -0.1, allow_nan=False), max_size=10
    ),
    letters=st.lists(st.floats(-8.0, -0.1, allow_nan=False), min_size=3, max_size=3),
)
@pytest.mark.unit
def test_part_7_unigram_finds_the_best_sum_of_hugging_faces_unigram_model(word, log_probs, letters):
    from tokenizers import models

    log_probs = {**dict(zip("abé", letters, strict=True)), **log_probs}  # every character a piece: no unknown
    library = models.Unigram([("<unk>", 0.0), *sorted(log_probs.items())], unk_id=0)
    theirs = [token.value for token in library.tokenize(word)]
    ours = relatives.unigram_segment(word, log_probs)
    assert ours is not None and "".join(ours) == word
    assert math.isclose(sum(log_probs[piece] for piece in ours), sum(log_probs[piece] for piece in theirs))
