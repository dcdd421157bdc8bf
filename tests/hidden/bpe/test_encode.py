import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, reference

ref = reference("bpe")


def trained(text: str, num_merges: int) -> tuple[list[tuple[str, str]], dict[str, int]]:
    _, merges = ref.train_bpe(text, num_merges)
    return merges, ref.build_bpe_vocab(text, merges)


@pytest.mark.rules("ids")
@pytest.mark.points(3)
def test_encodes_with_learned_merges(submission):
    """encode applies the merges and maps each token to its id"""
    merges, vocab = trained("aaabdaaabac", 3)
    got = submission.bpe.encode("aaabdaaabac", merges, vocab)
    assert got == [vocab["aaab"], vocab["d"], vocab["aaab"], vocab["a"], vocab["c"]], hint(
        "apply every merge with merge_pair, then look each token up in vocab"
    )


@pytest.mark.rules("learned_order")
@pytest.mark.points(3)
def test_applies_merges_in_learned_order(submission):
    """encode applies merges[0] everywhere first, then merges[1], and so on"""
    merges = [("b", "c"), ("a", "b")]
    vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4}
    got = submission.bpe.encode("abc", merges, vocab)
    assert got == [0, 4], hint("loop over merges in the order given; do not sort them or pick by vocab id")


@pytest.mark.rules("ids")
@pytest.mark.points(1)
def test_empty_text_gives_no_ids(submission):
    """encode of the empty string is [] (and of a trained word, its ids)"""
    merges, vocab = trained("abab", 2)
    assert submission.bpe.encode("ab", merges, vocab) == ref.encode("ab", merges, vocab), hint(
        "apply each merge in order, then map to ids"
    )
    assert submission.bpe.encode("", merges, vocab) == [], hint("no characters, no ids")


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_does_not_change_merges_or_vocabulary(submission):
    """encode answers right and leaves its merges and vocabulary unchanged"""
    merges, vocab = trained("abab abab", 3)
    record = submission.bpe.encode.call("abab", merges, vocab)
    assert record.returned == ref.encode("abab", merges, vocab), hint("apply each merge in order, then map to ids")
    assert not record.mutated, hint("read merges and vocab; do not pop, sort or extend them")


@pytest.mark.rules("ids", "learned_order")
@pytest.mark.points(2)
@examples(40)
@given(
    train=st.text(alphabet="ab c\n", min_size=1, max_size=40),
    num_merges=st.integers(0, 8),
    picks=st.lists(st.integers(0, 50), max_size=30),
)
def test_hyp_matches_the_contract_on_the_training_alphabet(submission, train, num_merges, picks):
    """encode gives the same ids as the contract on any text over the training alphabet"""
    merges, vocab = trained(train, num_merges)
    alphabet = sorted(set(train))
    text = "".join(alphabet[pick % len(alphabet)] for pick in picks)
    got = submission.bpe.encode(text, merges, vocab)
    assert got == ref.encode(text, merges, vocab), hint(
        "start from list(text), apply each merge in order, then map to ids"
    )
