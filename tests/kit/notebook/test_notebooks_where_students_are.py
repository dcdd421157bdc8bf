"""A notebook's check cells in a real kernel where students run them: Colab and a JupyterHub pod.

Colab runs the student as root in a container that cannot make namespaces; a JupyterHub single-user pod
runs them as an unprivileged user who cannot make namespaces either. Both are the real container of
``../shared/containers.md`` (tests/kit/support/container.py), as root and as a uid of its own. The release is
built here and bound in; its interpreter is Debian's (other users may run it, as Colab's), with this test
run's packages on its path, so the kernel (ipykernel, through nbclient) and the grader are the same ones
the same notebook runs on this machine with. Each check cell's feedback must be this machine's, and
student code must never run as root.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sysconfig
import tempfile
from pathlib import Path

import container
import pytest

from autograder.authoring.release import RELEASE_NAME, build_release
from autograder.hand_in.policy_parts import WITHOUT_POLICY_VARIABLE

# Its hand-ins step outside the plain-Python policy on purpose: one reads the uid it runs as.
pytestmark = [pytest.mark.container, pytest.mark.without_policy]

KIT_CLONE = Path(__file__).resolve().parents[3]
# Debian's own interpreter: pyenv's lives in root's 0700 home, which a worker of a uid of its own cannot enter.
SYSTEM_PYTHON = "/usr/bin/python3.11"
INSIDE = Path("/content") / RELEASE_NAME  # where a Colab notebook's files are
# The container's /tmp is this machine's below a throwaway layer, with this machine's graders' cages in it
# (cage.grader_folder): a Colab's is its own, so the container's TMPDIR is a folder of its own.
FRESH_TEMP = "/tmp/fresh-temp"
STUDENT_UID = 1000  # a JupyterHub pod's user (jovyan's uid in Jupyter's images)
BUGGY_MERGE = "def merge_pair(tokens, pair):\n    return list(tokens)\n"  # merges nothing
UID_MERGE = "def merge_pair(tokens, pair):\n    import os\n    return [str(os.getuid())]\n"
# Run the notebook as Jupyter's "run all" does (a demo cell's error does not stop it); print each check cell.
RUN_CHECK_CELLS = """
import json, sys
import nbformat
from nbclient import NotebookClient
notebook = nbformat.read(sys.argv[1], as_version=4)
NotebookClient(notebook, timeout=300, kernel_name="python3", allow_errors=True).execute()
shown = []
for cell in notebook.cells:
    if cell.cell_type == "code" and cell.source.startswith("check("):
        texts = [o.get("text", "") or o.get("data", {}).get("text/plain", "") for o in cell.outputs]
        errors = [o["ename"] for o in cell.outputs if o.get("output_type") == "error"]
        shown.append({"cell": cell.source, "output": "".join(texts), "errors": errors})
print(json.dumps(shown))
"""
TOOK = re.compile(r"Took [0-9.]+ s\.")
# decisions.md, A student: the same words, but for the one line on what the platform bounds.
BOUNDS_NOTE = re.compile(r"^note: student code runs in a separate interpreter.*\n?", re.MULTILINE)


def _test_run_packages() -> str:
    return sysconfig.get_paths()["purelib"]


def _with_merge(release: Path, name: str, source: str) -> str:
    """A copy of Part 2's notebook beside it, whose merge_pair cell is ``source``; its file name."""
    notebook = json.loads((release / "notebooks" / "bpe.ipynb").read_text(encoding="utf-8"))
    cells = [cell for cell in notebook["cells"] if "".join(cell["source"]).startswith("def merge_pair(")]
    assert len(cells) == 1, "Part 2's notebook defines merge_pair in one cell"
    cells[0]["source"] = source
    (release / "notebooks" / name).write_text(json.dumps(notebook), encoding="utf-8")
    return name


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    container.engines()
    folder, _ = build_release(tmp_path_factory.mktemp("student"))
    _with_merge(folder, "bpe_buggy.ipynb", BUGGY_MERGE)
    _with_merge(folder, "bpe_uid.ipynb", UID_MERGE)
    for path in [folder, *folder.rglob("*")]:  # a pod's user works in these files
        path.chmod(0o777 if path.is_dir() else 0o666)
    for parent in folder.parents:  # and passes through the folders above them (mkdtemp's are 0700)
        if str(parent).startswith(str(tmp_path_factory.getbasetemp())):
            parent.chmod(parent.stat().st_mode | 0o005)
    return folder


def _environment(release: str, home: str) -> dict[str, str]:
    return {
        "PYTHONPATH": f"{release}:{_test_run_packages()}",
        "HOME": home,
        "BPE_KIT_CACHE": "off",
        "PYTHONDONTWRITEBYTECODE": "1",
        # The module's mark (conftest) turns the policy off here as container.run does inside.
        **({WITHOUT_POLICY_VARIABLE: "1"} if os.environ.get(WITHOUT_POLICY_VARIABLE) == "1" else {}),
    }


def _shown(process: subprocess.CompletedProcess[str], release: str) -> list[dict[str, object]]:
    assert process.returncode == 0, process.stderr[-3000:]
    cells = json.loads(process.stdout.strip().splitlines()[-1])
    for cell in cells:
        text = TOOK.sub("Took _ s.", BOUNDS_NOTE.sub("", str(cell["output"]))).replace(release, "RELEASE")
        cell["output"] = text
    return cells


def _own_copy(release: Path) -> Path:
    """A copy of the release for one run: a grader that is root takes other users' access away from the kit
    it runs (shield), which is the release itself here, so a run must not hand the next its modes."""
    copy = Path(tempfile.mkdtemp(prefix="release-", dir=release.parent)) / RELEASE_NAME
    shutil.copytree(release, copy)
    copy.parent.chmod(0o755)
    return copy


def on_this_machine(release: Path, notebook: str, tmp_path: Path) -> list[dict[str, object]]:
    release = _own_copy(release)
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    process = subprocess.run(
        [SYSTEM_PYTHON, "-c", RUN_CHECK_CELLS, notebook],
        cwd=release / "notebooks",
        env={"PATH": os.environ["PATH"], **_environment(str(release), str(home))},
        capture_output=True,
        text=True,
        timeout=900,
    )
    return _shown(process, str(release))


def in_the_container(release: Path, notebook: str, *, as_user: bool) -> list[dict[str, object]]:
    release = _own_copy(release)
    command = [SYSTEM_PYTHON, "-c", RUN_CHECK_CELLS, notebook]
    home = "/tmp/student-home"
    if as_user:
        drop = ["setpriv", f"--reuid={STUDENT_UID}", f"--regid={STUDENT_UID}", "--clear-groups"]
        command = [*drop, *command]
    made = f"mkdir -p {home} {FRESH_TEMP} && chmod 1777 {FRESH_TEMP} && chown {STUDENT_UID if as_user else 0} {home}"
    command = ["sh", "-c", f'{made} && exec "$@"', "sh", *command]
    shared = KIT_CLONE.parent / "shared"
    process = container.run(
        command,
        binds=[(release, str(INSIDE), "rw")],
        env={**_environment(str(INSIDE), home), "TMPDIR": FRESH_TEMP},
        workdir=str(INSIDE / "notebooks"),
        hide=[KIT_CLONE, *([shared] if shared.is_dir() else [])],
        timeout=900,
    )
    return _shown(process, str(INSIDE))


@pytest.fixture(scope="module")
def here(release: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, object]]]:
    scratch = tmp_path_factory.mktemp("here")
    return {name: on_this_machine(release, name, scratch) for name in ("bpe.ipynb", "bpe_buggy.ipynb")}


def _graded_as(cells: list[dict[str, object]]) -> str:
    (merge,) = [cell for cell in cells if str(cell["cell"]).startswith("check(merge_pair")]
    found = re.search(r"got:\s+\['(\d+)'\]", str(merge["output"]))
    assert found, f"the uid probe's answer is not in its feedback: {merge['output']}"
    return found.group(1)


@pytest.mark.parametrize("as_user", [False, True], ids=["colab-as-root", "jupyterhub-pod-as-a-user"])
def test_a_notebooks_check_cells_in_a_kernel_give_this_machines_feedback(release, here, as_user):
    container.assert_real()
    # What the comparison stands on: a stub reads not started, the bug reads its expected and got.
    assert all("not started" in str(cell["output"]) for cell in here["bpe.ipynb"]), here["bpe.ipynb"]
    assert any("expected:" in str(cell["output"]) for cell in here["bpe_buggy.ipynb"]), here["bpe_buggy.ipynb"]
    for notebook, expected in here.items():
        assert all(not cell["errors"] for cell in expected), expected
        assert in_the_container(release, notebook, as_user=as_user) == expected, notebook


@pytest.mark.parametrize("as_user", [False, True], ids=["colab-as-root", "jupyterhub-pod-as-a-user"])
def test_student_code_in_a_kernel_never_runs_as_root(release, as_user):
    container.assert_real()
    uid = _graded_as(in_the_container(release, "bpe_uid.ipynb", as_user=as_user))
    assert uid != "0", "student code ran as root"
    if as_user:
        assert uid == str(STUDENT_UID), "a pod's user grades as itself: the process cage"


def test_student_code_graded_by_root_here_is_not_root(release, tmp_path):
    assert _graded_as(on_this_machine(release, "bpe_uid.ipynb", tmp_path)) != "0"
