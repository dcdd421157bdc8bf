"""Adding tokens to a trained vocabulary: a new dict, each new name the next id after the largest, in order."""

import pytest
from hypothesis import given

from autograder.testing.author_api import StudentRaised, domains, examples, gpt2, hint, reference

ref = reference("real_tokenizer")
# GPT-2's first 2,000 merges: their ids stop at 2,255 and <|endoftext|> is 50,256, so len(vocab) is no free id.
VOCAB, _ = gpt2(2000)


@pytest.mark.rules("next_id", "kept", "in_order", "unchanged")
@pytest.mark.points(1)
def test_gives_each_new_name_the_next_id_after_the_largest(submission):
    """add_tokens gives <|im_start|> and <|im_end|> the two ids after GPT-2's cut vocab's largest, 0 and 1 after none"""
    made = submission.real_tokenizer.add_tokens.call(VOCAB, ["<|im_start|>", "<|im_end|>"])
    grown = made.returned
    assert isinstance(grown, dict), hint("return a dict from token to id", fix="unchanged")
    assert all(grown.get(token) == token_id for token, token_id in VOCAB.items()), hint(
        "every entry of vocab is in the new vocabulary with its id: start from a copy of vocab", fix="kept"
    )
    added = [grown.get("<|im_start|>"), grown.get("<|im_end|>")]
    assert sorted(added, key=str) == [50257, 50258], hint(
        "the next id is one more than the largest id of vocab (max(vocab.values()) + 1), then one more for each "
        "name added: len(vocab) is an id in use where the ids have gaps",
        fix="next_id",
    )
    assert added == [50257, 50258], hint("give the new names their ids in the order given", fix="in_order")
    assert not made.mutated, hint(
        "build a new dict (dict(vocab)) and add to it: leave vocab as it was", fix="unchanged"
    )
    try:
        empty = submission.real_tokenizer.add_tokens({}, ["<|pad|>", "[MASK]"])
    except StudentRaised as refused:
        said = hint(
            f"an empty vocab raised {refused.error_type}: it has no largest id, so the first name is 0 "
            "(max(vocab.values(), default=-1) + 1)",
            fix="next_id",
        )
        raise AssertionError(said) from None
    assert isinstance(empty, dict) and sorted(empty.values()) == [0, 1], hint(
        "an empty vocab has no largest id: the first name is 0 (max(..., default=-1) + 1)", fix="next_id"
    )
    assert submission.real_tokenizer.add_tokens({"b": 9, "a": 2}, ["c"]) == {"b": 9, "a": 2, "c": 10}, hint(
        "the largest id, wherever the dict lists it: not the last entry's id", fix="next_id"
    )


@pytest.mark.rules("kept", "next_id", "in_order")
@pytest.mark.points(1)
def test_keeps_each_names_first_id(submission):
    """add_tokens keeps the ids vocab has, and gives a name repeated in names its first id only"""
    once = submission.real_tokenizer.add_tokens({"a": 0, "<|end|>": 1}, ["<|end|>", "x", "y"])
    assert isinstance(once, dict) and once.get("<|end|>") == 1 and once.get("a") == 0, hint(
        "every entry of vocab keeps its id, and a name vocab already has is not added again", fix="kept"
    )
    assert sorted([once.get("x"), once.get("y")], key=str) == [2, 3], hint(
        "a name vocab already holds takes no id: count the next id up only when a name is added", fix="next_id"
    )
    grown = submission.real_tokenizer.add_tokens({"a": 0, "<|end|>": 1}, ["<|end|>", "x", "y\t", "x"])
    assert grown == {"a": 0, "<|end|>": 1, "x": 2, "y\t": 3}, hint(
        "add the new names in the order given, each once: a name repeated keeps its first id", fix="in_order"
    )


@pytest.mark.rules("kept", "next_id", "in_order", "unchanged")
@pytest.mark.points(1)
@examples(40)
@given(inputs=domains.strategy("vocab_and_names"))
def test_hyp_same_vocabulary_as_the_reference(submission, inputs):
    """add_tokens gives the reference's vocabulary for any vocab and names, and changes neither"""
    vocab, names = inputs["vocab"], inputs["names"]
    made = submission.real_tokenizer.add_tokens.call(vocab, names)
    grown, expected = made.returned, ref.add_tokens(vocab, names)
    assert isinstance(grown, dict), hint("return a dict from token to id", fix="unchanged")
    assert not made.mutated, hint("leave vocab and names as they were: copy vocab, then add", fix="unchanged")
    assert all(grown.get(key) == value for key, value in vocab.items()), hint(
        "every entry of vocab keeps its id in the new vocabulary", fix="kept"
    )
    assert set(grown) == set(expected), hint("each name of names is in the new vocabulary, once", fix="in_order")
    first = max(vocab.values(), default=-1) + 1
    new = [token for token in expected if token not in vocab]
    assert sorted(grown[token] for token in new) == list(range(first, first + len(new))), hint(
        "the new names take the ids after the largest of vocab's, one each: max(vocab.values()) + 1 on, 0 for an "
        "empty vocab",
        fix="next_id",
    )
    assert grown == expected, hint("the new names take their ids in the order given", fix="in_order")
    assert list(grown) == list(expected), hint(
        "list vocab's entries first, then the new names in the order given: dict(vocab), then add to it",
        fix="in_order",
    )
