"""Adding tokens to a trained vocabulary: a new dict, each new name the next id after the largest, in order."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import StudentRaised, examples, hint


@pytest.mark.rules("next_id", "in_order", "unchanged")
@pytest.mark.points(1)
def test_new_names_take_the_ids_after_the_largest(submission):
    """add_tokens gives the new names the ids after vocab's largest, and leaves vocab as it was"""
    vocab = {"a": 0, "b": 1, "<|endoftext|>": 7}
    record = submission.real_tokenizer.add_tokens.call(vocab, ["<|im_start|>", "<|im_end|>"])
    assert isinstance(record.returned, dict), hint("return a dict from token to id", fix="unchanged")
    assert not record.mutated, hint("copy vocab (dict(vocab)) and add to the copy", fix="unchanged")
    added = [record.returned.get(name) for name in ("<|im_start|>", "<|im_end|>")]
    assert sorted(added, key=str) == [8, 9], hint(
        "the next id is one more than the largest so far (7 + 1), not len(vocab)", fix="next_id"
    )
    assert added == [8, 9], hint("the names take their ids in the order given", fix="in_order")
    try:
        empty = submission.real_tokenizer.add_tokens({}, ["<|pad|>"])
    except StudentRaised as error:
        raise AssertionError(
            hint(
                f"an empty vocab raised {error.error_type}: with no largest id the first name is 0 (max's default=-1)",
                fix="next_id",
            )
        ) from None
    assert empty == {"<|pad|>": 0}, hint("an empty vocab gives the first name 0", fix="next_id")


@pytest.mark.rules("kept", "next_id", "in_order")
@pytest.mark.points(1)
def test_a_name_already_there_or_repeated_keeps_its_first_id(submission):
    """add_tokens adds no name twice: one vocab holds keeps its id, one repeated in names its first"""
    once = submission.real_tokenizer.add_tokens({"a": 0, "<|end|>": 1}, ["<|end|>", "z"])
    assert isinstance(once, dict) and (once.get("a"), once.get("<|end|>")) == (0, 1), hint(
        "every entry of vocab keeps its id; a name it holds is not added again", fix="kept"
    )
    assert once.get("z") == 2, hint("<|end|> is in vocab already and takes no id: z is the next, 2", fix="next_id")
    grown = submission.real_tokenizer.add_tokens({"a": 0, "<|end|>": 1}, ["<|end|>", " x", " x", "y\n"])
    assert grown == {"a": 0, "<|end|>": 1, " x": 2, "y\n": 3}, hint(
        'the new names as written, in the order given, each once: " x" is 2, "y\\n" is 3', fix="in_order"
    )
    assert list(grown) == ["a", "<|end|>", " x", "y\n"], hint(
        "list vocab's entries first, then the new names: copy vocab, then add to the copy", fix="in_order"
    )


@pytest.mark.rules("kept", "next_id", "in_order")
@pytest.mark.points(1)
@examples(30)
@given(
    ids=st.lists(st.integers(0, 30), unique=True, max_size=5),
    names=st.lists(st.sampled_from(["t0", "t1", "<|a|>", " <|b|>", "\n\n"]), max_size=6),
)
def test_hyp_the_new_ids_follow_the_largest_in_order(submission, ids, names):
    """add_tokens on any ids: vocab's kept, each new name once, numbered on from the largest id in order"""
    vocab = {f"t{index}": token_id for index, token_id in enumerate(ids)}
    grown = submission.real_tokenizer.add_tokens(vocab, names)
    assert isinstance(grown, dict), hint("return a dict from token to id", fix="kept")
    assert all(grown.get(token) == token_id for token, token_id in vocab.items()), hint(
        "every entry of vocab keeps its id", fix="kept"
    )
    assert all(name in grown for name in names), hint("each name of names is in the new vocabulary", fix="in_order")
    new = [name for name in dict.fromkeys(names) if name not in vocab]
    first = max(ids, default=-1) + 1
    assert sorted(grown[name] for name in new) == list(range(first, first + len(new))), hint(
        "the new names take the ids from the largest id plus one, one each", fix="next_id"
    )
    assert grown == vocab | {name: first + at for at, name in enumerate(new)}, hint(
        "each new name once, in the order given", fix="in_order"
    )
