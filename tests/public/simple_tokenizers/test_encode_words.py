import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint

SKY = {"sun": 0, "moon": 1, "star": 2, "[UNK]": 3}


@pytest.mark.rules("word_ids")
@pytest.mark.points(2)
def test_each_word_becomes_its_id_in_order(submission):
    """encode_words gives the id of each word as written, in the order of the text, repeats included"""
    got = submission.simple_tokenizers.encode_words("star sun moon sun", dict(SKY))
    assert got == [2, 0, 1, 0], hint("look each word of the text up in vocab, in order, once per occurrence")
    cased = {"Moon": 0, "moon": 1, "moon.": 2, "[UNK]": 3}
    got = submission.simple_tokenizers.encode_words("Moon moon. moon MOON", cased)
    if isinstance(got, list) and len(got) != 4:
        # MOON is the one word vocab lacks: an answer of another length dropped or added it.
        assert got == [0, 2, 1, 3], hint(
            'MOON is not in vocab: it gives vocab["[UNK]"] (3) in its place, one id for each word',
            fix="unknown_word",
        )
    assert got == [0, 2, 1, 3], hint(
        "look each word up exactly as it is written in the text: capitals and punctuation are part of the word"
    )


@pytest.mark.rules("unknown_word")
@pytest.mark.points(2)
def test_an_unknown_word_gets_the_id_of_unknown(submission):
    """encode_words gives a word the vocabulary lacks the id of [UNK], and keeps its place"""
    got = submission.simple_tokenizers.encode_words("sun comet moon", dict(SKY))
    assert len(got) == 3, hint('one id per word, unknown words too: use vocab["[UNK]"] instead of dropping the word')
    assert got == [0, 3, 1], hint('a word that is not in vocab gets vocab["[UNK]"]')


@pytest.mark.rules("unknown_word")
@pytest.mark.points(1)
def test_the_unknown_id_is_read_from_the_vocabulary(submission):
    """encode_words looks up the id of [UNK], which need not be the last one"""
    got = submission.simple_tokenizers.encode_words("yo there hi", {"[UNK]": 0, "hi": 1, "yo": 2})
    assert got == [2, 0, 1], hint('read the id of "[UNK]" from vocab["[UNK]"]; it need not be len(vocab) - 1')


@pytest.mark.rules("word_ids")
@pytest.mark.points(1)
def test_any_whitespace_separates_words(submission):
    """encode_words splits the text at runs of spaces, tabs and newlines, as word_tokenize does"""
    got = submission.simple_tokenizers.encode_words("\tsun  moon\n\nstar ", dict(SKY))
    assert got == [0, 1, 2], hint(
        "split the text into words as word_tokenize does: whitespace is never part of a word, and never a word"
    )


@pytest.mark.rules("word_ids")
@pytest.mark.points(1)
def test_text_without_words_gives_no_ids(submission):
    """encode_words of one word is a list of one id, and of "" or only whitespace the empty list"""
    assert submission.simple_tokenizers.encode_words("moon", dict(SKY)) == [1], hint(
        "one word gives a list of its one id"
    )
    assert submission.simple_tokenizers.encode_words("", dict(SKY)) == [], hint('"" has no words: return []')
    assert submission.simple_tokenizers.encode_words(" \n", dict(SKY)) == [], hint(
        "a text of whitespace only has no words: return []"
    )


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_leaves_the_vocabulary_as_it_was(submission):
    """encode_words answers right and does not change the vocabulary, not even for an unknown word"""
    record = submission.simple_tokenizers.encode_words.call("comet star", dict(SKY))
    assert record.returned == [3, 2], hint('a word that is not in vocab gets vocab["[UNK]"]')
    assert not record.mutated, hint('leave vocab as it is: give an unknown word vocab["[UNK]"] instead of adding it')


@st.composite
def vocab_and_text(draw: st.DrawFn) -> tuple[dict[str, int], str, list[int]]:
    """A vocabulary with ids in any order ([UNK] anywhere), a text of known and unknown words with any whitespace
    around them, and the ids of its words."""
    known = draw(st.lists(st.text(alphabet="fgh", min_size=1, max_size=3), unique=True, max_size=5))
    ids = draw(st.permutations(range(len(known) + 1)))
    vocab = {word: ids[index] for index, word in enumerate(known)}
    vocab["[UNK]"] = ids[-1]
    words = draw(st.lists(st.text(alphabet="fghi", min_size=1, max_size=3), max_size=6))
    inner = draw(st.lists(st.text(alphabet=" \t\n", min_size=1, max_size=2), min_size=len(words)))
    start, end = draw(st.text(alphabet=" \t\n", max_size=2)), draw(st.text(alphabet=" \t\n", max_size=2))
    text = start + "".join(gap + word for gap, word in zip(["", *inner], words, strict=False)) + end
    return vocab, text, [vocab[word] if word in vocab else ids[-1] for word in words]


@pytest.mark.rules("word_ids", "unknown_word")
@pytest.mark.points(1)
@examples(20)
@given(vocab_text_ids=vocab_and_text())
def test_hyp_ids_of_the_words_of_any_text(submission, vocab_text_ids):
    """encode_words gives, for any text and vocabulary, the id of each word or the id of [UNK]"""
    vocab, text, expected = vocab_text_ids
    ids = submission.simple_tokenizers.encode_words(text, vocab)
    assert ids == expected, hint(
        'split at any whitespace, then give each word vocab[word], or vocab["[UNK]"] when it is not in vocab'
    )
