"""``grade jobs slurm|kubernetes|github``: job files that grade a class as shards and then merge them, each
checked with its engine's own schema or shell, and its commands run against a stand-in ``grade`` that says
what it was asked."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

SHARDS = 3
# Options the shards and the merge both take, and one (--junit) that only the merge may.
BATCH_OPTIONS = ("--", "--roster", "roster.csv", "--part", "bpe", "--junit", "class.xml")
EVERY_RUN = ["--roster", "roster.csv", "--part", "bpe"]


def write_job_file(folder: Path, engine: str, name: str, *arguments: str) -> tuple[Path, str]:
    """The real ``grade jobs ENGINE`` writing ``name`` in ``folder``: its path and its text."""
    process = subprocess.run(
        [sys.executable, "-m", "autograder.cli", "jobs", engine, "--shards", str(SHARDS), "-o", name, *arguments],
        capture_output=True,
        text=True,
        cwd=folder,
        timeout=120,
    )
    assert process.returncode == 0, process.stderr
    assert process.stdout == f"wrote {name}\n"
    path = folder / name
    return path, path.read_text(encoding="utf-8")


def stand_ins(folder: Path) -> dict[str, str]:
    """An environment whose ``grade`` and ``sbatch`` only write down how they were called (grade.log,
    sbatch.log: a line of shell words each); sbatch answers with job ids 4242, 4243, ..."""
    bin_folder = folder / "bin"
    bin_folder.mkdir()
    (bin_folder / "grade").write_text(
        '#!/bin/bash\nprintf "%q " "$@" >> "$LOGS/grade.log"; echo >> "$LOGS/grade.log"\n', encoding="utf-8"
    )
    (bin_folder / "sbatch").write_text(
        '#!/bin/bash\nprintf "%q " "$@" >> "$LOGS/sbatch.log"; echo >> "$LOGS/sbatch.log"\n'
        'echo "$((4242 + $(wc -l < "$LOGS/sbatch.log") - 1))"\n',
        encoding="utf-8",
    )
    for program in bin_folder.iterdir():
        program.chmod(0o755)
    environment = {key: value for key, value in os.environ.items() if not key.startswith("SLURM_")}
    return environment | {"PATH": f"{bin_folder}{os.pathsep}{os.environ['PATH']}", "LOGS": str(folder)}


def logged(folder: Path, program: str) -> list[list[str]]:
    return [shlex.split(line) for line in (folder / f"{program}.log").read_text(encoding="utf-8").splitlines()]


def shard_call(index: int) -> list[str]:
    return [
        "batch",
        "submissions",
        "-o",
        "graded",
        *EVERY_RUN,
        "--jobs",
        "2",
        "--quiet",
        "--shard",
        f"{index}/{SHARDS}",
    ]


MERGE_CALL = ["batch", "submissions", "-o", "graded", *EVERY_RUN, "--junit", "class.xml", "--merge", "--quiet"]


def test_the_slurm_script_submits_an_array_of_shards_and_the_merge_after_it(tmp_path):
    script, text = write_job_file(tmp_path, "slurm", "grade-class.sbatch", *BATCH_OPTIONS)
    checked = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    lines = text.splitlines()
    assert lines[0] == "#!/bin/bash"
    first_command = next(number for number, line in enumerate(lines) if line.strip() and not line.startswith("#"))
    directives = [line.split(maxsplit=1)[1] for line in lines[:first_command] if line.startswith("#SBATCH ")]
    assert not [line for line in lines[first_command:] if line.startswith("#SBATCH")], "sbatch stops reading there"
    assert directives == [
        "--job-name=grade-class",
        f"--array=0-{SHARDS - 1}",
        "--cpus-per-task=2",
        "--output=grade-class-%A-%a.log",
    ]
    opening = "\n".join(lines[:first_command])
    assert "bubblewrap" in opening and "grade doctor" in opening and "kit installed" in opening, "what nodes need"

    environment = stand_ins(tmp_path)
    submitted = subprocess.run(["bash", script.name], cwd=tmp_path, env=environment, capture_output=True, text=True)
    assert submitted.returncode == 0, submitted.stderr
    assert "job array 4242" in submitted.stdout and "merge as job 4243" in submitted.stdout
    array, merge = logged(tmp_path, "sbatch")
    assert array == ["--parsable", script.name], "the script submits itself as the array"
    assert "--dependency=afterok:4242" in merge, "the merge waits for every shard to end well"
    wrapped = next(word for word in merge if word.startswith("--wrap="))
    subprocess.run(["bash", "-c", wrapped.removeprefix("--wrap=")], cwd=tmp_path, env=environment, check=True)
    for index in range(SHARDS):  # as Slurm runs each task of the array
        task = environment | {"SLURM_JOB_ID": "4242", "SLURM_ARRAY_TASK_ID": str(index)}
        subprocess.run(["bash", script.name], cwd=tmp_path, env=task, check=True, capture_output=True)
    assert logged(tmp_path, "grade") == [MERGE_CALL, *(shard_call(index) for index in range(SHARDS))]


def kubernetes_documents(tmp_path: Path) -> list[dict[str, Any]]:
    _, text = write_job_file(
        tmp_path, "kubernetes", "grade-class.yaml", "--image", "registry.example.edu/bpe:1", *BATCH_OPTIONS
    )
    assert "bubblewrap" in text and "container cage" in text and "kit installed" in text, "what pods need"
    return list(yaml.safe_load_all(text))


def test_the_kubernetes_file_is_an_indexed_job_and_a_merge_that_kubernetes_schema_accepts(tmp_path):
    documents = kubernetes_documents(tmp_path)
    for document in documents:
        for version in ("1.25.0", kubernetes_validate.latest_version()):
            kubernetes_validate.validate(document, version, strict=True)  # raises on a field it does not know
    shards, merge = documents
    assert [shards["kind"], merge["kind"]] == ["Job", "Job"]
    assert shards["spec"]["completionMode"] == "Indexed"
    assert shards["spec"]["completions"] == shards["spec"]["parallelism"] == SHARDS
    assert merge["spec"]["suspend"] is True, "started once the shards are complete"
    environment = stand_ins(tmp_path)
    for job in (shards, merge):
        pod = job["spec"]["template"]["spec"]
        (container,) = pod["containers"]
        assert container["image"] == "registry.example.edu/bpe:1"
        assert container["securityContext"]["runAsUser"] == 0, "the container cage needs the grader as root"
        assert pod["volumes"][0]["persistentVolumeClaim"]["claimName"] == "grade-class", "one volume for OUT"
        assert container["volumeMounts"][0]["mountPath"] == container["workingDir"]
        secret = container["env"][0]
        assert secret["name"] == "BPE_KIT_COURSE_SECRET" and secret["valueFrom"]["secretKeyRef"]["key"] == "secret"
        assert container["command"] == ["sh", "-c"]
        index = {"JOB_COMPLETION_INDEX": "2"} if job is shards else {}  # what Kubernetes sets in an Indexed Job
        subprocess.run(["sh", "-c", *container["args"]], cwd=tmp_path, env=environment | index, check=True)
    assert logged(tmp_path, "grade") == [shard_call(2), MERGE_CALL]


@pytest.mark.slow
def test_the_github_workflow_is_a_matrix_of_shards_and_a_merge_that_the_workflow_schema_accepts(tmp_path):
    path, text = write_job_file(tmp_path, "github", "grade-class.yml", *BATCH_OPTIONS)
    schema = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert schema.returncode == 0, schema.stdout + schema.stderr
    assert "bubblewrap" in text and "kit (pip install -e .)" in text, "what runners need"
    workflow = yaml.safe_load(text)
    shard, merge = workflow["jobs"]["shard"], workflow["jobs"]["merge"]
    assert shard["strategy"]["matrix"]["shard"] == list(range(SHARDS))
    assert shard["strategy"]["fail-fast"] is False, "a failed shard leaves the others to finish"
    assert merge["needs"] == "shard"
    uploaded = next(step for step in shard["steps"] if step.get("uses", "").startswith("actions/upload-artifact"))
    assert "${{ matrix.shard }}" in uploaded["with"]["name"] and uploaded["with"]["path"] == "graded"
    gathered = next(step for step in merge["steps"] if step.get("uses", "").startswith("actions/download-artifact"))
    assert gathered["with"]["merge-multiple"] is True and gathered["with"]["path"] == "graded"
    assert workflow["env"]["BPE_KIT_COURSE_SECRET"] == "${{ secrets.BPE_KIT_COURSE_SECRET }}"

    environment = stand_ins(tmp_path)
    for job in (shard, merge):
        for step in job["steps"]:
            if "run" not in step:
                continue
            script = step["run"].replace("${{ matrix.shard }}", "1")  # as GitHub fills it in for shard 1
            checked = subprocess.run(["bash", "-n", "-c", script], capture_output=True, text=True)
            assert checked.returncode == 0, checked.stderr
            if step["run"].lstrip().startswith("grade batch"):
                subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, env=environment, check=True)
    assert logged(tmp_path, "grade") == [shard_call(1), MERGE_CALL]


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (("--", "--force"), "--force"),
        (("--", "--shard", "0/2"), "--shard"),
        (("--", "-o", "elsewhere"), "--batch-out"),
        (("--", "--jobs", "4"), "--jobs"),
        (("--", "--no-such-option"), "No such option"),
        (("--name", "Grade_Class"), "--name"),
    ],
)
def test_grade_jobs_refuses_in_one_line_what_a_job_file_cannot_hold(tmp_path, arguments, said):
    process = subprocess.run(
        [sys.executable, "-m", "autograder.cli", "jobs", "slurm", "--shards", "2", *arguments],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert process.returncode == 2 and process.stdout == ""
    assert process.stderr.startswith("grade jobs: ") and process.stderr.count("\n") == 1, process.stderr
    assert said in process.stderr
