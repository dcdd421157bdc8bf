import json
import random
from pathlib import Path

import pytest
from hypothesis import given

from autograder.testing.author_api import GPT4_SPLIT, domains, examples, gpt2, hint, reference

ref = reference("real_tokenizer")
# Held-out texts and tiktoken's ids for them (made by tests/kit/support/tiktoken_ids.py): no tiktoken at grading.
STORED = json.loads(Path(__file__).with_name("tiktoken_ids.json").read_text(encoding="utf-8"))
VOCAB, MERGES = gpt2(STORED["merges"])
VOCAB |= STORED["special_ids"]  # the special tokens absent from GPT-2's vocabulary, after its last id
KNOWN_IDS = set(VOCAB.values())
PLAIN = [case for case in STORED["cases"] if not case["specials"]]
SPECIAL = [case for case in STORED["cases"] if case["specials"]]
# The texts GPT-4's split cuts otherwise than GPT-2's: on the others, a pattern left unused goes unseen.
SPLIT_APART = [case for case in PLAIN if case["cut"] != case["cut, GPT-4's split"]]


def known_mistake(got: object, text: str, vocab: dict, merges: list, special_tokens: tuple = ()) -> tuple[str, str]:
    """The hint and rule of a mistake the answer shows, where it is one the reference can reproduce: the text
    merged as one piece, or cut between every character; ("", "") where it is neither."""
    whole = r"[\s\S]+"  # no pre-split: the whole text (between special tokens) is one piece
    if got == ref.encode(text, vocab, merges, pattern=whole, special_tokens=special_tokens):
        return (
            "the ids are those of the text merged as one piece: split it with regex.findall(pattern, text)",
            "pattern",
        )
    if text and got == [i for character in text for i in ref.encode(character, vocab, merges)]:
        return (
            'every character was encoded on its own: with no special tokens the split pattern is "()", which cuts'
            " between every character; cut out special tokens only when there are some",
            "specials",
        )
    return "", ""


def drawn(cases, count, example_seed):
    """The hand-in's draw of ``count`` cases (example_seed, from the course's secret)."""
    return random.Random(example_seed).sample(cases, count)


@pytest.mark.rules("ids")
@pytest.mark.points(2)
def test_encodes_a_small_worked_example(submission):
    """encode("hi hi") with two merges gives the ids of "hi" and "Ġhi\""""
    vocab = {"h": 0, "i": 1, "Ġ": 2, "hi": 3, "Ġhi": 4}
    got = submission.real_tokenizer.encode("hi hi", vocab, [("h", "i"), ("Ġ", "hi")])
    seen, rule = known_mistake(got, "hi hi", vocab, [("h", "i"), ("Ġ", "hi")])
    if seen:
        assert got == [3, 4], hint(seen, fix=rule)
    assert got == [3, 4], hint("split into pieces, spell each piece's bytes with bytes_to_unicode, merge by rank")


@pytest.mark.rules("lowest_rank")
@pytest.mark.points(2)
def test_merges_the_pair_of_lowest_rank_first(submission):
    """encode merges the adjacent pair of lowest rank first, not the first pair it meets"""
    vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5, "abcc": 6}
    merges = [("b", "c"), ("a", "b"), ("a", "bc")]
    assert submission.real_tokenizer.encode("abc", vocab, merges) == [5], hint(
        '("b", "c") has rank 0, so "bc" is made before "ab" could be: then ("a", "bc") makes "abc"'
    )
    assert submission.real_tokenizer.encode("cabcab", vocab, merges) == [2, 5, 3], hint(
        "look up each adjacent pair's rank (its index in merges) and merge the smallest, everywhere in the piece"
    )
    run = {"q": 0, "qq": 1, "qqq": 2}
    assert submission.real_tokenizer.encode("qqqqq", run, [("q", "q"), ("qq", "q")]) == [1, 2], hint(
        "where the pair of lowest rank occurs more than once, merge its first occurrence first, then each later "
        "one, left to right: q q q q q becomes qq qq q, then qq qqq"
    )


@pytest.mark.rules("spelled")
@pytest.mark.points(2)
def test_spells_each_byte_with_gpt2s_characters(submission):
    """encode spells the bytes with bytes_to_unicode: " é" is "Ġ", "Ã" and "©" before any merge"""
    vocab = {"Ġ": 0, "Ã": 1, "©": 2, "Ã©": 3}
    assert submission.real_tokenizer.encode(" é", vocab, []) == [0, 1, 2], hint(
        'take piece.encode("utf-8") and map every byte through bytes_to_unicode(), not each character'
    )
    again = submission.real_tokenizer.encode(" é", vocab, [("Ã", "©")])
    if again == [0, 1, 2]:
        assert again == [0, 3], hint(
            "the same text with other merges gave the ids of the call before: keep nothing from one call's vocab"
            " and merges for the next",
            fix="ids",
        )
    assert again == [0, 3], hint("merge the byte characters as the merges say")


@pytest.mark.rules("ids")
@pytest.mark.points(3)
def test_gives_gpt2s_own_ids(submission, example_seed):
    """encode with GPT-2's first 2,000 merges gives tiktoken's GPT-2 ids on held-out text"""
    for case in drawn(PLAIN, 6, example_seed):
        got = submission.real_tokenizer.encode(case["text"], VOCAB, MERGES)
        seen, rule = known_mistake(got, case["text"], VOCAB, MERGES)
        if seen:
            assert got == case["cut"], hint(seen, fix=rule)
        assert got == case["cut"], hint(
            "split with regex.findall(pattern, text), encode each piece on its own, merge by lowest rank"
        )


@pytest.mark.rules("specials")
@pytest.mark.points(2)
def test_cuts_out_special_tokens_longest_first(submission, example_seed):
    """encode gives each special token its one id, the longest where two start at the same place"""
    for case in [SPECIAL[-1], *drawn(SPECIAL[:-1], 3, example_seed)]:
        got = submission.real_tokenizer.encode(case["text"], VOCAB, MERGES, special_tokens=case["specials"])
        assert got == case["cut"], hint(
            "regex.split on the escaped special tokens, sorted longest first, in a capturing group; "
            "look each one up whole in vocab"
        )


@pytest.mark.rules("pattern")
@pytest.mark.points(2)
def test_passes_the_pattern_it_is_given(submission, example_seed):
    """encode with pattern=GPT4_SPLIT splits as GPT-4 does: digits three at a time, "'S" as a contraction"""
    for case in drawn(SPLIT_APART, 4, example_seed):
        got = submission.real_tokenizer.encode(case["text"], VOCAB, MERGES, pattern=GPT4_SPLIT)
        assert got == case["cut, GPT-4's split"], hint("split with the pattern argument, not always GPT2_SPLIT")


@pytest.mark.rules("ids")
@pytest.mark.points(1)
def test_gives_gpt2s_ids_with_its_whole_files(submission):
    """encode with GPT-2's whole vocabulary and 50,000 merges gives tiktoken's ids"""
    vocab, merges = gpt2()
    case = STORED["cases"][4]
    record = submission.real_tokenizer.encode.call(case["text"], vocab, merges)
    assert record.returned == case["whole"], hint("merge by rank with the whole list: build a dict of ranks once")
    assert not record.mutated, hint("read vocab and merges; never change them")


@pytest.mark.rules("ids", "lowest_rank", "specials", "spelled")
@pytest.mark.points(1)
@examples(30)
@given(inputs=domains.strategy("text_and_rank_merges"))
def test_hyp_same_ids_as_the_reference_on_any_text(submission, inputs):
    """encode gives the reference's ids on any text, special tokens and runs of one character included"""
    text = inputs["text"]
    got = submission.real_tokenizer.encode(text, VOCAB, MERGES, special_tokens=list(STORED["special_ids"]))
    assert set(got) <= KNOWN_IDS, hint("each id is vocab[token] for a token the merges made, or a byte's own")
    assert ref.decode(got, VOCAB) == text, hint("every byte of the text must be in exactly one token, in order")
    assert got == ref.encode(text, VOCAB, MERGES, special_tokens=list(STORED["special_ids"])), hint(
        "special tokens longest first; in each piece merge the pair of lowest rank, at its first occurrence first "
        "and then each later one, until no pair is a merge"
    )
