import pytest

from autograder.testing.proxy import CallFolder
from autograder.testing.rubric import hint
from autograder.testing.tokenizer_files import TokenizerFileError, read_merges, read_vocab

VOCAB = {"d": 0, "o": 1, "g": 2, "ß": 3, "Ġ": 4, "do": 5, "dog": 6, "Ġdog": 7}
MERGES = [("d", "o"), ("do", "g"), ("Ġ", "dog")]


def written(submission, folder="new-folder/tokenizer", there=None):
    """The files save writes into ``folder``, which holds the files ``there`` before the call (none: no folder)."""
    record = submission.real_tokenizer.save.in_folder(CallFolder(folder, there or {}, collect=True))(
        folder, VOCAB, MERGES
    )
    files = record.files or {}
    assert {"vocab.json", "merges.txt"} <= set(files), hint(
        "write vocab.json and merges.txt into the folder, making it (and its parents) if missing"
    )
    return files


@pytest.mark.rules("reads_back", "folder")
@pytest.mark.points(2)
def test_what_is_saved_reads_back(submission):
    """save writes vocab.json and merges.txt, in a folder it makes, that read back as what was saved"""
    files = written(submission)
    try:
        vocab, merges = read_vocab(files["vocab.json"]), read_merges(files["merges.txt"])
    except TokenizerFileError as error:
        raise AssertionError(hint(str(error))) from None
    assert (vocab, merges) == (VOCAB, MERGES), hint("the whole vocab as JSON; one merge a line, in order")


@pytest.mark.rules("format")
@pytest.mark.points(2)
def test_merges_txt_is_in_gpt2s_format(submission):
    """save writes "#version: 0.2" first, then each merge as "first second" on a line of its own"""
    files = written(submission)
    assert files["merges.txt"].decode("utf-8", "replace").split("\n") == [
        "#version: 0.2",
        "d o",
        "do g",
        "Ġ dog",
        "",
    ], hint('"#version: 0.2\\n", then f"{first} {second}\\n" for each merge, written as UTF-8')


@pytest.mark.rules("folder")
@pytest.mark.points(2)
def test_saving_twice_into_one_folder_gives_the_same_files(submission):
    """save run twice into one folder (the docstring's example, twice) writes the same two files the second time"""
    first = written(submission, "my-tokenizer")
    again = written(submission, "my-tokenizer", there=first)
    assert again == first, hint(
        'the folder may exist already: make it with exist_ok=True, and open each file with "w" to replace it'
    )
