"""A call's folder (Part 6's load and save): the worker writes the grader's files for one call and sends back
what the call wrote, and nothing a student leaves there reaches further than the student's own files."""

from __future__ import annotations

import json
import os

import pytest
from classroom import SOLUTIONS
from commands import grade
from results import function_scores

from autograder.cage.inside import call_folders

# The policy refuses os.symlink before any of this runs; these test the layer under it, which must hold anyway.
pytestmark = pytest.mark.without_policy


@pytest.mark.unit
def test_a_calls_folder_holds_only_its_files_and_a_link_there_is_removed_not_followed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "kept.txt").write_text("the student's own", encoding="utf-8")
    os.makedirs("calls/one")
    (tmp_path / "calls" / "one" / "old.txt").write_text("from an earlier call", encoding="utf-8")
    (tmp_path / "calls" / "one" / "link").symlink_to(outside)
    call_folders.prepare("calls/one", {"vocab.json": b"{}", "merges.txt": b"#version: 0.2\n"})
    assert sorted(os.listdir("calls/one")) == ["merges.txt", "vocab.json"]
    assert (outside / "kept.txt").read_text(encoding="utf-8") == "the student's own"
    os.symlink(outside, "calls/two")
    call_folders.prepare("calls/two", {})
    assert not os.path.lexists("calls/two") and (outside / "kept.txt").exists(), "no files: no folder, link gone"


@pytest.mark.unit
def test_what_a_folder_sends_back_is_its_regular_files_within_the_limit(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert call_folders.collect("never-made") == {}
    os.makedirs("saved/inner")
    (tmp_path / "saved" / "vocab.json").write_bytes(b'{"a": 0}')
    (tmp_path / "saved" / "merges.txt").symlink_to(tmp_path / "saved" / "vocab.json")
    assert call_folders.collect("saved") == {"vocab.json": b'{"a": 0}'}, "links and folders are left out"
    monkeypatch.setattr(call_folders, "MAX_BYTES", 4)
    with pytest.raises(call_folders.FolderError, match="more than"):
        call_folders.collect("saved")


@pytest.mark.unit
@pytest.mark.parametrize("name", ["/etc", "../up", "a/../b", "", "a//b", 3])
def test_a_folder_name_outside_the_working_folder_is_refused(name):
    with pytest.raises(call_folders.FolderError):
        call_folders.checked_name(name)


SAVE_THROUGH_A_LINK = """

def save(folder, vocab, merges):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "elsewhere.json"), "w", encoding="utf-8") as file:
        json.dump(vocab, file)
    if os.path.lexists(os.path.join(folder, "vocab.json")):  # saved before into this folder: the link again
        os.remove(os.path.join(folder, "vocab.json"))
    os.symlink("elsewhere.json", os.path.join(folder, "vocab.json"))
    with open(os.path.join(folder, "merges.txt"), "w", encoding="utf-8") as file:
        file.write("#version: 0.2\\n" + "".join(f"{a} {b}\\n" for a, b in merges))
"""


def test_a_file_saved_as_a_link_is_not_read_back_and_loses_saves_points(tmp_path):
    """The grader reads back regular files only: a vocab.json that is a link does not count as written."""
    source = (SOLUTIONS / "real_tokenizer.py").read_text(encoding="utf-8") + SAVE_THROUGH_A_LINK
    (tmp_path / "real_tokenizer.py").write_text(source, encoding="utf-8")
    process, document = grade(tmp_path, "--part", "real_tokenizer", "--no-cache")
    assert process.returncode in (0, 1), process.stderr
    scores = function_scores(document)
    assert scores[("real_tokenizer", "save")][0] == 0
    assert scores[("real_tokenizer", "load")] == (6, 6), "load is graded with the grader's own files"
    failed = [test["output"] for test in document["tests"] if test["status"] != "passed"]
    assert all("save must write vocab.json" in output for output in failed), json.dumps(failed)[:2000]
