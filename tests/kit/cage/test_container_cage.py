"""The container cage's pieces, on this machine: no sockets, a user of its own whose processes all end,
the kit closed to it, the cache that names the cage, and `grade doctor`. The whole cage inside a real
container is tests/kit/cage/test_container.py."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from autograder.cage import isolation, seccomp, shield, worker_user
from autograder.cage.cage_limits import CageLimits
from autograder.cage.inside import bootstrap
from autograder.grading.fingerprints import grading_hash
from autograder.grading.grading_limits import Limits
from autograder.kit_root import KIT_ROOT

# Its hand-ins step outside the plain-Python policy on purpose, to test the worker and the cage.
pytestmark = pytest.mark.without_policy

needs_root = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root can give a worker a user of its own"
)

TRY_SOCKETS = """
import errno, os, socket
said = []
for make in (lambda: socket.socket(), lambda: socket.socket(socket.AF_UNIX), lambda: socket.socketpair()):
    try:
        make()
        said.append("made")
    except OSError as error:
        said.append(errno.errorcode[error.errno])
read, write = os.pipe()
os.write(write, b"x")
said.append("pipe " + os.read(read, 1).decode())
child = os.fork()
if child == 0:
    try:
        socket.socket()
        os._exit(0)
    except OSError:
        os._exit(3)
said.append(f"child {os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])}")
print(" ".join(said))
"""


@pytest.mark.skipif(seccomp.worker_filter() is None, reason="the filter knows x86-64's and arm64's call numbers")
def test_the_socket_filter_refuses_every_socket_and_keeps_pipes():
    """Filtered, a process and its children make no socket of any family; pipes (the worker's channel) work."""
    no_sockets = seccomp.worker_filter()
    assert no_sockets is not None
    filtered = subprocess.run(
        [sys.executable, "-c", TRY_SOCKETS], preexec_fn=no_sockets.install, capture_output=True, text=True, timeout=60
    )
    assert filtered.stdout.split() == ["EPERM", "EPERM", "EPERM", "pipe", "x", "child", "3"], filtered.stderr
    unfiltered = subprocess.run([sys.executable, "-c", TRY_SOCKETS], capture_output=True, text=True, timeout=60)
    assert unfiltered.stdout.split()[:3] == ["made", "made", "made"], unfiltered.stderr


def _processes_of(uid: int) -> list[str]:
    listed = subprocess.run(["ps", "-o", "stat=", "-u", str(uid)], capture_output=True, text=True).stdout.split()
    return [state for state in listed if not state.startswith("Z")]  # killed, awaiting their parent


@needs_root
def test_every_process_of_a_worker_user_ends_wherever_it_went():
    """A process that left the worker's session and group still belongs to its user, and ends with it."""
    uid = worker_user.new_uid()
    started = subprocess.Popen(
        ["sh", "-c", "setsid sleep 300 & sleep 300"], user=uid, group=uid, extra_groups=[], start_new_session=True
    )
    try:
        deadline = time.monotonic() + 10
        while len(_processes_of(uid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(_processes_of(uid)) == 3
        worker_user.end_processes(uid)
        started.wait(timeout=10)
        deadline = time.monotonic() + 10
        while _processes_of(uid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _processes_of(uid) == []
    finally:
        started.kill()


@needs_root
def test_what_a_worker_user_leaves_in_shared_folders_is_removed():
    uid = worker_user.new_uid()
    left = [Path(folder) / f"bpe-kit-test-left-{uid}" for folder in ("/tmp", "/run/lock") if os.path.isdir(folder)]
    theirs = Path("/tmp") / f"bpe-kit-test-not-theirs-{uid}"
    script = " && ".join(f"mkdir -p {folder}/deep && touch {folder}/deep/file" for folder in left)
    subprocess.run(["sh", "-c", script], user=uid, group=uid, check=True)
    theirs.write_text("the grader's", encoding="utf-8")
    try:
        worker_user.remove_leftovers(uid)
        assert not any(folder.exists() for folder in left) and theirs.exists()
    finally:
        theirs.unlink()


@needs_root
def test_leftovers_are_removed_with_the_worker_users_rights_not_roots():
    """A classmate who swaps a folder on the way for a link could once have root remove anything: the
    removal is the worker's user's, so what that user may not remove stays (here, a file in a folder of
    root's inside the user's own folder)."""
    uid = worker_user.new_uid()
    own = Path("/tmp") / f"bpe-kit-test-own-{uid}"
    subprocess.run(["mkdir", str(own)], user=uid, group=uid, check=True)
    roots = own / "root's" / "file"
    roots.parent.mkdir(mode=0o755)
    roots.write_text("root's own", encoding="utf-8")
    try:
        worker_user.remove_leftovers(uid)
        assert roots.exists(), "removed with root's rights"
    finally:
        shutil.rmtree(own)


def test_the_container_cage_is_roots_and_only_its_work_folders_are_the_workers(monkeypatch):
    """The worker's user may not rename the runtime it is started again from, nor read another cage's copy."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("only root can give a worker a user of its own")
    from autograder.cage import cage as cages

    monkeypatch.setattr(cages, "isolation", lambda: isolation.Isolation.CONTAINER)
    monkeypatch.setattr(shield, "guard_the_kit", lambda: [])
    cage = cages.Cage.create({"bpe.py": b"x = 1\n"}, limits=CageLimits())
    try:
        uid = cage.worker_uid
        assert uid is not None and uid >= worker_user.UID_BASE
        owners = {
            path.name: (path.stat().st_uid, path.stat().st_gid, oct(path.stat().st_mode & 0o777))
            for path in (cage.root, cage.runtime, cage.submission, cage.work, cage.tmp)
        }
        assert owners[cage.root.name] == (0, 0, "0o711")
        assert owners["runtime"][0] == 0 and owners["submission"] == (0, uid, "0o750")
        assert owners["work"] == (uid, uid, "0o700") and owners["tmp"] == (uid, uid, "0o700")
        (cage.work / "left").write_text("by the worker before", encoding="utf-8")
        cage.prepare_start()
        assert list(cage.work.iterdir()) == [] and cage.work.stat().st_uid == uid
    finally:
        cage.remove()


@needs_root
def test_a_guarded_folder_and_its_canary_are_closed_to_a_worker_user(tmp_path, monkeypatch):
    """What the grader guards, a worker's user can neither list nor open, and the worker's own check agrees."""
    monkeypatch.setattr(shield, "_guarded", {})
    monkeypatch.setenv(shield.CARRIED, "")
    results = tmp_path / "results"
    results.mkdir(mode=0o755)
    (results / "results.json").write_text("{}", encoding="utf-8")
    tmp_path.chmod(0o755)
    assert "took other users' access away" in shield.guard(results, plant=True)
    assert shield.guard(results, plant=True) == ""  # once
    paths = shield.unreadable()
    assert paths == [str(results), str(results / shield.CANARY)]
    uid = worker_user.new_uid()
    for path in [*paths, str(results / "results.json")]:
        looked = subprocess.run(["ls", path], user=uid, group=uid, capture_output=True, text=True)
        assert looked.returncode != 0 and "Permission denied" in looked.stderr, path
    with pytest.raises(SystemExit, match="can read"):  # as root, the worker's check finds them readable
        bootstrap.refuse_if_readable(paths)


@pytest.mark.unit
def test_the_kit_is_guarded_whole_unless_what_the_worker_runs_lives_in_it(monkeypatch):
    guarded: list[Path] = []

    def guard(folder: Path, *, plant: bool) -> str:
        guarded.append(folder)
        return ""

    monkeypatch.setattr(shield, "guard", guard)
    monkeypatch.setattr(shield.sys, "prefix", "/opt/grader")
    monkeypatch.setattr(shield.sys, "base_prefix", "/usr")
    monkeypatch.setattr(shield.sys, "executable", "/opt/grader/bin/python")
    monkeypatch.setattr("autograder.cage.bubblewrap.site_folders", lambda: ("/opt/grader/lib",))
    shield.guard_the_kit()
    assert guarded == [KIT_ROOT]
    guarded.clear()
    passed: list[Path] = []

    def pass_through(folder: Path) -> str:
        passed.append(folder)
        return ""

    monkeypatch.setattr(shield, "pass_through", pass_through)
    monkeypatch.setattr(shield.sys, "prefix", str(KIT_ROOT / "venv-in-the-clone"))
    shield.guard_the_kit()
    assert passed == [KIT_ROOT], "passed through, not listed"
    assert guarded == sorted(KIT_ROOT.iterdir()), "every entry closed, .git and tests/ among them"
    (KIT_ROOT / "venv-in-the-clone").mkdir()
    try:
        guarded.clear()
        shield.guard_the_kit()
        assert KIT_ROOT / "venv-in-the-clone" not in guarded and KIT_ROOT / "tests" in guarded
    finally:
        (KIT_ROOT / "venv-in-the-clone").rmdir()


@pytest.mark.unit
def test_a_result_graded_in_one_cage_is_never_taken_for_another(monkeypatch):
    """The cache key names the cage: a result (and its notes) from the process cage is not shown under the sandbox."""
    suite, references = KIT_ROOT / "tests" / "public", KIT_ROOT / "solutions"
    keys = {}
    for level in isolation.Isolation:
        monkeypatch.setattr(isolation, "_probed", [isolation.Probe(level)])
        keys[level] = grading_hash(suite, references, Limits())
    assert len(set(keys.values())) == len(isolation.Isolation)
    monkeypatch.setattr(isolation, "_probed", [isolation.Probe(isolation.Isolation.PROCESS)])
    assert grading_hash(suite, references, Limits()) == keys[isolation.Isolation.PROCESS]


def test_doctor_names_the_cage_this_machine_gives_and_exits_as_the_batch_would():
    doctor = subprocess.run(
        [sys.executable, "-m", "autograder.cli", "doctor"], capture_output=True, text=True, timeout=120
    )
    level = isolation.isolation()
    assert doctor.stdout.startswith(f"cage: {level.value}: "), doctor.stdout
    assert doctor.returncode == (0 if level.keeps_hand_ins_apart else 1)
    assert ("refuse to grade here" in doctor.stdout) == (doctor.returncode == 1)


@needs_root
def test_as_root_student_code_never_runs_as_root(tmp_path):
    """Without bubblewrap, root's worker is a user of its own, or nothing runs at all (never root)."""
    (tmp_path / "simple_tokenizers.py").write_text(
        "import os\n\ndef char_tokenize(text):\n    return [str(os.geteuid())]\n", encoding="utf-8"
    )
    graded = subprocess.run(
        [sys.executable, "-m", "autograder.cli", str(tmp_path), "--format", "json", "--no-cache"],
        env={**os.environ, isolation.FORCE_VARIABLE: isolation.FORCE_PROCESS_CAGE},
        capture_output=True,
        text=True,
        timeout=300,
    )
    doctor = subprocess.run(
        [sys.executable, "-m", "autograder.cli", "doctor"],
        env={**os.environ, isolation.FORCE_VARIABLE: isolation.FORCE_PROCESS_CAGE},
        capture_output=True,
        text=True,
        timeout=120,
    )
    if doctor.stdout.startswith(f"cage: {isolation.Isolation.NONE.value}"):
        assert graded.returncode != 0 and "could not give it a user of its own" in graded.stderr
        assert "grade doctor" in graded.stderr
    else:
        assert doctor.stdout.startswith(f"cage: {isolation.Isolation.CONTAINER.value}"), doctor.stdout
        assert "'0'" not in graded.stdout and str(worker_user.UID_BASE)[:3] in graded.stdout, graded.stdout[-2000:]


@needs_root
def test_the_sweep_removes_deep_and_read_only_leftovers_in_time():
    """A tree deeper than Python recurses, and the user's own read-only folders, once stopped the sweep."""
    uid = worker_user.new_uid()
    leave = (
        "import os\n"
        f"top = '/tmp/bpe-kit-test-deep-{uid}'\n"
        "os.makedirs(top + '/locked/inner')\n"
        "open(top + '/locked/inner/file', 'w').close()\n"
        "os.chmod(top + '/locked/inner', 0o500)\n"
        "os.chmod(top + '/locked', 0o500)\n"
        "folder = os.open(top, os.O_RDONLY)\n"
        "for _ in range(1500):\n"
        "    os.mkdir('d', dir_fd=folder)\n"
        "    inner = os.open('d', os.O_RDONLY, dir_fd=folder)\n"
        "    os.close(folder)\n"
        "    folder = inner\n"
    )
    subprocess.run(["sh", "-c", f"cat > /tmp/bpe-kit-test-leave-{uid}.py"], input=leave, text=True, check=True)
    try:
        subprocess.run(
            ["sh", "-c", f"exec $(command -v python3) /tmp/bpe-kit-test-leave-{uid}.py"],
            user=uid,
            group=uid,
            check=False,
            capture_output=True,
        )
        top = Path(f"/tmp/bpe-kit-test-deep-{uid}")
        if not top.exists():  # no interpreter this user may run: the tree made by root, then given to it
            subprocess.run([sys.executable, f"/tmp/bpe-kit-test-leave-{uid}.py"], check=True)
            subprocess.run(["chown", "-R", f"{uid}:{uid}", str(top)], check=True)
        worker_user.remove_leftovers(uid)
        assert not top.exists()
    finally:
        Path(f"/tmp/bpe-kit-test-leave-{uid}.py").unlink()


@pytest.mark.unit
def test_a_uid_the_machine_gives_someone_is_passed_over(monkeypatch):
    first = worker_user.new_uid()
    monkeypatch.setattr(worker_user, "_named_user", lambda uid: uid == first + 1)
    block = worker_user.UID_BASE + os.getpid() * worker_user.PER_GRADER
    assert worker_user.new_uid() == block + (first - block + 2) % worker_user.PER_GRADER


@pytest.mark.unit
def test_an_output_folder_that_is_not_the_graders_is_refused(tmp_path, monkeypatch):
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("only root grades in the container cage")
    monkeypatch.setattr(shield, "_guarded", {})
    monkeypatch.setenv(shield.CARRIED, "")
    squatted = tmp_path / "out"
    squatted.mkdir()
    os.chown(squatted, worker_user.UID_BASE, worker_user.UID_BASE)
    with pytest.raises(shield.GuardError, match="not to the grader"):
        shield.guard(squatted, plant=True)


# Run as a worker's uid: stop every process it can see, and every pid the kernel gives next, for a minute.
STOPS_WHATEVER_IT_SEES = """
import os, signal, time
me, until = os.getpid(), time.monotonic() + 60
while time.monotonic() < until:
    try:
        with open("/proc/sys/kernel/ns_last_pid") as last:
            newest = int(last.read())
    except (OSError, ValueError):
        newest = 0
    for pid in [*range(max(newest - 4, 2), newest + 8), *(int(e) for e in os.listdir("/proc") if e.isdigit())]:
        if pid != me:
            try:
                os.kill(pid, signal.SIGSTOP)
            except OSError:
                pass
"""


@needs_root
def test_a_uid_that_stops_whatever_it_sees_cannot_hold_up_the_grader_that_ends_it():
    """A child of the grader's that becomes the uid while one of its processes runs is stopped there, and
    the grader waits for it for ever: the grader ends the uid from root first, then sweeps as it."""
    python = shutil.which("python3", path="/usr/bin:/bin")
    if python is None:
        pytest.skip("no interpreter in /usr/bin that other users may run")
    uid = worker_user.new_uid()
    stopper = subprocess.Popen(
        [python, "-S", "-c", STOPS_WHATEVER_IT_SEES], user=uid, group=uid, extra_groups=[], start_new_session=True
    )
    sweeping = threading.Thread(target=worker_user.remove_leftovers, args=(uid,), daemon=True)
    try:
        deadline = time.monotonic() + 30
        while worker_user.processes_of(uid) == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # looping
        sweeping.start()
        sweeping.join(timeout=60)
        assert not sweeping.is_alive(), "the sweep was held up by a process of the uid it sweeps"
        assert worker_user.processes_of(uid) == 0
    finally:
        for entry in os.listdir("/proc"):  # whatever is left of the uid, the test's own helper among them
            with contextlib.suppress(OSError, ValueError):
                if os.stat(f"/proc/{entry}").st_uid == uid:
                    os.kill(int(entry), signal.SIGKILL)
        stopper.wait(timeout=30)


WRITES_EVERYWHERE = """
import os, sys
said = []
for folder in sys.argv[1:]:
    try:
        with open(os.path.join(folder, "bpe-kit-test-written-%d" % os.getpid()), "wb") as file:
            file.write(b"x")
        said.append("wrote")
    except OSError as error:
        said.append("refused %d" % error.errno)
with open("/dev/null", "wb") as null:
    null.write(b"x")
said.append("null")
print(" ".join(said))
"""


@needs_root
def test_a_worker_user_writes_in_its_own_folders_alone(tmp_path):
    """Landlock: its own folder yes, /dev/null yes, the folders every user may write (/tmp, /dev/shm) no."""
    from autograder.cage import landlock

    python = shutil.which("python3", path="/usr/bin:/bin")
    if python is None:
        pytest.skip("no interpreter in /usr/bin that other users may run")
    try:
        landlock.restrictor([])  # this kernel's Landlock, or a skip
    except landlock.LandlockUnavailable as why:
        pytest.skip(str(why))
    uid = worker_user.new_uid()
    own = Path(tempfile.mkdtemp(prefix="bpe-kit-test-own-", dir="/tmp"))
    try:
        os.chown(own, uid, uid)
        only = landlock.restrictor([str(own)])
        shared = [folder for folder in ("/tmp", "/dev/shm") if os.path.isdir(folder)]
        options = worker_user.spawn_options(uid, None, only)
        written = subprocess.run(
            [python, "-S", "-c", WRITES_EVERYWHERE, str(own), *shared],
            capture_output=True,
            text=True,
            timeout=60,
            cwd="/",
            env={},
            **options,
        )
        assert written.stdout.split() == ["wrote", *["refused", "13"] * len(shared), "null"], written.stderr
    finally:
        worker_user.remove_leftovers(uid)
        shutil.rmtree(own, ignore_errors=True)
