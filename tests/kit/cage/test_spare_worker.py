"""A batch's grader starts the next hand-in's worker while it grades this one (``Grader(spares=True)``).

A spare holds nothing of anyone's until it is given its hand-in, is given that hand-in's files alone,
is used only under the limits it was made for, and is gone when its grader ends.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from autograder.cage import starting
from autograder.cage.cage_limits import CageLimits
from autograder.cage.isolation import isolation
from autograder.cage.starting import start_worker
from autograder.hand_in import loading
from autograder.hand_in.loaded import LoadedHandIn
from autograder.testing.grader import Grader
from autograder.testing.proxy import GradingSession

SOURCE = "import os\ndef char_tokenize(text):\n    return [text, *sorted(os.listdir('.'))]\n"


def hand_in(folder: Path, extra: str) -> LoadedHandIn:
    folder.mkdir()
    (folder / "simple_tokenizers.py").write_text(SOURCE, encoding="utf-8")
    (folder / extra).write_text("mine", encoding="utf-8")
    return loading.load(folder)


def answer(started: starting.StartedWorker, text: str) -> list[str]:
    """What the hand-in's char_tokenize returns for ``text``: the text, then the files in its folder."""
    try:
        record = GradingSession(started.worker, started.limits).call("simple_tokenizers", "char_tokenize", (text,), {})
        return list(record.returned)
    finally:
        started.worker.stop()
        started.cage.remove()


pytestmark = pytest.mark.skipif(
    not isolation().full, reason="spares are kept in the sandbox only (the process cage's hand-ins could reach them)"
)


@pytest.fixture
def grader():
    with Grader(spares=True) as opened:
        yield opened


def test_the_next_hand_in_gets_the_spare_with_its_own_files_alone(tmp_path, grader):
    limits = CageLimits()
    first = start_worker(hand_in(tmp_path / "ada", "ada.txt"), limits, grader=grader)
    spare = grader.spare
    assert spare is not None and spare.worker.process is not None and spare.worker.process.poll() is None
    copy = spare.cage.submission if spare.cage.level.full else spare.cage.work
    assert list(copy.iterdir()) == [], "a spare holds nothing of anyone's before its hand-in"
    assert answer(first, "a")[:1] == ["a"]
    second = start_worker(hand_in(tmp_path / "bob", "bob.txt"), limits, grader=grader)
    assert second.worker is spare.worker and grader.spare is not spare, "taken, and another one made"
    returned = answer(second, "b")
    assert returned[0] == "b" and "bob.txt" in returned and "ada.txt" not in returned


def test_a_spare_made_for_other_limits_is_not_used_and_is_removed(tmp_path):
    with Grader(spares=True) as grader:
        start_worker(hand_in(tmp_path / "ada", "ada.txt"), CageLimits(), grader=grader).worker.stop()
        spare = grader.spare
        assert spare is not None
        grader.spares = False
        other = start_worker(hand_in(tmp_path / "bob", "bob.txt"), CageLimits(call_seconds=3), grader=grader)
        assert other.worker is not spare.worker and grader.spare is None
    assert not spare.cage.root.exists() and spare.worker.process is None
    assert answer(other, "b")[0] == "b"


def test_a_grader_that_ends_leaves_no_spare_behind(tmp_path):
    """A batch's grader process: its exit stops the spare and removes its cage; nothing of it runs on."""
    (tmp_path / "ada").mkdir()
    (tmp_path / "ada" / "simple_tokenizers.py").write_text(SOURCE, encoding="utf-8")
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from autograder.testing.grader import for_this_process\n"
        "from autograder.hand_in import loading\n"
        "from autograder.cage import starting\n"
        "from autograder.cage.cage_limits import CageLimits\n"
        "grader = for_this_process(spares=True)\n"
        "started = starting.start_worker(loading.load(Path(sys.argv[1])), CageLimits(), grader=grader)\n"
        "started.worker.stop(); started.cage.remove()\n"
        "print(grader.spare.worker.process.pid, grader.spare.cage.root)\n"
    )
    ran = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "ada")], capture_output=True, text=True, timeout=120
    )
    assert ran.returncode == 0, ran.stderr
    pid, root = ran.stdout.split()
    assert not Path(root).exists(), "the spare's cage is removed at exit"
    if sys.platform.startswith("linux"):
        assert not Path(f"/proc/{pid}").exists(), "the spare's worker was stopped"


def test_a_spare_that_cannot_be_made_costs_the_hand_in_nothing(tmp_path, monkeypatch, grader):
    """A spare is a head start only: when its cage cannot be made (a full disk, say), this hand-in's
    worker is still handed back, working, and the next hand-in starts its own."""
    made = starting.Cage.create

    def no_room_for_a_spare(files, *, limits):
        if files is None:
            raise OSError(28, "No space left on device")
        return made(files, limits=limits)

    monkeypatch.setattr(starting.Cage, "create", no_room_for_a_spare)
    started = start_worker(hand_in(tmp_path / "ada", "ada.txt"), CageLimits(), grader=grader)
    assert grader.spare is None
    assert answer(started, "a")[0] == "a"
