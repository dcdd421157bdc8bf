import json

import pytest

from autograder.testing.author_api import CallFolder, TokenizerFileError, gpt2, hint, read_merges, read_vocab

VOCAB = {"c": 0, "a": 1, "t": 2, "é": 3, "Ġ": 4, "at": 5, "cat": 6, "Ġcat": 7, '"q"': 8}
MERGES = [("a", "t"), ("c", "at"), ("Ġ", "cat")]


def both_written(files):
    """``files``, where save wrote both of its files (as regular files: the grader reads back nothing else)."""
    missing = [name for name in ("vocab.json", "merges.txt") if name not in files]
    assert not missing, hint(f"save must write {' and '.join(missing)} into the folder it is given")
    return files


def saved(submission, vocab, merges, folder="saved-tokenizer"):
    """What the student's save wrote, as the grader reads it: (vocab, merges, the files' bytes)."""
    record = submission.real_tokenizer.save.in_folder(CallFolder(folder, collect=True))(folder, vocab, merges)
    files = both_written(record.files or {})
    try:
        return read_vocab(files["vocab.json"]), read_merges(files["merges.txt"]), files
    except TokenizerFileError as error:
        raise AssertionError(hint(f"{error}: see the docstring's format")) from None


@pytest.mark.rules("reads_back")
@pytest.mark.points(2)
def test_writes_files_that_read_back_as_what_was_saved(submission):
    """save writes vocab.json and merges.txt that read back as the same vocab and merges"""
    vocab, merges, _ = saved(submission, VOCAB, MERGES)
    assert vocab == VOCAB, hint("json.dump the whole vocab, as one object from token to id, in UTF-8")
    assert merges == MERGES, hint(
        "one line per merge, its two tokens and one space between them, in order", fix="format"
    )


@pytest.mark.rules("format")
@pytest.mark.points(2)
def test_writes_merges_txt_in_gpt2s_format(submission):
    """save writes merges.txt as "#version: 0.2", then "first second" a line, each line ending in a newline"""
    _, _, files = saved(submission, VOCAB, MERGES)
    assert files["merges.txt"] == "#version: 0.2\na t\nc at\nĠ cat\n".encode(), hint(
        'the first line is "#version: 0.2"; then f"{first} {second}\\n" for each merge, in UTF-8'
    )


@pytest.mark.rules("reads_back")
@pytest.mark.points(1)
def test_saves_gpt2s_own_tokenizer(submission):
    """save writes GPT-2's first 2,000 merges and their tokens so that they read back unchanged"""
    vocab, merges = gpt2(2000)
    got_vocab, got_merges, _ = saved(submission, vocab, merges, folder="gpt2-saved")
    assert got_vocab == vocab, hint("write every token and id of the vocab, in UTF-8")
    assert got_merges == merges, hint("write every merge, in order")


@pytest.mark.rules("folder", "reads_back")
@pytest.mark.points(1)
def test_saving_into_a_folder_that_holds_a_tokenizer_replaces_its_files(submission):
    """save into a folder that already holds a longer tokenizer's two files replaces them, and keeps the folder"""
    older = {
        "vocab.json": json.dumps({f"older token {index}": index for index in range(40)}).encode(),
        "merges.txt": b"#version: 0.2\n" + "".join(f"o{index} t\n" for index in range(40)).encode(),
        "README.md": b"notes kept beside the files",
    }
    folder = CallFolder("tokenizer", older, collect=True)
    record = submission.real_tokenizer.save.in_folder(folder)("tokenizer", VOCAB, MERGES)
    after = both_written(dict(record.files or {}))
    assert after.get("merges.txt") == "#version: 0.2\na t\nc at\nĠ cat\n".encode(), hint(
        'open each file with "w", which replaces what was there: appending keeps the older merges', fix="folder"
    )
    try:
        assert read_vocab(after["vocab.json"]) == VOCAB, hint(
            'write vocab.json with "w": nothing of the older file stays'
        )
    except TokenizerFileError as unreadable:
        raise AssertionError(hint(f"{unreadable}: write vocab.json afresh, as one JSON object")) from None
    assert after.get("README.md") == b"notes kept beside the files", hint("leave the folder's other files alone")
