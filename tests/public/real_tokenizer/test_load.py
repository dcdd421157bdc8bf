import pytest

from autograder.testing.author_api import CallFolder, gpt2, gpt2_files, hint


def loaded(submission, files):
    return submission.real_tokenizer.load.in_folder(CallFolder("my-tokenizer", files))("my-tokenizer").returned


@pytest.mark.rules("vocab", "merges")
@pytest.mark.points(2)
def test_reads_vocab_and_merges(submission):
    """load gives the vocab as a dict and the merges as (first, second) tuples, #version skipped"""
    vocab_json = '{"d": 0, "o": 1, "g": 2, "do": 3, "dog": 4, "Ġ": 5, "Ġdog": 6, "ß": 7}'.encode()
    merges_txt = "#version: 0.2\nd o\ndo g\nĠ dog\n".encode()
    got = loaded(submission, {"vocab.json": vocab_json, "merges.txt": merges_txt})
    merges = got[1] if isinstance(got, tuple) and len(got) == 2 and isinstance(got[1], list) else []
    if merges and merges[0] == ("#version:", "0.2"):
        assert merges[0] != ("#version:", "0.2"), hint(
            'the first merge is ("#version:", "0.2"): a first line starting with #version is a header, not a merge;'
            " skip it",
            fix="version_line",
        )
    assert got == (
        {"d": 0, "o": 1, "g": 2, "do": 3, "dog": 4, "Ġ": 5, "Ġdog": 6, "ß": 7},
        [
            ("d", "o"),
            ("do", "g"),
            ("Ġ", "dog"),
        ],
    ), hint('return (vocab, merges): read both files as UTF-8, skip "#version", one tuple per merge line')


@pytest.mark.rules("version_line")
@pytest.mark.points(2)
def test_keeps_the_first_and_last_merges(submission):
    """load keeps every merge of a file with no #version line or no newline at its end, and merges that start
    with #"""
    got = loaded(submission, {"vocab.json": b'{"x": 0, "y": 1, "xy": 2, "yxy": 3}', "merges.txt": b"x y\ny xy"})
    assert got == ({"x": 0, "y": 1, "xy": 2, "yxy": 3}, [("x", "y"), ("y", "xy")]), hint(
        "skip the first line only when it starts with #version; keep a last line even without a newline"
    )
    hashes = {
        "vocab.json": '{"#": 0, "Ġ": 1, "##": 2, "Ġ##": 3}'.encode(),
        "merges.txt": "#version: 0.2\n# #\nĠ ##\n".encode(),
    }
    assert loaded(submission, hashes)[1] == [("#", "#"), ("Ġ", "##")], hint(
        'only a first line that starts with #version is skipped: "# #" is a merge (GPT-2 has it), not a comment'
    )


@pytest.mark.rules("vocab", "merges")
@pytest.mark.points(2)
def test_reads_gpt2(submission):
    """load reads GPT-2's own vocab.json and merges.txt, cut to their first 1,000 merges"""
    vocab, merges = loaded(submission, gpt2_files(1000))
    assert (len(vocab), len(merges)) == (1257, 1000), hint("1,000 merges make 1,000 tokens, after the 256 bytes")
    assert (vocab, merges) == gpt2(1000), hint("read the files as UTF-8, every line a merge")
