"""GPT-4's merges recovered from its ranks: each token's BPE over the lower ranks ends with its merge."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint

# A small byte-level BPE as tiktoken stores one: single bytes first, not in byte order, then merged tokens.
TABLE = {b"t": 0, b" ": 1, b"h": 2, b"e": 3, b"th": 4, b" th": 5, b"he": 6, b" the": 7, b"ee": 8, b"eee": 9}


@pytest.mark.rules("vocab")
@pytest.mark.points(1)
def test_every_token_keeps_its_rank_as_id(submission):
    """merges_from_ranks spells each token with bytes_to_unicode and gives it its rank, single bytes too"""
    vocab, _ = submission.real_tokenizer.merges_from_ranks(TABLE)
    assert isinstance(vocab, dict), hint("return (vocab, merges): vocab a dict from token to id")
    assert vocab.get("t") == 0 and vocab.get("Ġ") == 1, hint(
        "a single byte's id is its rank in the table, not its byte value; the space is spelled Ġ"
    )
    assert vocab == {"t": 0, "Ġ": 1, "h": 2, "e": 3, "th": 4, "Ġth": 5, "he": 6, "Ġthe": 7, "ee": 8, "eee": 9}, hint(
        "every token of the table, spelled with bytes_to_unicode, with its rank as its id"
    )


@pytest.mark.rules("recovered")
@pytest.mark.points(2)
def test_each_merge_is_what_the_tokens_own_bpe_ends_with(submission):
    """merges_from_ranks: " the" is (" th", "e"), since " th" (rank 5) is made before "he" (rank 6)"""
    _, merges = submission.real_tokenizer.merges_from_ranks(TABLE)
    assert isinstance(merges, list) and len(merges) == 6, hint("one merge for each token of two bytes or more")
    assert merges[3] == ("Ġth", "e"), hint(
        '" the" is Ġ t h e: BPE over the lower ranks makes "th" (4), then "Ġth" (5); "he" (6) can no longer '
        'form, so the two tokens left are "Ġth" and "e"'
    )
    assert merges[5] == ("ee", "e"), hint(
        '"eee" is e e e: "ee" can merge at two places; merge the first, which leaves ("ee", "e")'
    )
    assert merges == [("t", "h"), ("Ġ", "th"), ("h", "e"), ("Ġth", "e"), ("e", "e"), ("ee", "e")], hint(
        "for each token of two bytes or more, BPE on its bytes with only the tokens ranked below it"
    )


@pytest.mark.rules("rank_order")
@pytest.mark.points(1)
def test_the_merges_come_in_rank_order(submission):
    """merges_from_ranks lists the merges by rank, whatever order the table lists the tokens in"""
    shuffled = dict(sorted(TABLE.items(), key=lambda item: item[0]))
    _, merges = submission.real_tokenizer.merges_from_ranks(shuffled)
    assert merges == [("t", "h"), ("Ġ", "th"), ("h", "e"), ("Ġth", "e"), ("e", "e"), ("ee", "e")], hint(
        "sort the tokens by their rank before recovering the merges"
    )


# GPT-2's characters for the bytes the property's tables hold (bytes_to_unicode's, written out).
SPELLED = {97: "a", 98: "b", 99: "c", 32: "Ġ", 100: "d", 10: "Ċ", 0xC3: "Ã", 0xA9: "©"}


@pytest.mark.rules("vocab", "recovered")
@pytest.mark.points(1)
@examples(20)
@given(order=st.permutations(list(SPELLED)))
def test_hyp_each_merge_joins_two_lower_tokens(submission, order):
    """merges_from_ranks with the single bytes in any order: each token at its rank, each merge of lower tokens"""
    ranks_table = {bytes([byte]): rank for rank, byte in enumerate(order)}
    for token in (b"ab", b" a", b" ab", b"\xc3\xa9", b"abc", b"\n\n"):
        ranks_table[token] = len(ranks_table)
    vocab, merges = submission.real_tokenizer.merges_from_ranks(ranks_table)
    spelled = {"".join(SPELLED[byte] for byte in token): rank for token, rank in ranks_table.items()}
    assert vocab == spelled, hint("every token spelled with bytes_to_unicode, its rank its id", fix="vocab")
    made = [token for token in sorted(ranks_table, key=lambda token: ranks_table[token]) if len(token) > 1]
    assert len(merges) == len(made), hint(
        "one merge for each token of two bytes or more, in rank order", fix="recovered"
    )
    for (first, second), token in zip(merges, made, strict=True):
        assert vocab.get(first + second) == ranks_table[token], hint(
            "each merge's two tokens, joined, are the token it makes", fix="recovered"
        )
        assert vocab.get(first, len(ranks_table)) < ranks_table[token] > vocab.get(second, len(ranks_table)), hint(
            "a merge joins two tokens of lower rank than the one it makes", fix="recovered"
        )
