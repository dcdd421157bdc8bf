import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint


@pytest.mark.rules("sorted_words", "unknown_last")
@pytest.mark.points(2)
def test_sorted_distinct_words_then_unknown_last(submission):
    """build_word_vocab numbers the distinct words of all the texts 0..n-1 in sorted order, then [UNK] as n"""
    got = submission.simple_tokenizers.build_word_vocab(["to be or", "not to be"])
    assert "[UNK]" in got, hint('add "[UNK]" to the vocabulary, after the words', fix="unknown_last")
    assert set(got) == {"be", "not", "or", "to", "[UNK]"}, hint(
        'the keys are the distinct words of every text, and "[UNK]"', fix="sorted_words"
    )
    assert got["[UNK]"] == 4, hint(
        '"[UNK]" comes after the words: its id is the number of distinct words', fix="unknown_last"
    )
    assert got == {"be": 0, "not": 1, "or": 2, "to": 3, "[UNK]": 4}, hint(
        "number the distinct words from 0 in sorted order, not in the order they first appear", fix="sorted_words"
    )


@pytest.mark.rules("sorted_words")
@pytest.mark.points(1)
def test_any_whitespace_separates_words(submission):
    """build_word_vocab splits each text at runs of spaces, tabs and newlines, as word_tokenize does"""
    got = submission.simple_tokenizers.build_word_vocab(["b\ta\n", "  c  b"])
    assert got == {"a": 0, "b": 1, "c": 2, "[UNK]": 3}, hint(
        "split each text into words as word_tokenize does: whitespace is never part of a word, and never a word"
    )


@pytest.mark.rules("sorted_words", "unknown_last")
@pytest.mark.points(1)
def test_words_sort_as_they_are_with_unknown_kept_last(submission):
    """build_word_vocab sorts words with their capitals and punctuation, and keeps [UNK] last, not sorted in"""
    got = submission.simple_tokenizers.build_word_vocab(["Zoo, zoo! ant"])
    assert got == {"Zoo,": 0, "ant": 1, "zoo!": 2, "[UNK]": 3}, hint(
        'sort only the words, as they are (capitals sort first); then add "[UNK]" with the next id'
    )


@pytest.mark.rules("no_words")
@pytest.mark.points(1)
def test_no_words_give_only_unknown(submission):
    """build_word_vocab of one word is {it: 0, [UNK]: 1}; of no words at all, {[UNK]: 0}"""
    assert submission.simple_tokenizers.build_word_vocab(["hey"]) == {"hey": 0, "[UNK]": 1}, hint(
        'one word gets the id 0 and "[UNK]" the id 1'
    )
    assert submission.simple_tokenizers.build_word_vocab([]) == {"[UNK]": 0}, hint(
        'with no texts, the vocabulary still holds "[UNK]", with id 0'
    )
    assert submission.simple_tokenizers.build_word_vocab([" \t", ""]) == {"[UNK]": 0}, hint(
        'texts without words give no word: only "[UNK]", with id 0'
    )


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_leaves_the_list_of_texts_as_it_was(submission):
    """build_word_vocab answers right and does not change the list of texts it is given"""
    record = submission.simple_tokenizers.build_word_vocab.call(["yes no", "maybe"])
    assert record.returned == {"maybe": 0, "no": 1, "yes": 2, "[UNK]": 3}, hint(
        'number the sorted distinct words from 0, then "[UNK]"'
    )
    assert not record.mutated, hint("build a new set or list of words instead of editing texts in place")


WHITESPACE = " \t\n"


@st.composite
def texts_of_words(draw: st.DrawFn) -> tuple[list[str], set[str]]:
    """A few texts, each of words with runs of whitespace between them (and maybe around them), and their words."""
    texts: list[str] = []
    words: set[str] = set()
    for line in draw(st.lists(st.lists(st.text(alphabet="mN!", min_size=1, max_size=3), max_size=4), max_size=3)):
        inner = draw(st.lists(st.text(alphabet=WHITESPACE, min_size=1, max_size=2), min_size=len(line)))
        start, end = draw(st.text(alphabet=WHITESPACE, max_size=2)), draw(st.text(alphabet=WHITESPACE, max_size=2))
        texts.append(start + "".join(gap + word for gap, word in zip(["", *inner], line, strict=False)) + end)
        words.update(line)
    return texts, words


@pytest.mark.rules("sorted_words", "unknown_last")
@pytest.mark.points(1)
@examples(20)
@given(texts_and_words=texts_of_words())
def test_hyp_sorted_words_then_unknown_for_any_texts(submission, texts_and_words):
    """build_word_vocab of any texts has their distinct words, ids 0..n-1 in sorted order, and [UNK] as n"""
    texts, words = texts_and_words
    vocab = submission.simple_tokenizers.build_word_vocab(texts)
    assert set(vocab) == words | {"[UNK]"}, hint(
        'the keys are the words of every text (split at any whitespace) and "[UNK]", nothing else'
    )
    assert vocab["[UNK]"] == len(words), hint('"[UNK]" comes last: its id is the number of distinct words')
    ordered = sorted(words)
    assert [vocab[word] for word in ordered] == list(range(len(ordered))), hint(
        "number the distinct words from 0 in sorted order, each once", fix="sorted_words"
    )
