"""What a process keeps so the next need not compute it again: a suite's points (points_cache), a speed test's
yardstick in a batch (yardsticks). Each is kept only for what it was computed from."""

from __future__ import annotations

from autograder.scoring import points_cache
from autograder.testing.yardsticks import SHARED_VARIABLE, once_a_batch


def test_a_batch_times_a_yardstick_once_for_all_its_graders(tmp_path, monkeypatch):
    monkeypatch.setenv(SHARED_VARIABLE, str(tmp_path))
    timed: list[float] = []

    def slow_way() -> float:
        timed.append(0.25)
        return 0.25

    first_grader, second_grader = once_a_batch(slow_way), once_a_batch(slow_way)  # each process wraps its own
    assert first_grader() == second_grader() == 0.25
    assert len(timed) == 1, "the second grader reads the first one's figure"


def test_without_a_batch_each_process_times_its_own_once(monkeypatch):
    monkeypatch.delenv(SHARED_VARIABLE, raising=False)
    timed: list[float] = []

    def slow_way() -> float:
        timed.append(0.5)
        return 0.5

    first_process, second_process = once_a_batch(slow_way), once_a_batch(slow_way)
    assert first_process() == first_process() == second_process() == 0.5
    assert len(timed) == 2, "once per process, none shared"


def test_a_suites_points_are_kept_until_the_suite_changes(tmp_path):
    suite = tmp_path / "hidden"
    (suite / "bpe").mkdir(parents=True)
    test_file = suite / "bpe" / "test_merge_pair.py"
    test_file.write_text("def test_one(submission):\n    pass\n", encoding="utf-8")
    tests = [("bpe", "merge_pair", "test_one", 2.0)]
    points_cache.save(suite, tests, frozenset({("bpe", "merge_pair")}))
    assert points_cache.load(suite) == (tests, frozenset({("bpe", "merge_pair")}))
    test_file.write_text("def test_one(submission):\n    pass\n\n\ndef test_two(submission):\n    pass\n", "utf-8")
    assert points_cache.load(suite) is None, "a suite changed since is collected again"
