"""Recorded inputs are worth nothing next time: the hidden properties draw one of several example sets,
chosen by the hand-in's content and the course's secret; the same hand-in always draws the same."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from classroom import SOLUTIONS

from autograder.cage.cage_limits import CageLimits
from autograder.grading.hand_in import grade_loaded
from autograder.hand_in.loading import load
from autograder.scoring.grade_result import GradeResult
from autograder.testing import example_sets
from autograder.testing.grader import Grader
from autograder.testing.replay import Recorded
from autograder.testing.suites import suite_path


@pytest.mark.unit
def test_a_hand_ins_set_follows_its_content_and_the_secret():
    secret, other = b"one course", b"another course"
    chosen = [example_sets.example_set(secret, f"{number:064x}") for number in range(400)]
    assert set(chosen) == set(range(example_sets.SETS)), "every set is used"
    assert chosen == [example_sets.example_set(secret, f"{number:064x}") for number in range(400)], "and the same"
    assert chosen != [example_sets.example_set(other, f"{number:064x}") for number in range(400)]
    assert example_sets.seed(secret, 0) != example_sets.seed(secret, 1) != example_sets.seed(other, 1)


@pytest.mark.unit
def test_a_secret_is_made_once_beside_the_kit_and_kept_from_others(tmp_path, monkeypatch):
    monkeypatch.delenv(example_sets.SECRET_VARIABLE)
    first = example_sets.course_secret(tmp_path)
    assert example_sets.course_secret(tmp_path) == first and len(first) == 64
    assert (tmp_path / example_sets.SECRET_FILE).stat().st_mode & 0o077 == 0


@pytest.mark.unit
def test_two_graders_making_the_secret_at_once_both_read_the_one_made(tmp_path, monkeypatch):
    """Shards starting together on a fresh clone each find no secret and make one: the one that loses must
    read the winner's whole secret, never a file still being written (an empty secret) or its own."""
    monkeypatch.delenv(example_sets.SECRET_VARIABLE)
    made = example_sets.secrets.token_hex
    arrived: list[str] = []
    other: list[bytes] = []

    def another_grader_arrives(size: int) -> str:
        """Making this grader's secret, another grader asks for the course's secret (once)."""
        if not arrived:
            arrived.append("the other grader")
            other.append(example_sets.course_secret(tmp_path))
        return made(size)

    monkeypatch.setattr(example_sets.secrets, "token_hex", another_grader_arrives)
    first = example_sets.course_secret(tmp_path)
    assert len(first) == 64 and other == [first], "both read one whole secret"
    assert [path.name for path in tmp_path.iterdir()] == [example_sets.SECRET_FILE], "and left nothing else"


@pytest.mark.unit
def test_an_empty_secret_file_is_refused_naming_it_and_the_fix(tmp_path, monkeypatch):
    monkeypatch.delenv(example_sets.SECRET_VARIABLE)
    (tmp_path / example_sets.SECRET_FILE).write_text("\n", encoding="ascii")
    with pytest.raises(example_sets.SecretUnreadable, match=r"\.course-secret is empty: delete it to make a new"):
        example_sets.course_secret(tmp_path)


def drawn(folder: Path) -> dict[str, list[bytes]]:
    """The examples each hidden property of Part 2 drew for the hand-in in ``folder``, graded in this process."""
    with Grader() as grader:
        hidden = suite_path("hidden")
        document = grade_loaded(load(folder), hidden, limits=CageLimits(), grader=grader, only=(hidden / "bpe",))
    assert document.score > 0
    return dict(grader.examples.examples)


def hand_in(tmp_path: Path, comment: str) -> Path:
    """The reference's Part 2 with ``comment`` appended: the same answers, other bytes."""
    folder = tmp_path / f"hand-in-{len(list(tmp_path.iterdir()))}"
    folder.mkdir()
    shutil.copy(SOLUTIONS / "bpe.py", folder / "bpe.py")
    with (folder / "bpe.py").open("a", encoding="utf-8") as source:
        source.write(f"\n{comment}\n")
    return folder


def example_set(examples: dict[str, list[bytes]]) -> set[str]:
    return {key.rsplit("@", 1)[1] for key in examples}


@pytest.mark.slow
def test_two_hand_ins_draw_different_examples_and_one_always_the_same(tmp_path):
    mine = hand_in(tmp_path, "# mine")
    first, again = drawn(mine), drawn(mine)
    assert first == again, "the same hand-in draws the same examples"
    # Which set a hand-in falls in follows from its bytes, so any edit of the reference can move "# mine":
    # take the first of a few other comments that falls in another set.
    for number in range(8):
        other = drawn(hand_in(tmp_path, f"# mine, with comment {number} changed"))
        if example_set(other) != example_set(first):
            break
    else:
        pytest.fail("eight other hand-ins all fell in the first one's set")
    shared = {key.rsplit("@", 1)[0] for key in first} & {key.rsplit("@", 1)[0] for key in other}
    assert shared, "the same properties ran"
    first_by_test = {key.rsplit("@", 1)[0]: value for key, value in first.items()}
    other_by_test = {key.rsplit("@", 1)[0]: value for key, value in other.items()}
    assert all(first_by_test[test] != other_by_test[test] for test in shared), "each drew other examples"


@pytest.mark.unit
def test_the_speed_tests_inputs_follow_the_hand_ins_draw_too():
    """Part 3's and Part 5's speed tests make their own inputs: from the hand-in's seed as well."""
    import importlib.util

    for relative, make in (
        ("fast_bpe/test_train_bpe.py", "speed_table"),
        ("word_bpe/test_encode_by_rank.py", "speed_text"),
    ):
        spec = importlib.util.spec_from_file_location(f"hidden_{make}", suite_path("hidden") / relative)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        made = getattr(module, make)
        one, other = example_sets.seed(b"a course", 0), example_sets.seed(b"a course", 1)
        assert made(0, one) == made(0, one) and made(0, one) != made(0, other) and made(0, one) != made(1, one)


def test_a_draw_is_kept_for_the_next_process_and_gives_the_same_grade(tmp_path, monkeypatch):
    """Each example set is drawn once a course: a second grader (another process, a later batch) replays what
    the first drew from the store, draws nothing, and grades alike; a store that is not sound is drawn anew."""
    from autograder.testing import example_store

    monkeypatch.setenv(example_store.STORE_VARIABLE, str(tmp_path / "store"))

    def graded() -> tuple[Grader, GradeResult]:
        with Grader() as grader:
            hidden = suite_path("hidden")
            result = grade_loaded(load(SOLUTIONS), hidden, limits=CageLimits(), grader=grader, only=(hidden / "bpe",))
        return grader, result

    first, result = graded()
    kept = sorted((tmp_path / "store").iterdir())
    assert kept and len(kept) == len(first.examples.examples), "every property's draw is kept"
    assert all(path.stat().st_mode & 0o077 == 0 for path in [tmp_path / "store", *kept]), "the grader's alone"

    recorded: list[str] = []
    monkeypatch.setattr(Recorded, "end", recording_ends(Recorded.end, recorded))
    second, again = graded()
    assert recorded == [], "nothing drawn again"
    assert second.examples.examples == first.examples.examples and again.tests == result.tests

    for path in kept:  # not a store's file any more: ignored, drawn again, written anew
        path.write_bytes(b"\x00 not marshal")
    third, once_more = graded()
    assert len(recorded) == len(kept) and once_more.tests == result.tests
    assert third.examples.examples == first.examples.examples


def recording_ends(end, recorded: list[str]):
    """``Recorded.end``, noting each key whose examples it keeps from a draw."""

    def noting(self, key, test, passed, *, lasting=False):
        if passed and test.hypothesis.inner_test.into is not None:
            recorded.append(key)
        return end(self, key, test, passed, lasting=lasting)

    return noting


@pytest.mark.unit
def test_no_store_for_the_public_suite_or_a_secret_from_the_environment(tmp_path, monkeypatch):
    from autograder.testing import example_store

    monkeypatch.delenv(example_store.STORE_VARIABLE, raising=False)
    assert example_store.store_folder(tmp_path) is None, "the kit's tests (a secret in the environment) keep none"
    monkeypatch.delenv(example_sets.SECRET_VARIABLE)
    assert example_store.store_folder(tmp_path) == tmp_path / example_store.STORE_FOLDER
    monkeypatch.setenv(example_store.STORE_VARIABLE, str(tmp_path / "named"))
    assert example_store.ExampleStore.for_suite(suite_path("public")) is None, "students' examples are fixed"
