import pytest
from hypothesis import given

from autograder.testing.author_api import domains, examples, hint, reference

ref = reference("simple_tokenizers")
VOCAB = {"cat": 0, "sat": 1, "the": 2, "[UNK]": 3}


@pytest.mark.rules("word_ids")
@pytest.mark.points(2)
def test_known_words_get_their_ids(submission):
    """encode_words maps each word to its id"""
    got = submission.simple_tokenizers.encode_words("the cat sat", VOCAB)
    assert got == [2, 0, 1], hint("look each word up in vocab")
    # Every word is known, so a changed lookup shows here and a lost unknown word does not.
    as_written = {"Sat": 0, "sat": 1, "sat!": 2, "SAT": 3, "[UNK]": 4}
    got = submission.simple_tokenizers.encode_words("sat! Sat sat SAT", as_written)
    assert got == [2, 0, 1, 3], hint(
        "look each word up exactly as word_tokenize gives it: no lower(), no stripping of punctuation"
    )


@pytest.mark.rules("unknown_word")
@pytest.mark.points(1)
def test_unknown_words_get_the_unknown_id(submission):
    """encode_words maps a word missing from the vocabulary to the id of [UNK]"""
    got = submission.simple_tokenizers.encode_words("the dog sat", VOCAB)
    assert got == [2, 3, 1], hint('use vocab["[UNK]"] for a word the vocabulary lacks')


@pytest.mark.rules("unknown_word")
@pytest.mark.points(1)
def test_the_unknown_id_comes_from_the_vocabulary(submission):
    """encode_words reads the id of [UNK] from the vocabulary, wherever it stands"""
    got = submission.simple_tokenizers.encode_words("cow elk ant", {"ant": 0, "[UNK]": 1, "bee": 2, "cow": 3})
    assert got == [3, 1, 0], hint('use vocab["[UNK]"], not the last id: [UNK] may have any id')


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_does_not_change_the_vocabulary(submission):
    """encode_words answers right and leaves the vocabulary unchanged, even for unknown words"""
    record = submission.simple_tokenizers.encode_words.call("a dog", dict(VOCAB))
    assert record.returned == [3, 3], hint('use vocab["[UNK]"] for unknown words')
    assert not record.mutated, hint("do not add unknown words to vocab; map them to [UNK]")


@pytest.mark.rules("word_ids", "unknown_word")
@pytest.mark.points(1)
@examples(40)
@given(train=domains.strategy("any_text"), inputs=domains.strategy("text_and_word_vocab"))
def test_hyp_matches_the_contract(submission, train, inputs):
    """encode_words gives the reference's ids on any text, with words in any case and with punctuation"""
    for vocab in (ref.build_word_vocab([train, inputs["text"]]), inputs["vocab"]):
        got = submission.simple_tokenizers.encode_words(inputs["text"], vocab)
        assert got == ref.encode_words(inputs["text"], vocab), hint(
            "split like word_tokenize, then look each word up as written, with a [UNK] fallback"
        )
