"""Streaming a corpus through encode: chunks that join back, cut only where no id changes, read lazily."""

import pytest
from hypothesis import given

from autograder.testing.author_api import (
    GPT4_SPLIT,
    Stream,
    StudentRaised,
    domains,
    examples,
    gpt2,
    hint,
    reference,
    saw,
)

ref = reference("real_tokenizer")
# Small merge tables, as encode's own property draws: GPT-2's first merges, enough to join "\n\n" and " a".
VOCAB, MERGES = gpt2(2000)
PATTERNS = {"GPT-2's": ref.GPT2_SPLIT, "GPT-4's": GPT4_SPLIT}


def reference_reads(pieces, size):
    """How many pieces the reference had read as each of its chunks came: what a lazy chunk_text reads."""
    counted = [0]

    def fed():
        for piece in pieces:
            counted[0] += 1
            yield piece

    return [counted[0] for _ in ref.chunk_text(fed(), size)]


# The stream never ends: a chunk_text that reads it all before yielding (a join, a list) never yields.
NEVER_ENDS = (
    "read the pieces one at a time (a for loop over them) and yield each chunk as soon as it is whole: "
    '"".join(pieces) or list(pieces) reads an endless stream for ever'
)


@pytest.mark.rules("joined")
@pytest.mark.points(1)
def test_the_chunks_join_back_into_the_text(submission):
    """chunk_text's chunks joined are the pieces joined: spaces, empty pieces and a last chunk with no newline"""
    pieces = ["  lead\n", "", "mid\r\n", "dle\n\n", "é🙂\n", "end  "]
    got = submission.real_tokenizer.chunk_text(pieces, 3)
    assert "".join(got) == "".join(pieces), hint(
        "keep every character of every piece, in order: add each piece to what is held, yield held text from "
        "its start, and yield what remains at the end"
    )
    assert all(got), hint("yield no empty chunk: not at the start, not at the end")


@pytest.mark.rules("cut", "shortest")
@pytest.mark.points(1)
def test_cuts_after_the_first_newline_with_a_non_space_on_both_sides(submission):
    """chunk_text cuts after the first newline past size with a non-space on both sides, and no sooner"""
    # Size 4: "ab\n" is too short; "cd \n" has a space before its newline, "e\n\tf" a tab after, "\n\n" a
    # newline beside a newline; the first newline that may end a chunk is the one before "g".
    text = "ab\ncd \ne\n\tf\n\ng\nh\nlast"
    got = submission.real_tokenizer.chunk_text([text], 4)
    expected_chunks = ["ab\ncd \ne\n\tf\n\ng\n", "h\nlast"]
    assert "".join(got) == text, hint("keep every character, in order", fix="joined")
    early = [chunk for chunk in got[:-1] if len(chunk) < 4]
    assert not early, hint(
        f"a chunk but the last has at least size characters: {early[0]!r} is shorter", fix="shortest"
    )
    misplaced = [chunk for chunk in got[:-1] if len(chunk) < 2 or chunk[-1] != "\n" or chunk[-2].isspace()]
    assert not misplaced, hint(
        f"end a chunk only right after a newline whose left neighbour is no whitespace: {misplaced[0]!r} ends otherwise",
        fix="cut",
    )
    ends = [len("".join(got[: count + 1])) for count in range(len(got) - 1)]
    right = [end for end in ends if end < len(text) and text[end].isspace()]
    assert not right, hint(
        'cut only after a "\\n" whose right neighbour is no whitespace either: the next chunk starts with it, '
        'and a space, tab, "\\r" or newline there changes how the pattern splits',
        fix="cut",
    )
    assert got == expected_chunks, hint(
        'each chunk ends at the first "\\n" at index size - 1 or later that may end it, not a later one',
        fix="shortest",
    )
    # Lines read one at a time: the newline that ends a line is judged only when the next line comes.
    by_lines = submission.real_tokenizer.chunk_text(["ab\n", " cd\n", "ef"], 1)
    assert by_lines == ["ab\n cd\n", "ef"], hint(
        'a "\\n" that ends what is read so far may end a chunk only once the next piece shows a non-space after '
        "it: read on before deciding",
        fix="cut",
    )
    # One piece holding four cuts, and separators that str.isspace() counts as whitespace but regex's \s does
    # not (\x1c to \x1f): the spec's test is isspace.
    many = submission.real_tokenizer.chunk_text(["one\ntwo\nthree\nfour"], 3)
    assert many == ["one\n", "two\n", "three\n", "four"], hint(
        "after a cut, look for the next one in what is held before reading another piece: one piece may hold "
        "many chunks",
        fix="shortest",
    )
    # Lines of one letter: with size 1 the first cut is the "\n" at index 1, after a chunk of two characters.
    letters = submission.real_tokenizer.chunk_text(["a\nb\nc"], 1)
    assert letters == ["a\n", "b\n", "c"], hint(
        'with size 1 the first "\\n" that may end a chunk can be at index 1: "a\\n" is a chunk of its own',
        fix="shortest",
    )
    separated = submission.real_tokenizer.chunk_text(["ab\n\x1fc\nd\n\x1ce"], 1)
    assert separated == ["ab\n\x1fc\n", "d\n\x1ce"], hint(
        "test each neighbour with ch.isspace(): it counts the separators \\x1c to \\x1f as whitespace, which "
        "regex's \\s and \\S do not",
        fix="cut",
    )


@pytest.mark.rules("cut")
@pytest.mark.points(1)
@examples(30)
@given(inputs=domains.strategy("pieces_and_size"))
def test_hyp_cuts_never_change_the_ids(submission, inputs):
    """encode of chunk_text's chunks gives the whole text's ids, with GPT-2's pattern and with GPT-4's"""
    pieces, size = inputs["pieces"], inputs["size"]
    whole = "".join(pieces)
    chunks = submission.real_tokenizer.chunk_text(pieces, size)
    assert "".join(chunks) == whole, hint("the chunks joined must be the pieces joined", fix="joined")
    for name, pattern in PATTERNS.items():
        apart = [token for chunk in chunks for token in ref.encode(chunk, VOCAB, MERGES, pattern=pattern)]
        assert apart == ref.encode(whole, VOCAB, MERGES, pattern=pattern), hint(
            f"a cut changed the ids under {name} pattern: cut only right after a newline with a non-space on "
            "both sides (ch.isspace() is False for each)"
        )


@pytest.mark.rules("cut", "shortest", "lazy", "joined")
@pytest.mark.points(1)
@examples(40)
@given(inputs=domains.strategy("pieces_and_size"))
def test_hyp_same_chunks_read_as_lazily_as_the_reference(submission, inputs):
    """chunk_text gives the reference's chunks on any pieces and size, each after reading as many pieces"""
    pieces, size = inputs["pieces"], inputs["size"]
    record = submission.real_tokenizer.chunk_text.streamed(Stream())(pieces, size)
    got, theirs = record.returned, list(ref.chunk_text(pieces, size))
    assert "".join(got) == "".join(pieces), hint("the chunks joined must be the pieces joined", fix="joined")
    assert all(got), hint("yield no empty chunk", fix="joined")
    whole = "".join(pieces)
    ends = [len("".join(got[: count + 1])) for count in range(len(got) - 1)]
    invalid = [
        end
        for end in ends
        if not (2 <= end < len(whole) and whole[end - 1] == "\n") or any(whole[at].isspace() for at in (end - 2, end))
    ]
    assert not invalid, hint(
        'end each chunk but the last right after a "\\n" with a non-space character on both sides', fix="cut"
    )
    assert got == theirs, hint(
        'each chunk but the last is the shortest of at least size characters that ends right after a "\\n" '
        'with a non-space on both sides: search from index size - 1 for the first such "\\n"',
        fix="shortest",
    )
    reads = reference_reads(pieces, size)
    assert all(mine >= theirs for mine, theirs in zip(record.read, reads, strict=True)), hint(
        f"a chunk came after {list(record.read)} pieces, before the piece that shows the character after its "
        f"newline ({reads}): a newline that ends what is read so far waits for the next piece",
        fix="cut",
    )
    assert list(record.read) == reads, hint(
        f"yield each chunk as soon as the pieces read hold it and the character after its newline: after "
        f"{reads} pieces, not {list(record.read)}",
        fix="lazy",
    )


@pytest.mark.rules("lazy")
@pytest.mark.points(1)
def test_gives_chunks_of_an_endless_stream_as_it_reads(submission):
    """chunk_text on an endless stream of lines yields its first chunks, each as soon as it has read enough"""
    lines = ["a line\n", "b\n", "  indented\n", "last line\n"]
    stream = Stream(endless=True, take=5)
    try:
        record = submission.real_tokenizer.chunk_text.streamed(stream)(lines, 10)
    except StudentRaised as stopped:
        if stopped.error_type != "ReadTooFar":
            raise
        raise AssertionError(hint(NEVER_ENDS)) from None
    first_five = [chunk for _, chunk in zip(range(5), ref.chunk_text(iter(lines * 10), 10), strict=False)]
    assert record.returned == first_five, saw(first_five, record.returned)
    reads = reference_reads(lines * 10, 10)[:5]
    early = [mine < theirs for mine, theirs in zip(record.read, reads, strict=True)]
    assert not any(early), hint(
        f"a chunk came after {list(record.read)} pieces, before the piece that shows the character after its "
        f"newline ({reads}): a newline that ends what is read so far waits for the next piece",
        fix="cut",
    )
    assert list(record.read) == reads, hint(
        f"read only the pieces a chunk needs before yielding it: after {reads} pieces, not {list(record.read)}; "
        "look for a cut after each piece is added"
    )
