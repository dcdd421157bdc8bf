"""Streaming a corpus through encode: chunks that join back, cut only where no id changes, read lazily."""

import pytest
from hypothesis import given

from autograder.testing.author_api import GPT4_SPLIT, Stream, StudentRaised, domains, examples, gpt2, hint, reference

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
ENDLESS = (
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
    wanted = ["ab\ncd \ne\n\tf\n\ng\n", "h\nlast"]
    assert "".join(got) == text, hint("keep every character, in order", fix="joined")
    early = [chunk for chunk in got[:-1] if len(chunk) < 4]
    assert not early, hint(
        f"a chunk but the last has at least size characters: {early[0]!r} is shorter", fix="shortest"
    )
    wrong = [chunk for chunk in got[:-1] if len(chunk) < 2 or chunk[-1] != "\n" or chunk[-2].isspace()]
    assert not wrong, hint(
        f"end a chunk only right after a newline whose left neighbour is no whitespace: {wrong[0]!r} ends otherwise",
        fix="cut",
    )
    assert got == wanted, hint(
        'cut only after a "\\n" whose right neighbour is no whitespace either: the next chunk starts with it, '
        'and a space, tab, "\\r" or newline there changes how the pattern splits; the first such "\\n" at index '
        "size - 1 or later ends the chunk",
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
    separated = submission.real_tokenizer.chunk_text(["ab\n\x1fc\nd\n\x1ce"], 1)
    assert separated == ["ab\n\x1fc\n", "d\n\x1ce"], hint(
        "test each neighbour with ch.isspace(): it counts the separators \\x1c to \\x1f as whitespace, which "
        "regex's \\s and \\S do not",
        fix="cut",
    )


@pytest.mark.rules("lazy")
@pytest.mark.points(1)
def test_gives_chunks_of_an_endless_stream_as_it_reads(submission):
    """chunk_text on an endless stream of lines yields its first chunks, each as soon as it has read enough"""
    lines = ["a line\n", "b\n", "  indented\n", "last line\n"]
    stream = Stream(endless=True, take=5)
    try:
        record = submission.real_tokenizer.chunk_text.streamed(stream)(lines, 10)
    except StudentRaised as error:
        if error.error_type != "ReadTooFar":
            raise
        raise AssertionError(hint(ENDLESS)) from None
    wanted = list(zip(range(5), ref.chunk_text(iter(lines * 10), 10), strict=False))
    assert record.returned == [chunk for _, chunk in wanted], hint(
        "read the pieces one at a time (a for loop over them) and yield each chunk as soon as it is whole: "
        '"".join(pieces) or list(pieces) never ends on an endless stream'
    )
    reads = reference_reads(lines * 10, 10)[:5]
    assert list(record.read) == reads, hint(
        f"read only the pieces a chunk needs before yielding it: after {reads} pieces, not {list(record.read)}; "
        "look for a cut after each piece is added"
    )


@pytest.mark.rules("cut")
@pytest.mark.points(1)
@examples(30)
@given(inputs=domains.strategy("pieces_and_size"))
def test_hyp_cuts_never_change_the_ids(submission, inputs):
    """encode of chunk_text's chunks gives the whole text's ids, with GPT-2's pattern and with GPT-4's"""
    pieces, size = inputs["pieces"], inputs["size"]
    text = "".join(pieces)
    got = submission.real_tokenizer.chunk_text(pieces, size)
    assert "".join(got) == text, hint("the chunks joined must be the pieces joined", fix="joined")
    for name, pattern in PATTERNS.items():
        apart = [token for chunk in got for token in ref.encode(chunk, VOCAB, MERGES, pattern=pattern)]
        assert apart == ref.encode(text, VOCAB, MERGES, pattern=pattern), hint(
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
    got, wanted = record.returned, list(ref.chunk_text(pieces, size))
    assert "".join(got) == "".join(pieces), hint("the chunks joined must be the pieces joined", fix="joined")
    assert all(got), hint("yield no empty chunk", fix="joined")
    assert got == wanted, hint(
        'each chunk but the last is the shortest of at least size characters that ends right after a "\\n" '
        'with a non-space on both sides: search from index size - 1 for the first such "\\n"',
        fix="shortest",
    )
    reads = reference_reads(pieces, size)
    assert list(record.read) == reads, hint(
        f"yield each chunk as soon as the pieces read hold it and the character after its newline: after "
        f"{reads} pieces, not {list(record.read)}",
        fix="lazy",
    )
