import pytest

from autograder.testing.author_api import CallFolder, gpt2, gpt2_files, hint

SMALL_VOCAB = b'{"l": 0, "o": 1, "w": 2, "\\u0120": 3, "lo": 4, "low": 5, "\\u0120low": 6, "\xc3\xa9": 7}'
SMALL_MERGES = "#version: 0.2\nl o\nlo w\nĠ low\n".encode()


def load_from(submission, files, folder="tokenizer-files"):
    record = submission.real_tokenizer.load.in_folder(CallFolder(folder, files))(folder)
    return record.returned


@pytest.mark.rules("vocab", "merges")
@pytest.mark.points(2)
def test_reads_a_small_tokenizers_two_files(submission):
    """load reads vocab.json into a dict and merges.txt into a list of pairs, in their order"""
    got = load_from(submission, {"vocab.json": SMALL_VOCAB, "merges.txt": SMALL_MERGES})
    assert isinstance(got, tuple) and len(got) == 2, hint("return the tuple (vocab, merges)")
    vocab, merges = got
    assert vocab == {"l": 0, "o": 1, "w": 2, "Ġ": 3, "lo": 4, "low": 5, "Ġlow": 6, "é": 7}, hint(
        'json.loads the text of vocab.json, read with encoding="utf-8"', fix="vocab"
    )
    first = merges[0] if isinstance(merges, list) and merges else None
    if isinstance(first, (tuple, list)) and first and str(first[0]).startswith("#version"):
        assert merges == [("l", "o"), ("lo", "w"), ("Ġ", "low")], hint(
            "the first line, #version, is no merge: skip it", fix="version_line"
        )
    assert merges == [("l", "o"), ("lo", "w"), ("Ġ", "low")], hint(
        "one (first, second) tuple per line after #version, in the file's order", fix="merges"
    )


@pytest.mark.rules("version_line")
@pytest.mark.points(2)
def test_keeps_every_merge_whatever_the_first_and_last_lines(submission):
    """load keeps a first merge when there is no #version line, and reads a last line with no newline"""
    got = load_from(submission, {"vocab.json": b'{"a": 0, "b": 1, "ab": 2, "abb": 3}', "merges.txt": b"a b\nab b"})
    assert got == ({"a": 0, "b": 1, "ab": 2, "abb": 3}, [("a", "b"), ("ab", "b")]), hint(
        "skip the first line only when it starts with #version, and keep a last line that has no newline"
    )


@pytest.mark.rules("vocab", "merges", "version_line")
@pytest.mark.points(2)
def test_reads_gpt2s_own_files(submission):
    """load reads GPT-2's own files, cut to their first 5,000 merges and the tokens they make"""
    vocab, merges = load_from(submission, gpt2_files(5000), folder="gpt2")
    expected_vocab, expected_merges = gpt2(5000)
    assert vocab == expected_vocab, hint("read vocab.json as UTF-8 JSON, as it is", fix="vocab")
    kept = {tuple(merge) for merge in merges if isinstance(merge, (tuple, list))} if isinstance(merges, list) else set()
    lost = [merge for merge in expected_merges if merge not in kept]
    if lost and all(merge[0].startswith("#") for merge in lost):
        assert merges == expected_merges, hint(
            f"{' '.join(lost[0])!r} is a merge, not a comment: skip only the first line, when it starts with #version",
            fix="version_line",
        )
    assert merges == expected_merges, hint("one merge per line of merges.txt after #version, none dropped at the end")
