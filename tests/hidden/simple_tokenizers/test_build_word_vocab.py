import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint, reference

ref = reference("simple_tokenizers")


@pytest.mark.rules("sorted_words", "unknown_last")
@pytest.mark.points(3)
def test_sorted_words_then_unknown(submission):
    """build_word_vocab numbers sorted words from 0, then gives [UNK] the next id"""
    got = submission.simple_tokenizers.build_word_vocab(["the cat", "the hat"])
    if not isinstance(got, dict) or got.get("[UNK]") != len(got) - 1:
        assert got == {"cat": 0, "hat": 1, "the": 2, "[UNK]": 3}, hint(
            '"[UNK]" takes the id after the last word: add it once the sorted words are numbered', fix="unknown_last"
        )
    assert got == {"cat": 0, "hat": 1, "the": 2, "[UNK]": 3}, hint(
        'sort the distinct words and number them from 0; add "[UNK]" last', fix="sorted_words"
    )


@pytest.mark.rules("sorted_words", "unchanged")
@pytest.mark.points(1)
def test_repeated_words_get_one_id(submission):
    """build_word_vocab gives a word that occurs many times a single id, leaving its arguments as they were"""
    record = submission.simple_tokenizers.build_word_vocab.call(["a a a", "b a"])
    got = record.returned
    assert got == {"a": 0, "b": 1, "[UNK]": 2}, hint("collect words in a set before numbering")
    assert not record.mutated, hint("do not sort or empty the list of texts you were given; read it")


@pytest.mark.rules("no_words")
@pytest.mark.points(1)
def test_no_words_gives_only_unknown(submission):
    """build_word_vocab of texts without words is {"[UNK]": 0}"""
    got = submission.simple_tokenizers.build_word_vocab(["", "  \n"])
    if isinstance(got, dict) and set(got) - {"[UNK]"}:
        assert got == {"[UNK]": 0}, hint(
            f"whitespace is no word, but the vocabulary holds {sorted(set(got) - {'[UNK]'})!r}: take the words as"
            " word_tokenize gives them (str.split() with no argument)",
            fix="sorted_words",
        )
    assert got == {"[UNK]": 0}, hint('even with no words, "[UNK]" is in the vocabulary')


@pytest.mark.rules("sorted_words", "unknown_last", "no_words")
@pytest.mark.points(2)
@examples(40)
@given(texts=st.lists(st.text(alphabet="abC \n,", max_size=15), max_size=4))
def test_hyp_matches_the_contract_on_any_texts(submission, texts):
    """build_word_vocab numbers the sorted words of any texts, then [UNK]"""
    got = submission.simple_tokenizers.build_word_vocab(texts)
    assert got == ref.build_word_vocab(texts), hint("words come from splitting on any whitespace, ids in sorted order")
