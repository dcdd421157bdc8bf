"""A streamed call (Part 6's chunk_text): the worker feeds an iterable argument piece by piece and reads the
iterator answer, telling the grader how many pieces had been read as each item came."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from classroom import SOLUTIONS
from commands import grade
from results import function_scores

from autograder.cage.inside import streams


def chunks_of(
    pieces: list[str], *, endless: bool = False, take: int | None = None, most: int = 100
) -> tuple[list[Any], dict[str, Any]]:
    """What the worker's side of a streamed call tells of a lazy chunker that yields each piece with a newline
    in it, as soon as it reads it."""

    def lazy(fed: Iterator[str]) -> Iterator[str]:
        for piece in fed:
            if "\n" in piece:
                yield piece

    stream = {"arg": 0, "endless": endless, "take": take, "most": most}
    given, feed = streams.prepared([pieces, 3], stream)
    assert given[1] == 3 and given[0] is not pieces, "the other arguments are passed as they are"
    return streams.taken(lazy(given[0]), feed, stream)


@pytest.mark.unit
def test_each_item_comes_with_the_count_of_pieces_read_before_it():
    items, told = chunks_of(["a", "b\n", "c", "d", "e\n", "f"])
    assert items == ["b\n", "e\n"]
    assert told == {"read": [2, 5], "ended": True}


@pytest.mark.unit
def test_an_endless_stream_is_read_until_take_items_came():
    items, told = chunks_of(["x", "y\n"], endless=True, take=3)
    assert items == ["y\n"] * 3
    assert told == {"read": [2, 4, 6], "ended": False}


@pytest.mark.unit
def test_reading_an_endless_stream_past_the_bound_with_no_item_out_raises_into_the_function():
    stream = {"arg": 0, "endless": True, "take": 1, "most": 50}
    given, feed = streams.prepared([["no newline "]], stream)
    with pytest.raises(streams.ReadTooFar, match="read 50 pieces"):
        streams.taken(iter(["".join(given[0])]), feed, stream)  # an eager join never ends without the bound
    assert feed.read == 50


@pytest.mark.slow
def test_a_chunker_that_reads_everything_first_loses_the_lazy_points_and_the_reference_none(tmp_path):
    """Through a real worker: the reference earns chunk_text's points; the same function made eager (it
    reads all the pieces, then yields) loses the endless stream's test, which fails at once, not at the
    time limit."""
    for name, eager in (("reference", False), ("eager", True)):
        folder = tmp_path / name
        shutil.copytree(SOLUTIONS, folder)
        module = folder / "real_tokenizer.py"
        if eager:
            text = module.read_text(encoding="utf-8")
            module.write_text(text.replace("    for piece in pieces:\n", "    for piece in list(pieces):\n", 1))
        process, document = grade(folder, "--part", "real_tokenizer", "--no-cache", timeout=600)
        assert process.returncode in (0, 1), process.stderr
        earned, worth = function_scores(document)[("real_tokenizer", "chunk_text")]
        assert (earned == worth) is not eager, (name, earned, worth)
        if eager:
            lazy = [test for test in document["tests"] if "endless" in test["name"]]
            assert lazy and lazy[0]["score"] == 0 and "for ever" in lazy[0]["extra_data"]["hint"]
