"""The runner: suites graded one after another stay apart, and what a test declares reaches the results."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.cage.cage_limits import CageLimits
from autograder.hand_in.loading import load
from autograder.kit_root import KIT_ROOT
from autograder.scoring import points_cache
from autograder.scoring.points import suite_points
from autograder.scoring.results import build_result
from autograder.testing.grader import Grader
from autograder.testing.outcomes import GradingRun
from autograder.testing.runner import grade_hand_in

# Its hand-ins step outside the plain-Python policy on purpose, to test the worker and the cage.
pytestmark = pytest.mark.without_policy


def test_the_hidden_suite_after_the_public_one_runs_its_own_tests():
    """A notebook's nbgrader cell checks the public tests, then the hidden ones, in one kernel."""
    public = suite_points("public")
    hidden = suite_points("hidden")
    alone = subprocess.run(
        [
            sys.executable,
            "-c",
            "from autograder.scoring.points import suite_points\nprint(suite_points('hidden').worth)",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert hidden.worth == ast.literal_eval(alone.stdout)
    assert hidden.worth != public.worth


def grade_with_own_suite(
    tmp_path: Path,
    tests: str,
    source: str,
    *,
    limits: CageLimits | None = None,
    suite_name: str = "suite",
    module: str = "bpe",
) -> GradingRun:
    """Grade a ``module``.py holding ``source`` with a one-file suite holding ``tests`` (as
    ``module``/test_merge_pair.py); ``suite_name`` "hidden" grades it as the hidden suite (its example sets,
    failures decided apart)."""
    suite = tmp_path / suite_name
    (suite / module).mkdir(parents=True)
    (suite / module / "test_merge_pair.py").write_text("import pytest\n\n" + tests, encoding="utf-8")
    (tmp_path / "student").mkdir()
    (tmp_path / "student" / f"{module}.py").write_text(source, encoding="utf-8")
    with Grader() as grader:
        return grade_hand_in(load(tmp_path / "student"), suite, limits=limits or CageLimits(), grader=grader)


def test_a_tests_declared_visibility_and_bonus_reach_the_results(tmp_path):
    """What a test file declares (Gradescope visibility, bonus) is what results.json says of it."""
    run = grade_with_own_suite(
        tmp_path,
        "@pytest.mark.points(2)\n@pytest.mark.visibility('after_due_date')\n"
        "def test_declared(submission):\n    assert submission.bpe.merge_pair(['a', 'b'], ('a', 'b')) == ['ab']\n\n"
        "@pytest.mark.points(1)\n@pytest.mark.bonus\n"
        "def test_extra(submission):\n    assert submission.bpe.merge_pair([], ('a', 'b')) == []\n",
        (KIT_ROOT / "solutions" / "bpe.py").read_text(encoding="utf-8"),
    )
    tests = {test.test: test for test in build_result(run).tests}
    assert tests["test_declared"].visibility == "after_due_date" and tests["test_declared"].max_score == 2
    assert tests["test_extra"].max_score == 0 and tests["test_extra"].score == 1, "extra credit"


def test_a_tests_call_seconds_marker_allows_its_calls_longer(tmp_path):
    """@pytest.mark.call_seconds(s) lifts the per-call limit for that test only."""
    run = grade_with_own_suite(
        tmp_path,
        "@pytest.mark.points(1)\n@pytest.mark.call_seconds(5)\n"
        "def test_allowed(submission):\n    assert submission.bpe.merge_pair([], ('a', 'b')) == []\n\n"
        "@pytest.mark.points(1)\n"
        "def test_limited(submission):\n    assert submission.bpe.merge_pair([], ('a', 'b')) == []\n",
        "import time\n\ndef merge_pair(tokens, pair):\n    time.sleep(1)\n    return list(tokens)\n",
        limits=CageLimits(call_seconds=0.5),
    )
    outcomes = {outcome.name: outcome.outcome.value for outcome in run.outcomes}
    assert outcomes == {"test_allowed": "passed", "test_limited": "timed out"}


@pytest.mark.parametrize("ends", ["while its config is sent", "before its config is sent"])
def test_a_worker_that_cannot_start_is_the_graders_error_not_the_students(tmp_path, monkeypatch, ends):
    """A cage that fails before any student code runs (bubblewrap refused, no interpreter) costs the student
    nothing they are blamed for: every test says grader error, with what the cage said. On a busy machine
    the cage may be gone before the grader writes its config: that too (it once read as a crash)."""
    from autograder.cage.cage import Cage
    from autograder.cage.client import Worker

    said = "bwrap: Creating new namespace failed: Operation not permitted"
    monkeypatch.setattr(
        Cage, "command", lambda self: [sys.executable, "-c", f"import sys; sys.stderr.write({said!r}); sys.exit(1)"]
    )
    if ends == "before its config is sent":
        send = Worker._send

        def send_after_the_end(self, message):
            if "limits" in message and self.process is not None:
                self.process.wait()
            send(self, message)

        monkeypatch.setattr(Worker, "_send", send_after_the_end)
    run = grade_with_own_suite(
        tmp_path,
        "@pytest.mark.points(1)\ndef test_one(submission):\n    assert submission.bpe.merge_pair([], ('a', 'b')) == []\n\n"
        "@pytest.mark.points(1)\ndef test_two(submission):\n    assert submission.bpe.merge_pair(['a'], ('a', 'b')) == ['a']\n",
        (KIT_ROOT / "solutions" / "bpe.py").read_text(encoding="utf-8"),
    )
    assert {outcome.outcome.value for outcome in run.outcomes} == {"grader error"}
    assert all(said in outcome.detail and "could not start" in outcome.detail for outcome in run.outcomes)
    assert not any("your code wrote" in note for note in run.notes), "the cage's words are not the student's output"


def test_what_each_restarted_worker_writes_outside_a_call_is_said_once_with_its_count(tmp_path):
    """A function that writes to fd 2 and ends the worker does so in every test that calls it: the note
    says the words once, how many times, and still says anything else that was written."""
    run = grade_with_own_suite(
        tmp_path,
        "".join(
            f"@pytest.mark.points(1)\ndef test_{number}(submission):\n"
            f"    assert submission.bpe.merge_pair(['a'], ('a', 'b')) == ['a']\n\n"
            for number in range(4)
        )
        + "@pytest.mark.points(1)\ndef test_last(submission):\n    assert submission.bpe.merge_pair([], ('x', 'y')) == []\n",
        "import os\n\ndef merge_pair(tokens, pair):\n"
        "    if pair == ('x', 'y'):\n        os.write(2, b'something else\\n')\n        return []\n"
        "    os.write(2, b'the worker goes down\\n')\n    os._exit(3)\n",
    )
    (note,) = [note for note in run.notes if "outside of any call" in note]
    assert note.count("the worker goes down") == 1, note
    assert "4 times" in note and "something else" in note, note


@pytest.mark.parametrize("after", [1.05, 1.1])
def test_what_a_cage_that_could_not_start_writes_late_is_never_the_students(tmp_path, monkeypatch, after):
    """A cage that could not start may leave a process of its own behind (here one that lets go of the channel
    and writes ``after`` seconds later, just past the grader's wait for its last words): what it writes goes
    with the failed start, never into the student's "your code wrote this"."""
    from autograder.cage.cage import Cage

    late = f"setsid sh -c 'exec 1>&-; sleep {after}; echo bwrap: late words >&2' & exit 1"
    monkeypatch.setattr(Cage, "command", lambda self: ["/bin/sh", "-c", late])
    run = grade_with_own_suite(
        tmp_path,
        "@pytest.mark.points(1)\ndef test_one(submission):\n    assert submission.bpe.merge_pair([], ('a', 'b')) == []\n",
        (KIT_ROOT / "solutions" / "bpe.py").read_text(encoding="utf-8"),
    )
    assert {outcome.outcome.value for outcome in run.outcomes} == {"grader error"}
    assert not any("your code wrote" in note for note in run.notes), run.notes


def test_failures_after_a_passed_test_are_decided_again_in_one_fresh_worker(tmp_path, monkeypatch):
    """In the hidden suite, a test that fails in a worker that served a passing test is decided again in a
    worker that served none: a hang there at once, after a share of its limit (a hang costs its limit
    once, not twice), so that the function's later tests are not run; the other failures at the end, all in
    one fresh worker while none of them passes (one more worker for a hand-in with bugs, not one a failure),
    and their words made again alone in one more (own_words), not one a failure either."""
    from autograder.cage.client import Worker
    from autograder.testing.proxy import TAINTED_CALL_SHARE

    starts, waits = [], []
    spawn, request = Worker.spawn, Worker.request

    def counted_spawn(self):
        starts.append(1)
        return spawn(self)

    monkeypatch.setattr(Worker, "spawn", counted_spawn)

    def timed_request(self, message, timeout, *arguments, **keywords):
        if "hangs" in str(message.get("payload", "")):
            waits.append(timeout)
        return request(self, message, timeout, *arguments, **keywords)

    monkeypatch.setattr(Worker, "request", timed_request)
    suite = tmp_path / "hidden"  # the hidden suite's guard is on by its name
    (suite / "bpe").mkdir(parents=True)
    calls = {
        "passes": "assert submission.bpe.merge_pair(['a', 'b'], ('a', 'b')) == ['ab']",
        "hangs": "assert submission.bpe.get_pair_counts(['hangs']) == {}",
        "wrong": "assert submission.bpe.merge_pair(['wrong'], ('a', 'b')) == ['wrong']",
        "miscounts": "assert submission.bpe.get_pair_counts(['wrong']) == {}",
    }
    order = ["passes", "miscounts", "hangs", "hangs", "passes", "wrong", "passes", "wrong"]
    tests = "".join(
        f"@pytest.mark.points(1)\ndef test_{number}_{kind}(submission):\n    {calls[kind]}\n\n"
        for number, kind in enumerate(order)
    )
    (suite / "bpe" / "test_merge_pair.py").write_text("import pytest\n\n" + tests, encoding="utf-8")
    (tmp_path / "student").mkdir()
    (tmp_path / "student" / "bpe.py").write_text(
        "def get_pair_counts(tokens):\n    while tokens != ['wrong']:\n        pass\n    return {'w': 1}\n\n\n"
        "def merge_pair(tokens, pair):\n"
        "    if tokens == ['wrong']:\n        return ['right']\n"
        "    return [''.join(tokens)] if list(pair) == tokens else list(tokens)\n",
        encoding="utf-8",
    )
    limits = CageLimits(call_seconds=1.0)
    with Grader() as grader:
        run = grade_hand_in(load(tmp_path / "student"), suite, limits=limits, grader=grader)
    outcomes = [(outcome.name, outcome.outcome.value) for outcome in run.outcomes]
    assert outcomes == [
        ("test_0_passes", "passed"),
        ("test_1_miscounts", "failed"),  # decided after the hang below, but told only what was known before it
        ("test_2_hangs", "timed out"),
        ("test_3_hangs", "timed out"),
        ("test_4_passes", "passed"),
        ("test_5_wrong", "failed"),
        ("test_6_passes", "passed"),
        ("test_7_wrong", "failed"),
    ]
    by_name = {outcome.name: outcome for outcome in run.outcomes}
    assert "timed out after 1 s" in by_name["test_2_hangs"].detail, "the whole limit decides the hang"
    assert "was not run" in by_name["test_3_hangs"].detail, "the function's later tests are not run"
    assert by_name["test_5_wrong"].got == "['right']" and by_name["test_7_wrong"].got == "['right']"
    assert len(waits) == 2 and waits[1] == limits.call_seconds, "cut short, then decided under the whole limit"
    assert waits[0] == limits.call_seconds * TAINTED_CALL_SHARE <= limits.call_seconds / 4, (
        "a hang costs its limit once"
    )
    # The first worker; one that decides the hang, and one after the timeout ended it; one for both wrong answers;
    # one that makes the words of all three failures that said something again alone.
    assert len(starts) == 5


def test_a_speed_tests_call_in_a_tainted_worker_runs_only_as_long_as_a_pass_allows(tmp_path, monkeypatch):
    """A speed test's timed call in a worker that served a passing test is cut where it can no longer pass
    (speed_cut.passing_within: the yardstick over the target, times the noise factor), not at a share of the
    test's long limit; its failure is then decided in a fresh worker under the whole limit, with the ratio's
    words. A fast enough call passes where it is, with no second run, though the yardstick it is cut by is
    timed (half a second here) while the call is."""
    from autograder.cage.client import Worker
    from autograder.testing.rubric import NOISE_FACTOR

    waits: list[tuple[str, float]] = []
    request = Worker.request

    def timed_request(self, message, timeout, *arguments, **keywords):
        payload = str(message.get("payload", ""))
        for name in ("slow_train", "fast_train"):
            if f"{name} timed" in payload:
                waits.append((name, timeout))
        return request(self, message, timeout, *arguments, **keywords)

    monkeypatch.setattr(Worker, "request", timed_request)
    speed_test = (
        "@pytest.mark.points(1)\n@pytest.mark.call_seconds(10)\ndef test_{number}_{name}(submission):\n"
        "    problem = speed_problem(3, lambda _: submission.fast_bpe.{name}('{name} timed'),\n"
        "                            lambda _, got: None,\n"
        "                            yardstick, 10, slow_way='the recount', advice='use a heap')\n"
        "    assert not problem, hint(problem)\n\n"
    )
    tests = (
        "import time\n\nfrom autograder.testing.rubric import hint, speed_problem\n\n"
        "TIMED = []\n\n\ndef yardstick():\n    if not TIMED:\n        time.sleep(0.5)\n        TIMED.append(1.0)\n"
        "    return TIMED[0]\n\n"
        "@pytest.mark.points(1)\ndef test_0_passes(submission):\n    assert submission.fast_bpe.fast_train(1) == 1\n\n"
        + speed_test.format(number=1, name="fast_train")
        + speed_test.format(number=2, name="slow_train")
    )
    source = (
        "import time\n\n\ndef fast_train(n):\n    return n\n\n\n"
        "def slow_train(n):\n    start = time.perf_counter()\n    while time.perf_counter() - start < 0.8:\n"
        "        pass\n    return n\n"
    )
    # The hidden suite's guard is on by its name.
    run = grade_with_own_suite(tmp_path, tests, source, suite_name="hidden", module="fast_bpe")
    by_name = {outcome.name: outcome for outcome in run.outcomes}
    assert [outcome.outcome.value for outcome in run.outcomes] == ["passed", "passed", "failed"]
    assert "faster than the recount" in by_name["test_2_slow_train"].hint, by_name["test_2_slow_train"]
    cut = 1.0 / 10 * NOISE_FACTOR
    fast = [seconds for name, seconds in waits if name == "fast_train"]
    slow = [seconds for name, seconds in waits if name == "slow_train"]
    assert fast == [pytest.approx(cut)], "a fast call passes where it is, in one round"
    assert len(slow) == 2, slow
    assert slow[0] == pytest.approx(cut), "cut where it can no longer pass, not at a share of its 10 s"
    assert slow[1] == pytest.approx(10), "then decided in a fresh worker under the whole limit"


def test_a_test_decided_again_is_told_what_the_ones_decided_before_it_found_out(tmp_path):
    """Two tests of a function that answers wrongly in a tainted worker and hangs in a fresh one: deciding the
    first again finds the hang under the whole limit; the second, decided after it, is not run (a hang costs
    its limit once in the run that decides, too)."""
    suite = tmp_path / "hidden"  # the hidden suite's guard is on by its name
    (suite / "bpe").mkdir(parents=True)
    (suite / "bpe" / "test_merge_pair.py").write_text(
        "import pytest\n\n"
        "@pytest.mark.points(1)\ndef test_0_passes(submission):\n"
        "    assert submission.bpe.merge_pair(['a', 'b'], ('a', 'b')) == ['ab']\n\n"
        "@pytest.mark.points(1)\ndef test_1_counts(submission):\n"
        "    assert submission.bpe.get_pair_counts(['a']) == {}\n\n"
        "@pytest.mark.points(1)\ndef test_2_counts(submission):\n"
        "    assert submission.bpe.get_pair_counts(['b']) == {}\n",
        encoding="utf-8",
    )
    (tmp_path / "student").mkdir()
    (tmp_path / "student" / "bpe.py").write_text(
        "SEEN = []\n\n\n"
        "def merge_pair(tokens, pair):\n    SEEN.append(pair)\n    return [''.join(tokens)]\n\n\n"
        "def get_pair_counts(tokens):\n    while not SEEN:\n        pass\n    return {'x': 1}\n",
        encoding="utf-8",
    )
    with Grader() as grader:
        run = grade_hand_in(load(tmp_path / "student"), suite, limits=CageLimits(call_seconds=1.0), grader=grader)
    by_name = {outcome.name: outcome for outcome in run.outcomes}
    assert [outcome.outcome.value for outcome in run.outcomes] == ["passed", "timed out", "timed out"]
    assert "timed out after 1 s" in by_name["test_1_counts"].detail
    assert "was not run" in by_name["test_2_counts"].detail, by_name["test_2_counts"].detail


@pytest.mark.attack
def test_a_hang_on_a_call_made_of_an_earlier_answer_shows_neither_that_call_nor_its_arguments(tmp_path):
    """A call whose arguments hold an earlier call's answer is made of what student code chose: where it hangs
    (so it is not made again alone, own_words), a student's view shows neither the call nor the detail that
    quotes it, only that it ran out of time; the instructor's record keeps both."""
    from autograder.scoring.results import feedback_text

    run = grade_with_own_suite(
        tmp_path,
        "@pytest.mark.points(1)\ndef test_0_passes(submission):\n"
        "    assert submission.bpe.merge_pair(['a', 'b'], ('a', 'b')) == ['ab']\n\n"
        "@pytest.mark.points(1)\ndef test_1_hangs(submission):\n"
        "    merged = submission.bpe.merge_pair(['a', 'b'], ('x', 'y'))\n"
        "    assert submission.bpe.merge_pair(merged, ('a', 'b')) == []\n",
        "def merge_pair(tokens, pair):\n    if pair == ('x', 'y'):\n        return ['ANSWER-' + 'MADE']\n"
        "    while tokens != ['a', 'b']:\n        pass\n    return ['ab']\n",
        limits=CageLimits(call_seconds=1.0),
        suite_name="hidden",
    )
    hung = run.outcomes[1]
    assert hung.outcome.value == "timed out" and "ANSWER-MADE" in hung.call, hung
    assert hung.withheld == ("call", "detail")
    assert "ANSWER-MADE" not in feedback_text(hung) and "timed out" in feedback_text(hung)


def test_reading_the_points_leaves_none_of_the_suites_modules_loaded(monkeypatch):
    """Points are read with plain asserts (the suite collected only): a test module loaded so and kept would
    be the one a later session in the process ran (the notebook's check reuses loaded modules), and a failed
    assert there could not say what was expected and what came back."""
    monkeypatch.setattr(points_cache, "load", lambda suite: None)  # collected, not read from the last collection
    suite_points("hidden")
    assert [name for name in sys.modules if name == "hidden" or name.startswith("hidden.")] == []


# Every process a worker's call can see but its own and those above it: killed, and sent bytes on its input.
HUNTS_OTHER_PROCESSES = """import os, signal


def hunt():
    mine, above = os.getpid(), set()
    pid = mine
    while pid > 1:
        try:
            with open(f"/proc/{pid}/stat") as file:
                pid = int(file.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
        above.add(pid)
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) not in above | {mine, 1}:
            try:
                with open(f"/proc/{entry}/fd/0", "wb") as channel:
                    channel.write(b"\\x00" * 64)
            except OSError:
                pass
            try:
                os.kill(int(entry), signal.SIGKILL)
            except OSError:
                pass


"""


@pytest.mark.sandbox
@pytest.mark.parametrize(
    "ending",
    ["decided in the twin", "the tainted worker hunts for it", "the tainted worker ends itself", "the twin dies first"],
)
def test_a_failure_is_decided_in_a_worker_booted_while_the_other_tests_ran(tmp_path, monkeypatch, ending):
    """In the sandbox, the fresh worker that decides a failure from a tainted one starts booting as that failure
    is known, in a cage of its own, and is taken up booted once the other tests have run: a tainted worker that
    kills, or writes into the input of, every process it can see while the twin boots reaches nothing of it.
    One never needed (here the tainted worker ends itself, so the worker that decides is a new start anyway)
    goes with the hand-in, as does one that died before it was needed (a new worker decides then); no cage
    stays behind either way. The worker that makes the failures' words again alone (own_words) boots so too,
    as the failures are decided: where the one that decides was never taken, it is that one."""
    from engines import unavailable

    from autograder.cage.cage import Cage
    from autograder.cage.client import Worker
    from autograder.cage.isolation import isolation

    if not isolation().full:
        unavailable("needs bubblewrap's sandbox, the cage's full level: run `grade doctor` to see why it is off")
    roots: list[Path] = []
    taken: list[bool] = []
    twin, take = Cage.twin, Worker._take_twin

    def noted_twin(self):
        made = twin(self)
        roots.extend((self.root, made.root))
        return made

    def noted_take(self):
        booted = self._twin
        if booted is not None and ending.endswith("dies first"):
            booted.process.kill()
            booted.process.wait()
        taken.append(booted is not None and not booted._ended())
        return take(self)

    monkeypatch.setattr(Cage, "twin", noted_twin)
    monkeypatch.setattr(Worker, "_take_twin", noted_take)
    ends = "        import os\n        os._exit(1)\n" if ending.endswith("ends itself") else "        pass\n"
    hunts = HUNTS_OTHER_PROCESSES if ending.endswith("hunts for it") else ""
    run = grade_with_own_suite(
        tmp_path,
        "@pytest.mark.points(1)\ndef test_passes(submission):\n    assert submission.bpe.merge_pair([], ('a', 'b')) == []\n\n"
        "@pytest.mark.points(1)\ndef test_fails(submission):\n    assert submission.bpe.merge_pair(['w'], ('a', 'b')) == ['w']\n\n"
        "@pytest.mark.points(1)\ndef test_ends(submission):\n    assert submission.bpe.merge_pair(['x'], ('a', 'b')) == ['x']\n",
        hunts
        + "def merge_pair(tokens, pair):\n    if tokens == ['x']:\n"
        + ends
        + (f"    {'hunt()' if hunts else 'pass'}\n    return ['right'] if tokens == ['w'] else list(tokens)\n"),
        suite_name="hidden",
    )
    assert [outcome.outcome.value for outcome in run.outcomes][:2] == ["passed", "failed"]
    ends_itself, dies_first = ending.endswith("ends itself"), ending.endswith("dies first")
    assert len(roots) == (2 if ends_itself else 4), "the hand-in's cage and its twins', one to decide, one for words"
    assert taken == ([True] if ends_itself else [not dies_first] * 2), taken
    assert run.outcomes[1].got == "['right']", "decided by the student's own answer"
    assert [root for root in roots if root.exists()] == [], "no cage left behind"
