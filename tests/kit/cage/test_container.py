"""The Gradescope package in a real container, run as Gradescope runs it: setup.sh, then run_autograder.

The container is Docker's (``container.py``): root without the capability to make namespaces, so
bubblewrap cannot build its sandbox there. The package is unzipped into ``/autograder/source`` and the
hand-in put in ``/autograder/submission``; the kit's own clone is hidden inside, so the kit under test
lives only where the package puts it. An honest hand-in earns full marks, a buggy one reads its hints,
and an attack that reads the package, forges results.json and reaches out earns nothing and reads no
canary.
"""

from __future__ import annotations

import ast
import json
import secrets
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import container
import pytest
from classroom import PROBES_THE_WORKER, SOLUTIONS
from results import hidden_points

from autograder.authoring.release import build_gradescope
from autograder.kit_root import KIT_ROOT
from autograder.parts import PARTS

# Its hand-ins step outside the plain-Python policy on purpose, to test the worker and the cage.
pytestmark = [pytest.mark.container, pytest.mark.without_policy]

# The folder these tests run from: a clone of the kit, which the container must not see.
KIT_CLONE = Path(__file__).resolve().parents[3]
INSIDE = Path("/autograder")
WHEELS = "/wheels"
# /usr/bin/python3, not the default python3, which lives under /root (0700) on these machines: a worker
# dropped to another uid could not start it. Debian's 3.11, as a Gradescope image would have it.
SYSTEM_PYTHON = "/usr/bin/python3.11"
CANARY_FILE = "kit/tests/hidden/CANARY.txt"  # under /autograder/source
FORGED_SCORE = 424242.0
# What the attack's own code earns it: answered wrong, raised, ended its worker, or ran out of time.
ATTACK_OUTCOMES = {"failed", "error", "crashed", "timed out"}

BUGGY_MERGE_PAIR = '''
def merge_pair(tokens, pair):
    """Forgets to skip past a merged pair: in a a a, the middle a is merged twice."""
    merged = []
    for index, token in enumerate(tokens):
        if tokens[index : index + 2] == list(pair):
            merged.append(token + tokens[index + 1])
        elif index == 0 or tokens[index - 1 : index + 1] != list(pair):
            merged.append(token)
    return merged
'''

ATTACK = '''
"""Every function steals: the package's files, the canary, the results file, the network, PID 1's environment."""
import json
import os
import socket
import sys

SOURCE = "/autograder/source"
RESULTS = "/autograder/results/results.json"


def steal():
    loot = []
    for folder, _, names in os.walk(SOURCE):
        for name in names:
            try:
                with open(os.path.join(folder, name), "rb") as stream:
                    loot.append(stream.read().decode("utf-8", "replace"))
            except OSError as error:
                loot.append(f"refused {name}: {error}")
    try:
        with open(SOURCE + "/CANARY_FILE") as stream:
            loot.insert(0, "CANARY " + stream.read().strip())
    except OSError as error:
        loot.insert(0, f"no canary: {error}")
    try:
        os.makedirs(os.path.dirname(RESULTS), exist_ok=True)
        with open(RESULTS, "w") as stream:
            json.dump({"score": FORGED_SCORE, "output": "forged " + loot[0], "tests": []}, stream)
        with open(os.path.join(os.path.dirname(RESULTS), "loot.txt"), "w") as stream:
            stream.write("\\n".join(loot))
    except OSError as error:
        loot.append(f"no forgery: {error}")
    try:
        with socket.create_connection(("pypi.org", 443), timeout=3):
            loot.append("network open")
    except OSError as error:
        loot.append(f"no network: {error}")
    try:
        with open("/proc/1/environ", "rb") as stream:
            loot.append(stream.read().decode("utf-8", "replace"))
    except OSError as error:
        loot.append(f"no environ: {error}")
    print(loot[0])
    print(loot[0], file=sys.stderr)
    return loot


LOOT = steal()


def get_pair_counts(tokens):
    return {(line, line): 1 for line in steal()[:3]}


def merge_pair(tokens, pair):
    return steal()[:2]


def train_bpe(text, num_merges):
    raise ValueError(steal()[0])


def build_bpe_vocab(text, merges):
    return {token: index for index, token in enumerate(steal()[:2])}


def encode(text, merges, vocab):
    raise RuntimeError(" ".join(steal()[:2]))


def decode(ids, vocab):
    return steal()[0]
'''.replace("CANARY_FILE", CANARY_FILE).replace("FORGED_SCORE", repr(FORGED_SCORE))


@pytest.fixture(scope="module")
def engines() -> None:
    container.engines()


@pytest.fixture(scope="module")
def hidden(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """What the container must not see: the kit's clone, the shared notes beside it, and every pytest
    temporary folder (this run's holds the host side of /autograder, earlier runs' their own packages)."""
    shared = KIT_CLONE.parent / "shared"
    return [KIT_CLONE, *([shared] if shared.is_dir() else []), tmp_path_factory.getbasetemp().parent]


@pytest.fixture(scope="module")
def gradescope_root(engines: None, hidden: list[Path], tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A host folder that is /autograder inside: the package in source/ after setup.sh ran there; the canary."""
    base = tmp_path_factory.mktemp("gradescope")
    root = base / "autograder"
    package = build_gradescope(base / "autograder.zip")
    with zipfile.ZipFile(package) as archive:
        archive.extractall(root / "source")
    for script in ("setup.sh", "run_autograder"):
        (root / "source" / script).chmod(0o755)  # zipfile does not restore modes; Gradescope's unzip does
    shutil.copy2(root / "source" / "run_autograder", root / "run_autograder")
    root.chmod(0o755)  # mkdtemp's 0700 is not Gradescope's /autograder
    canary = f"bpe-kit-canary-{secrets.token_hex(16)}"
    (root / "source" / CANARY_FILE).write_text(canary + "\n", encoding="utf-8")
    # The wheels setup.sh installs, fetched once out here; inside, setup.sh's own pip installs them offline.
    wheels = base / "wheels"
    requirements = root / "source" / "requirements.txt"
    download = [sys.executable, "-m", "pip", "download", "--quiet", "--only-binary=:all:", "-d", str(wheels)]
    fetched = subprocess.run(
        [*download, "-r", str(requirements)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert fetched.returncode == 0, fetched.stderr[-3000:]
    setup = in_container(
        root,
        ["bash", f"{INSIDE}/source/setup.sh"],
        hide=hidden,
        workdir=f"{INSIDE}/source",
        env={"BPE_KIT_PYTHON": SYSTEM_PYTHON, "PIP_FIND_LINKS": WHEELS, "PIP_NO_INDEX": "1"},
        wheels=wheels,
    )
    assert setup.returncode == 0, setup.stderr[-3000:]
    return root, canary


def in_container(
    root: Path,
    command: list[str],
    *,
    hide: list[Path],
    workdir: str,
    env: dict[str, str],
    wheels: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``command`` in a Docker-like container where ``root`` is /autograder and ``hide`` is empty."""
    binds = [(root, str(INSIDE), "rw")]
    if wheels is not None:
        binds.append((wheels, WHEELS, "ro"))
    return container.run(command, binds=binds, env=env, workdir=workdir, hide=hide, timeout=900)


def run_autograder(
    root: Path, hide: list[Path], files: dict[str, str]
) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """Grade ``files`` as Gradescope does: a fresh submission/ and results/, then /autograder/run_autograder."""
    for folder in ("submission", "results"):
        shutil.rmtree(root / folder, ignore_errors=True)
        (root / folder).mkdir()
    for name, text in files.items():
        (root / "submission" / name).write_text(text, encoding="utf-8")
    process = in_container(root, [f"{INSIDE}/run_autograder"], hide=hide, workdir=str(INSIDE), env={})
    results_file = root / "results" / "results.json"
    assert results_file.exists(), f"no results.json (exit {process.returncode}): {process.stderr[-3000:]}"
    return process, json.loads(results_file.read_text(encoding="utf-8"))


def diagnosis(process: subprocess.CompletedProcess[str], results: dict[str, Any]) -> str:
    """What a failed check shows: the results' note, the first grader error and the grader's stderr."""
    errors = [test["output"] for test in results["tests"] if test["extra_data"]["outcome"] == "grader error"]
    first = f"{len(errors)} grader errors, the first: {errors[0]!r}; " if errors else ""
    return f"output: {results['output']!r}; {first}stderr: {process.stderr[-2000:]}"


def solution_files(**replaced: str) -> dict[str, str]:
    """Every part's reference solution; ``replaced``: code appended to a module (a later def wins)."""
    files = {}
    for part in PARTS:
        text = (SOLUTIONS / f"{part.module}.py").read_text(encoding="utf-8")
        files[f"{part.module}.py"] = text + "\n\n" + replaced[part.module] if part.module in replaced else text
    return files


def hints_of(test_file: Path, test_name: str) -> list[str]:
    """The hint texts a graded test gives beside its assertions, read from its source."""
    tree = ast.parse(test_file.read_text(encoding="utf-8"))
    test = next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == test_name)
    return [
        node.args[0].value
        for node in ast.walk(test)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "hint"
        if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
    ]


def test_the_container_is_dockers_root_that_cannot_make_namespaces(engines):
    container.assert_real()


def test_the_container_sees_nothing_of_the_kit_outside_autograder(engines, hidden, tmp_path):
    process = in_container(
        tmp_path,
        ["sh", "-c", 'for f in "$@"; do ls -A "$f"; done', "sh", *map(str, hidden)],
        hide=hidden,
        workdir="/",
        env={},
    )
    assert process.returncode == 0, process.stderr
    assert process.stdout == "", "every hidden folder is empty inside"


def test_an_honest_hand_in_earns_full_marks_in_a_real_container(gradescope_root, hidden):
    container.assert_real()
    root, _ = gradescope_root
    process, results = run_autograder(root, hidden, solution_files())
    points = hidden_points()
    assert results["score"] == points.full_marks + points.bonus_total, diagnosis(process, results)
    assert results["extra_data"]["max_score"] == points.full_marks
    assert results["tests"] and all(test["status"] == "passed" for test in results["tests"])


def test_a_buggy_hand_in_reads_a_hint_on_every_failed_test_in_a_real_container(gradescope_root, hidden):
    container.assert_real()
    root, _ = gradescope_root
    process, results = run_autograder(root, hidden, solution_files(bpe=BUGGY_MERGE_PAIR))
    failed = [test for test in results["tests"] if test["status"] == "failed"]
    assert failed and {test["extra_data"]["module"] for test in failed} == {"bpe"}, diagnosis(process, results)
    for test in failed:
        assert test["extra_data"]["hint"] and f"hint:     {test['extra_data']['hint']}" in test["output"], test
    skipped = next(test for test in failed if test["extra_data"]["test"] == "test_merge_skips_past_a_merged_pair")
    source = KIT_ROOT / "tests" / "hidden" / "bpe" / "test_merge_pair.py"
    assert any(hint in skipped["output"] for hint in hints_of(source, "test_merge_skips_past_a_merged_pair"))


def test_an_attack_earns_nothing_and_reads_no_canary_in_a_real_container(gradescope_root, hidden):
    container.assert_real()
    root, canary = gradescope_root
    process, results = run_autograder(root, hidden, {"bpe.py": ATTACK})
    for path in (root / "results").rglob("*"):
        if path.is_file():
            assert canary not in path.read_text(encoding="utf-8", errors="replace"), f"{path.name} holds the canary"
    assert results["score"] != FORGED_SCORE and not results["output"].startswith("forged"), "results.json is forged"
    assert results["extra_data"].get("suite") == "hidden", f"not the grader's: {results['output']!r}"
    assert results["score"] == 0
    # Its part graded as its own doing: a grader error or a refusal would be a zero that proves nothing.
    graded = {test["extra_data"]["outcome"] for test in results["tests"] if test["extra_data"]["module"] == "bpe"}
    assert graded and graded <= ATTACK_OUTCOMES, f"outcomes {graded}; {diagnosis(process, results)}"


# merge_pair ends its worker on one input only: that call crashes; the worker started again grades the rest.
CRASHES_ON_ONE_INPUT = """
_merge_pair = merge_pair


def merge_pair(tokens, pair):
    if list(tokens) == ["a", "a", "a"]:
        import os

        os._exit(3)
    return _merge_pair(tokens, pair)
"""


def test_a_worker_started_again_after_a_crash_grades_the_rest_in_a_real_container(gradescope_root, hidden):
    """The container cage's worker, started again, finds a fresh copy of the hand-in (not a grader error)."""
    container.assert_real()
    root, _ = gradescope_root
    process, results = run_autograder(root, hidden, solution_files(bpe=CRASHES_ON_ONE_INPUT))
    outcomes = {test["extra_data"]["outcome"] for test in results["tests"]}
    assert "grader error" not in outcomes, diagnosis(process, results)
    crashed = [test for test in results["tests"] if test["status"] == "failed"]
    assert crashed and {test["extra_data"]["function"] for test in crashed} == {"merge_pair"}, outcomes


def test_a_parts_process_cannot_reach_into_the_worker_in_a_real_container(gradescope_root, hidden):
    """The worker and the processes it forks for the parts share a user here: it makes itself undumpable, so
    no part's code can read or change it (and through it, what the next part's process is given)."""
    container.assert_real()
    root, _ = gradescope_root
    process, results = run_autograder(root, hidden, {"simple_tokenizers.py": PROBES_THE_WORKER})
    said = [test["output"] for test in results["tests"] if test["extra_data"]["function"] == "char_tokenize"]
    assert said and all("PermissionError" in output for output in said), diagnosis(process, results)
    assert not any("opened the worker's memory" in output for output in said), said[:1]


def test_a_key_a_hand_in_stores_in_a_real_container_is_not_there_for_the_next(gradescope_root, hidden):
    """One container grades a hand-in that stores its code in its uid's keyring and a System V queue; a
    fresh container grades a classmate who looks for them: refused to the first, nothing found by the second,
    nothing left in the kernel (keys outlive a container, and the container's IPC is the machine's)."""
    from test_kernel_objects import LOOK, STORE, hand_in, kernel_leftovers

    container.assert_real()
    root, _ = gradescope_root
    process, stored = run_autograder(root, hidden, solution_files(bpe=hand_in("store", STORE)))
    child = [test["output"] for test in stored["tests"] if "child said" in test["output"]]
    assert child, diagnosis(process, stored)
    process, looked = run_autograder(root, hidden, solution_files(bpe=hand_in("look", LOOK)))
    found = [test["output"] for test in looked["tests"] if "child said" in test["output"]]
    assert found, diagnosis(process, looked)
    assert not any("FOUND A " in output for output in found), found[0][-800:]
    assert kernel_leftovers() == [], "the first hand-in's objects outlived its container"
    said = child[0].split("child said: ")[1].split(" (bpe.py")[0].split("; ")
    assert said and all("errno 1" in line for line in said), child[0][-400:]
