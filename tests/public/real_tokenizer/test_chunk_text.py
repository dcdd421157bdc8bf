"""Streaming a corpus through encode: chunks that join back, cut only where no id changes, read lazily."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.testing.author_api import Stream, StudentRaised, examples, hint

LETTER = ["Dear reader,\n", "\n", "this is a letter.\n", "Yours,\n", " me\n", "PS\n"]


def may_end(text, at):
    """Whether a chunk may end at index ``at`` of ``text``: right after a "\\n" with a non-space on each side."""
    return 2 <= at < len(text) and text[at - 1] == "\n" and not text[at - 2].isspace() and not text[at].isspace()


# The stream never ends: a chunk_text that reads it all before yielding (a join, a list) never yields.
ENDLESS = (
    "read the pieces one at a time (a for loop over them) and yield each chunk as soon as it is whole: "
    '"".join(pieces) or list(pieces) reads an endless stream for ever'
)


@pytest.mark.rules("joined")
@pytest.mark.points(1)
def test_the_chunks_join_back_into_the_letter(submission):
    """chunk_text's chunks of a letter joined are the letter, none of them empty"""
    got = submission.real_tokenizer.chunk_text(LETTER, 8)
    assert isinstance(got, list) and "".join(got) == "".join(LETTER), hint(
        "yield every character of every piece, in order, and what remains at the end"
    )
    assert "" not in got, hint("yield no empty chunk")


@pytest.mark.rules("cut")
@pytest.mark.points(1)
def test_cuts_only_after_a_newline_between_two_non_spaces(submission):
    """chunk_text does not cut after a blank line's newline, nor before a line that starts with a space"""
    got = submission.real_tokenizer.chunk_text(LETTER, 8)
    text, ends = "".join(LETTER), [len("".join(got[: count + 1])) for count in range(len(got) - 1)]
    wrong = [got[count] for count, end in enumerate(ends) if not may_end(text, end)]
    assert not wrong, hint(
        f'{wrong[0]!r} ends where encode would split otherwise: cut only right after a "\\n" with a non-space '
        "character on both sides"
    )
    assert got == ["Dear reader,\n\nthis is a letter.\n", "Yours,\n me\n", "PS\n"], hint(
        'the first "\\n" at index size - 1 or later with a non-space on both sides ends the chunk: not a later one',
        fix="shortest",
    )


@pytest.mark.rules("shortest")
@pytest.mark.points(1)
def test_each_chunk_is_the_shortest_of_at_least_size(submission):
    """chunk_text of a line a letter with size 1 gives each line; with size 4, two lines; size counts characters"""
    assert submission.real_tokenizer.chunk_text(["a\nb\nc\nd"], 1) == ["a\n", "b\n", "c\n", "d"], hint(
        "cut at the first newline that may end a chunk of at least size characters: do not wait for more"
    )
    assert submission.real_tokenizer.chunk_text(["a\nb\n", "c\nd"], 4) == ["a\nb\n", "c\nd"], hint(
        "a chunk has at least size characters: a\\n is 2, a\\nb\\n is 4"
    )
    assert submission.real_tokenizer.chunk_text(["é\nb\nc"], 3) == ["é\nb\n", "c"], hint(
        "size counts characters, len(chunk), not UTF-8 bytes: é\\n is 2 characters"
    )


@pytest.mark.rules("lazy")
@pytest.mark.points(1)
def test_yields_chunks_of_an_endless_stream(submission):
    """chunk_text on an endless stream of lines yields chunks, each after reading only what it needs"""
    try:
        record = submission.real_tokenizer.chunk_text.streamed(Stream(endless=True, take=2))(
            ["first line\n", "second\n", "x\n"], 12
        )
    except StudentRaised as error:
        if error.error_type != "ReadTooFar":
            raise
        raise AssertionError(hint(ENDLESS)) from None
    assert record.returned == ["first line\nsecond\n", "x\nfirst line\n"], hint(
        'read the pieces one at a time and yield each chunk as soon as it is whole: "".join(pieces) never ends '
        "on an endless stream"
    )
    assert list(record.read) == [3, 5], hint(
        'the first chunk needs three lines (the "x" after its last newline says it may end there), the second '
        f"two more: yield as soon as the lines read hold a chunk, not after {list(record.read)} lines"
    )
    ahead = submission.real_tokenizer.chunk_text.streamed(Stream(endless=True, take=2))(["ab\ncd\n"], 1)
    assert list(ahead.read) == [1, 2], hint(
        '"ab\\n" is a chunk once the first piece is read, the "c" after its newline in it: read no piece more '
        f"before yielding it (read after {list(ahead.read)} pieces, not [1, 2])"
    )


@pytest.mark.rules("joined", "cut", "shortest")
@pytest.mark.points(1)
@examples(30)
@given(
    pieces=st.lists(st.text(alphabet="ab. \n\n\t\r", max_size=6), max_size=6),
    size=st.integers(1, 10),
)
def test_hyp_chunks_of_any_pieces(submission, pieces, size):
    """chunk_text of any pieces: joined they are the text, each cut where it may be, none sooner"""
    text = "".join(pieces)
    got = submission.real_tokenizer.chunk_text(pieces, size)
    assert "".join(got) == text and all(got), hint("the chunks joined are the pieces joined, none empty", fix="joined")
    start = 0
    for chunk in got[:-1]:
        end = start + len(chunk)
        assert may_end(text, end), hint(
            f'{chunk!r} does not end right after a "\\n" with a non-space on both sides', fix="cut"
        )
        sooner = [at for at in range(start + size, end) if may_end(text, at)]
        assert len(chunk) >= size and not sooner, hint(
            f"{chunk!r}: a chunk is the shortest of at least size ({size}) characters that may end there",
            fix="shortest",
        )
        start = end
    if got:
        rest = [at for at in range(start + size, len(text)) if may_end(text, at)]
        assert not rest, hint(f"the last chunk {got[-1]!r} holds a place a chunk could end: cut there", fix="shortest")
