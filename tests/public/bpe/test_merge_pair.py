"""Public examples for merge_pair. Every answer must be a list of str: the grader checks the type of each
call's answer and says which type it wanted (a tuple or a string is not a list)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint


@pytest.mark.rules("every_occurrence")
@pytest.mark.points(1)
def test_merges_every_occurrence(submission):
    """merge_pair turns each occurrence of the pair into one token"""
    merged = submission.bpe.merge_pair(list("banana"), ("a", "n"))
    if isinstance(merged, list) and len("".join(map(str, merged))) > len("banana"):
        assert merged == ["b", "an", "an", "a"], hint(
            "the tokens join to more than banana: after a merge, move on past both tokens, so that a token joins"
            " one merge at most",
            fix="left_to_right",
        )
    assert merged == ["b", "an", "an", "a"], hint(
        "scan left to right: where tokens[i], tokens[i + 1] is the pair, append pair[0] + pair[1] and move on by two;"
        " otherwise append tokens[i] and move on by one"
    )


@pytest.mark.rules("left_to_right")
@pytest.mark.points(2)
def test_a_run_merges_from_the_left_without_reusing_a_token(submission):
    """merge_pair merges o o o into oo o, and o o o o o into oo oo o"""
    assert submission.bpe.merge_pair(["o", "o", "o"], ("o", "o")) == ["oo", "o"], hint(
        "once two tokens are merged, go on after both of them: a token joins one merge at most"
    )
    assert submission.bpe.merge_pair(["o"] * 5, ("o", "o")) == ["oo", "oo", "o"], hint(
        "scan from the left and, after a merge, skip both tokens"
    )


@pytest.mark.rules("whole_tokens")
@pytest.mark.points(2)
def test_compares_whole_tokens(submission):
    """merge_pair matches whole tokens only, spaces included, never pieces of tokens"""
    assert submission.bpe.merge_pair(["xa", "b", "a", "b"], ("a", "b")) == ["xa", "b", "ab"], hint(
        'compare tokens with ==: the token "xa" is not the token "a"'
    )
    assert submission.bpe.merge_pair(["a", "bc", "ab", "c"], ("ab", "c")) == ["a", "bc", "abc"], hint(
        "compare the tokens themselves, not the text they spell"
    )
    assert submission.bpe.merge_pair(["o", "n", "e ", "n", "e"], ("n", "e")) == ["o", "n", "e ", "ne"], hint(
        'the token "e " (with its space) is not the token "e": compare tokens, do not join them and split the text'
    )


@pytest.mark.rules("every_occurrence")
@pytest.mark.points(1)
def test_a_missing_pair_or_a_short_list_changes_nothing(submission):
    """merge_pair returns the same tokens when the pair is not there, [] for [] and one token as it is"""
    assert submission.bpe.merge_pair(["c", "a", "t"], ("a", "t")) == ["c", "at"], hint("merge the pair where it occurs")
    assert submission.bpe.merge_pair(["c", "a", "t"], ("a", "c")) == ["c", "a", "t"], hint(
        "no occurrence of the pair: every token stays as it is"
    )
    assert submission.bpe.merge_pair([], ("c", "a")) == [], hint("merge_pair([], pair) must be []")
    assert submission.bpe.merge_pair(["c"], ("c", "c")) == ["c"], hint(
        'merge_pair(["c"], ("c", "c")) must be ["c"]: one token has no neighbour to merge with'
    )


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_returns_a_new_list_and_leaves_its_input_alone(submission):
    """merge_pair answers right with a new list and leaves the list it is given as it was"""
    record = submission.bpe.merge_pair.call(["x", "y", "x", "y", "z"], ("x", "y"))
    assert record.returned == ["xy", "xy", "z"], hint("merge each occurrence of the pair and go on after both tokens")
    assert not record.mutated, hint("build a new list instead of editing tokens in place")


@pytest.mark.rules("every_occurrence", "left_to_right")
@pytest.mark.points(2)
@examples(30)
@given(
    tokens=st.lists(st.sampled_from("xyz "), max_size=14), pair=st.tuples(st.sampled_from("xy "), st.sampled_from("xy"))
)
def test_hyp_merges_every_occurrence_left_to_right(submission, tokens, pair):
    """merge_pair keeps the text, merges every occurrence and takes a run of one character from the left"""
    merged = submission.bpe.merge_pair(tokens, pair)
    joined = pair[0] + pair[1]
    assert "".join(merged) == "".join(tokens), hint(
        "the tokens must join back to the same text: use each token once, in one merge at most, and drop none"
    )
    assert all(len(token) == 1 or token == joined for token in merged), hint(
        "each token is a token you were given, or pair[0] + pair[1] in place of two of them"
    )
    left_over = [i for i in range(len(merged) - 1) if (merged[i], merged[i + 1]) == pair]
    assert left_over == [], hint("merge every occurrence of the pair: none may be left side by side")
    if pair[0] == pair[1]:
        late = [i for i in range(len(merged) - 1) if (merged[i], merged[i + 1]) == (pair[0], joined)]
        assert late == [], hint("scan from the left: in a run, the first two tokens merge, then the next two")
