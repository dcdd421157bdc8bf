import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import examples, hint

SHORT = {"re", "read", "##ing", "##in", "##g", "##s", "##er", "s"}


@pytest.mark.rules("continuation")
@pytest.mark.points(1)
def test_only_the_pieces_after_the_first_carry_the_prefix(submission):
    """wordpiece_encode writes "##" before every piece after the first, and looks it up that way"""
    answer = submission.relatives.wordpiece_encode("ss", {"s", "##s"})
    assert answer == ["s", "##s"], hint('the first piece has no "##"; every later one does')
    answer = submission.relatives.wordpiece_encode("sis", {"s", "i"})
    if isinstance(answer, list) and "[UNK]" in answer and len(answer) > 1:
        whole = 'no piece starts at "i" (only "##i" could): the whole word is ["[UNK]"], not the pieces around it'
        assert answer == ["[UNK]"], hint(whole, fix="unknown_whole")
    assert answer == ["[UNK]"], hint('a piece inside the word must be in vocab with "##": "i" alone does not count')


@pytest.mark.rules("longest_first")
@pytest.mark.points(2)
def test_each_piece_is_the_longest_that_fits_there(submission):
    """wordpiece_encode takes, from the left, the longest piece of vocab that starts where the last one ended"""
    answer = submission.relatives.wordpiece_encode("reading", set(SHORT))
    assert answer == ["read", "##ing"], hint("try the longest piece first: 'read' before 're', '##ing' before '##in'")
    answer = submission.relatives.wordpiece_encode("reader", set(SHORT))
    assert answer == ["read", "##er"], hint("after 'read' the rest, 'er', is looked up as '##er'", fix="continuation")
    # 're' + '##ad' would fit, but 'read' is longer and leaves 'y', which nothing covers.
    answer = submission.relatives.wordpiece_encode("ready", {"re", "read", "##ad", "##y"})
    assert answer == ["read", "##y"], hint("keep the longest piece, 'read', and go on from there")
    answer = submission.relatives.wordpiece_encode("readz", {"re", "read", "##adz"})
    assert answer == ["[UNK]"], hint(
        "WordPiece keeps the longest piece and never goes back: after 'read' nothing covers 'z', so the word is unknown"
    )


@pytest.mark.rules("unknown_whole")
@pytest.mark.points(1)
def test_a_place_with_no_piece_makes_the_whole_word_unknown(submission):
    """wordpiece_encode answers ["[UNK]"] for the whole word when no piece starts at some place"""
    answer = submission.relatives.wordpiece_encode("readq", set(SHORT))
    assert answer == ["[UNK]"], hint('one place without a piece makes the whole word ["[UNK]"], not "read" + "[UNK]"')
    answer = submission.relatives.wordpiece_encode("日本", set(SHORT))
    assert answer == ["[UNK]"], hint("a word none of whose characters start a piece is unknown too")


@pytest.mark.rules("empty")
@pytest.mark.points(1)
def test_the_empty_word_has_no_pieces(submission):
    """wordpiece_encode of "" is []"""
    assert submission.relatives.wordpiece_encode("", set(SHORT)) == [], hint('"" has no pieces: return []')


@pytest.mark.rules("unchanged")
@pytest.mark.points(1)
def test_leaves_the_vocabulary_as_it_was(submission):
    """wordpiece_encode answers right and does not change the vocabulary"""
    record = submission.relatives.wordpiece_encode.call("reads", set(SHORT))
    assert record.returned == ["read", "##s"], hint("'read', then the rest as '##s'", fix="longest_first")
    assert not record.mutated, hint("leave vocab as it was given: no piece added, none taken out")


@st.composite
def word_of_pieces(draw: st.DrawFn) -> tuple[str, set[str], list[str]]:
    """Pieces all two characters long (so the longest piece at a place is the only one), a word made of some
    of them, and its WordPiece tokens, or ["[UNK]"] when one of its pieces is left out of the vocabulary."""
    pieces = draw(st.lists(st.text(alphabet="xyé🙂", min_size=2, max_size=2), min_size=1, max_size=4))
    drawn = draw(st.lists(st.sampled_from(pieces), min_size=1, max_size=4))
    tokens = [piece if index == 0 else "##" + piece for index, piece in enumerate(drawn)]
    vocab = set(tokens)
    if draw(st.booleans()):
        vocab.discard(draw(st.sampled_from(sorted(vocab))))
    expected = tokens if set(tokens) <= vocab else ["[UNK]"]
    return "".join(drawn), vocab, expected


@pytest.mark.rules("continuation", "unknown_whole")
@pytest.mark.points(1)
@examples(30)
@given(case=word_of_pieces())
def test_hyp_a_word_made_of_pieces(submission, case):
    """wordpiece_encode gives back the pieces a word was made of, "##" after the first, or ["[UNK]"] when one is
    missing"""
    word, vocab, expected = case
    answer = submission.relatives.wordpiece_encode(word, set(vocab))
    if expected == ["[UNK]"]:
        assert answer == expected, hint(
            'a piece of the word is missing from vocab: answer ["[UNK]"]', fix="unknown_whole"
        )
    assert answer == expected, hint('each piece after the first is "##" + piece, the first without', fix="continuation")
