"""The watchdog over a container cage's folders: past the total it ends the worker once, and counts empty
files too. The whole, in a real container against a 1 GiB flood, is test_container_batch."""

from __future__ import annotations

import threading
import time

import pytest

from autograder.cage import disk_watch

pytestmark = pytest.mark.unit


def test_files_of_no_size_still_count_a_block_each(tmp_path):
    for number in range(10):
        (tmp_path / f"empty-{number}").touch()
    (tmp_path / "inner").mkdir()
    assert disk_watch.used_bytes([tmp_path]) >= 11 * disk_watch.SMALLEST_ENTRY


def test_past_the_total_the_watch_ends_the_writer_once_and_says_so(tmp_path):
    ended = threading.Event()
    calls = []

    def end() -> None:
        calls.append(time.monotonic())
        ended.set()

    watch = disk_watch.DiskWatch([tmp_path], 1 << 20, end)
    try:
        for number in range(8):  # 2 MiB in all, in files of 256 KiB
            (tmp_path / f"piece-{number}").write_bytes(b"x" * (256 << 10))
        assert ended.wait(timeout=60), "not ended past its total"
        time.sleep(10 * disk_watch.LOOK_SECONDS)  # further looks, still past the total
    finally:
        watch.stop()
    assert watch.exceeded and len(calls) == 1


def test_within_the_total_the_watch_ends_nothing(tmp_path):
    watch = disk_watch.DiskWatch([tmp_path], 1 << 20, lambda: pytest.fail("ended within its total"))
    (tmp_path / "small").write_bytes(b"x" * 1000)
    time.sleep(10 * disk_watch.LOOK_SECONDS)
    watch.stop()
    assert not watch.exceeded
