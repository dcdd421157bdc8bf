import pytest

from autograder.testing.author_api import CallFolder, StudentRaised, TokenizerFileError, hint, read_merges, read_vocab

VOCAB = {"d": 0, "o": 1, "g": 2, "ß": 3, "Ġ": 4, "do": 5, "dog": 6, "Ġdog": 7}
MERGES = [("d", "o"), ("do", "g"), ("Ġ", "dog")]

# Why save raised, by the error and whether its folder was missing (True) or there already (False).
FOLDER_RAISES = {
    ("FileNotFoundError", True): "the folder is not there yet: make it, and the folders above it, before writing"
    " into it (os.makedirs)",
    ("FileExistsError", False): "the folder is there already: use it as it is (os.makedirs(folder, exist_ok=True))",
}


def written(submission, folder="new-folder/tokenizer", there=None):
    """The files save writes into ``folder``, which holds the files ``there`` before the call (none: no folder)."""
    try:
        record = submission.real_tokenizer.save.in_folder(CallFolder(folder, there or {}, collect=True))(
            folder, VOCAB, MERGES
        )
    except StudentRaised as error:
        # The test knows what it gave: a folder that is not there yet, or one that is, with the files in it.
        why = FOLDER_RAISES.get((error.error_type, there is None))
        if why is None:
            raise
        raise AssertionError(hint(f"save({folder!r}, ...) raised {error.error_type}: {why}", fix="folder")) from None
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
    lines = files["merges.txt"].decode("utf-8", "replace").splitlines()[1:]
    shaped = [line for line in lines if line.count(" ") != 1 or line[:1] in "('\"["]
    if shaped:
        assert (vocab, merges) == (VOCAB, MERGES), hint(
            f'the merge line {shaped[0]!r} is not first, one space, second: write f"{{first}} {{second}}\\n" for'
            " each merge, no brackets or quotes",
            fix="format",
        )
    assert (vocab, merges) == (VOCAB, MERGES), hint(
        "the whole vocab as JSON; one merge a line, in order", fix="reads_back"
    )


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
