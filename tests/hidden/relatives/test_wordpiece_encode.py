"""Part 7: WordPiece's longest match first, with ## continuation pieces and [UNK] for the whole word."""

import pytest
from hypothesis import given

from autograder.testing.author_api import domains, examples, hint, reference

ref = reference("relatives")
BERT_LIKE = {"un", "##aff", "##able", "##a", "##ff", "##abl", "##e", "play", "##ing", "##s"}
# Pieces on which the common mistakes each give an answer of their own (shortest first: p ##l ##ay ##i ##ng).
PLAY = {"play", "p", "##l", "##ay", "##ing", "##i", "##ng"}


def _greedy(word: str, vocab: set[str], *, shortest: bool = False, marks: str = "inside") -> list[str]:
    """WordPiece as the common mistakes write it: shortest piece first, or "##" looked up nowhere ("none") or
    everywhere ("everywhere"), the pieces still written with "##" inside the word."""
    pieces, start = [], 0
    while start < len(word):
        ends = range(start + 1, len(word) + 1) if shortest else range(len(word), start, -1)
        looked = {"inside": "##" if start else "", "none": "", "everywhere": "##"}[marks]
        end = next((end for end in ends if looked + word[start:end] in vocab), None)
        if end is None:
            return ["[UNK]"]
        pieces.append(("##" if start or marks == "everywhere" else "") + word[start:end])
        start = end
    return pieces


def diagnosed(word: str, vocab: set[str], got: object) -> str:
    """The fix an answer that differs from the reference's needs, named by which common mistake it matches."""
    if not word:
        return hint("the empty word has no pieces: answer []", fix="empty")
    if isinstance(got, list) and "[UNK]" in got and len(got) > 1:
        return hint(
            'one place with no piece makes the whole word ["[UNK]"]: drop the pieces found before it',
            fix="unknown_whole",
        )
    marked_wrong = (_greedy(word, vocab, marks="none"), _greedy(word, vocab, marks="everywhere"))
    if got == _greedy(word, vocab, shortest=True) and got not in marked_wrong:
        return hint(
            "take the longest piece of vocab at each place, trying ends from the longest down, not the shortest",
            fix="longest_first",
        )
    if got in marked_wrong or (
        isinstance(got, list)
        and got != ["[UNK]"]
        and any(not isinstance(piece, str) or piece.startswith("##") != (index > 0) for index, piece in enumerate(got))
    ):
        return hint(
            'every piece after the first carries "##" (look it up with it too); the first does not', fix="continuation"
        )
    if got == ["[UNK]"] and got != _greedy(word, vocab, shortest=True):
        return hint('answer ["[UNK]"] only when no piece of vocab starts at some place', fix="unknown_whole")
    return hint(
        "at each place take the longest piece of vocab that starts there, trying ends from the longest down, and "
        "keep it: never go back to try a shorter one",
        fix="longest_first",
    )


@pytest.mark.rules("longest_first", "continuation")
@pytest.mark.points(1)
def test_a_worked_example(submission):
    """wordpiece_encode cuts a word into its longest pieces, the ones after the first written with ##"""
    got = submission.relatives.wordpiece_encode("playing", set(PLAY))
    assert got == ["play", "##ing"], diagnosed("playing", PLAY, got)
    got = submission.relatives.wordpiece_encode("unaffable", set(BERT_LIKE))
    assert got == ["un", "##aff", "##able"], diagnosed("unaffable", BERT_LIKE, got)


@pytest.mark.rules("longest_first")
@pytest.mark.points(2)
def test_the_longest_piece_wins_even_where_a_shorter_one_would_fit_better(submission):
    """wordpiece_encode takes the longest piece at each place and never goes back to try a shorter one"""
    got = submission.relatives.wordpiece_encode("abc", {"a", "ab", "##c", "##bc"})
    assert got == ["ab", "##c"], hint("at each place take the longest piece that starts there: 'ab', not 'a'")
    got = submission.relatives.wordpiece_encode("abcd", {"a", "abc", "##bcd", "##d"})
    assert got == ["abc", "##d"], hint("try the ends from the longest down and stop at the first piece in vocab")
    # Greedy: 'ab' leaves 'c', which no piece covers, though 'a' + '##bc' would have covered it all.
    got = submission.relatives.wordpiece_encode("abc", {"a", "ab", "##bc"})
    if isinstance(got, list) and "[UNK]" in got and len(got) > 1:
        assert got == ["[UNK]"], hint(
            "nothing covers 'c' after 'ab': the whole word is [\"[UNK]\"], not 'ab' and an unknown",
            fix="unknown_whole",
        )
    assert got == ["[UNK]"], hint(
        "take the longest piece and keep it: WordPiece never goes back to try a shorter one, so 'ab' leaves 'c' "
        "uncovered and the word is unknown"
    )


@pytest.mark.rules("continuation")
@pytest.mark.points(1)
def test_pieces_inside_a_word_carry_the_prefix_and_the_first_does_not(submission):
    """wordpiece_encode looks a piece after the first up as "##" + piece, and the first piece without "##\""""
    got = submission.relatives.wordpiece_encode("bb", {"b", "##b"})
    assert got == ["b", "##b"], hint('write "##" before every piece after the first, and only there')
    got = submission.relatives.wordpiece_encode("ab", {"a", "b"})
    assert got == ["[UNK]"], hint('a piece after the first must be in vocab as "##" + piece: "b" alone is not enough')
    got = submission.relatives.wordpiece_encode("ab", {"##a", "ab"})
    assert got == ["ab"], hint('the first piece is looked up without "##"')


@pytest.mark.rules("unknown_whole")
@pytest.mark.points(1)
def test_no_piece_at_some_place_makes_the_whole_word_unknown(submission):
    """wordpiece_encode gives ["[UNK]"], one token for the whole word, when no piece starts at some place"""
    got = submission.relatives.wordpiece_encode("unafford", set(BERT_LIKE))
    assert got == ["[UNK]"], hint('one unknown place makes the whole word ["[UNK]"]: drop the pieces found before it')
    got = submission.relatives.wordpiece_encode("🙂", {"a"})
    assert got == ["[UNK]"], hint('a word whose first character starts no piece is ["[UNK]"]')


@pytest.mark.rules("empty")
@pytest.mark.points(1)
def test_the_empty_word_gives_no_pieces(submission):
    """wordpiece_encode of "" is [], and of a one-character word its one piece"""
    assert submission.relatives.wordpiece_encode("", {"a", "##a"}) == [], hint("the empty word has no pieces: []")
    assert submission.relatives.wordpiece_encode("", set()) == [], hint(
        "the empty word is [] even with an empty vocab: there is no place where a piece is missing"
    )
    assert submission.relatives.wordpiece_encode("é", {"é"}) == ["é"], hint(
        "a one-character word in vocab is its one piece", fix="longest_first"
    )


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_leaves_the_vocabulary_as_it_was(submission):
    """wordpiece_encode answers right and does not change the vocabulary"""
    record = submission.relatives.wordpiece_encode.call("playings", set(BERT_LIKE))
    assert record.returned == ["play", "##ing", "##s"], diagnosed("playings", BERT_LIKE, record.returned)
    assert not record.mutated, hint("only read vocab: add nothing to it and take nothing out")


@pytest.mark.rules("longest_first", "continuation", "unknown_whole", "empty")
@pytest.mark.points(2)
@examples(60)
@given(inputs=domains.strategy("word_and_wordpieces"))
def test_hyp_same_pieces_as_the_reference(submission, inputs):
    """wordpiece_encode gives the reference's pieces on any word and vocabulary, Unicode and ## pieces included"""
    word, vocab = inputs["word"], inputs["vocab"]
    got = submission.relatives.wordpiece_encode(word, set(vocab))
    assert got == ref.wordpiece_encode(word, vocab), diagnosed(word, vocab, got)
