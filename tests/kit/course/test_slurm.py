"""The Slurm script ``grade jobs slurm`` writes, run by a real Slurm: a one-node cluster on this machine
(slurm_cluster) grades a class as a job array of three shards and merges it in a job that waits for them,
and the class it builds is the class one ``grade batch`` builds on one machine, byte for byte but timings."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import slurm_cluster
from commands import snapshot
from sharded_class import CLASS_FILES, GRADABLE, PARTS_GRADED, assert_same_but_timings, without_timings, write_class

pytestmark = [pytest.mark.slurm, pytest.mark.slow]

SHARDS = 3
SCRIPT = "grade-class.sbatch"
EVERY_RUN = ("--roster", "roster.csv", *PARTS_GRADED)
GRADED_WITHIN = 900  # seconds for the array and the merge, on a busy 2-core machine


@pytest.fixture(scope="module")
def cluster() -> Iterator[slurm_cluster.Cluster]:
    # A CPU for each task and one for the merge: all could start at once, so only the dependency the script
    # gives the merge holds it back until every shard has ended.
    with slurm_cluster.one_node_cluster(cpus=SHARDS + 1) as running:
        yield running


def on_a_node(cluster: slurm_cluster.Cluster, folder: Path) -> dict[str, str]:
    """The environment jobs are submitted with: this cluster's, and a ``grade`` on PATH that is the kit under
    test in this interpreter (a job file's "what puts grade on the PATH" line, filled in)."""
    bin_folder = folder / "bin"
    bin_folder.mkdir()
    grade = bin_folder / "grade"
    grade.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m autograder.cli "$@"\n', encoding="utf-8")
    grade.chmod(0o755)
    environment = cluster.environment()
    return environment | {"PATH": f"{bin_folder}:{environment['PATH']}"}


def write_script(folder: Path, environment: dict[str, str], *arguments: str) -> None:
    written = subprocess.run(
        ["grade", "jobs", "slurm", "--shards", str(SHARDS), "--jobs", "1", "-o", SCRIPT, *arguments],
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert written.returncode == 0, written.stderr


def test_a_class_graded_as_a_slurm_array_and_merged_is_the_class_one_machine_grades(cluster, tmp_path):
    submissions, _ = write_class(tmp_path)
    environment = on_a_node(cluster, tmp_path)
    write_script(tmp_path, environment, "--", *EVERY_RUN, "--junit", "class.xml")

    submitted = subprocess.run(
        ["bash", SCRIPT], cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=120
    )
    assert submitted.returncode == 0, submitted.stderr
    ids = re.search(r"job array (\d+), and the merge as job (\d+)", submitted.stdout)
    assert ids is not None, submitted.stdout
    array, merge = ids.groups()
    states = cluster.wait([array, merge], timeout=GRADED_WITHIN)
    logs = "\n".join(f"== {path.name}\n{path.read_text()}" for path in sorted(tmp_path.glob("grade-class-*.log")))
    assert states == {f"{array}_{index}": "COMPLETED" for index in range(SHARDS)} | {merge: "COMPLETED"}, logs
    assert sorted(path.name for path in tmp_path.glob("grade-class-*.log")) == sorted(
        [f"grade-class-{array}-{index}.log" for index in range(SHARDS)] + [f"grade-class-merge-{merge}.log"]
    ), "a log for each task and for the merge"
    tasks = cluster.shown(array)
    assert len(tasks) == SHARDS and all(task["ArrayJobId"] == array for task in tasks)
    (merged,) = cluster.shown(merge)
    assert merged["StartTime"] >= max(task["EndTime"] for task in tasks), "the merge starts once the shards end"
    out = tmp_path / "graded"
    assert all((out / name).is_file() for name in CLASS_FILES), logs
    assert all((out / student / "results.json").is_file() for student in GRADABLE)

    # The same class on one machine, from the same folder and with the same options.
    one_machine = ["-o", "one-machine", *EVERY_RUN, "--junit", "one-machine.xml", "--jobs", "2", "--quiet"]
    one = subprocess.run(
        ["grade", "batch", submissions.name, *one_machine],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=GRADED_WITHIN,
    )
    assert one.returncode == 0, one.stderr
    assert_same_but_timings(out, tmp_path / "one-machine")
    junits = [without_timings(name, (tmp_path / name).read_bytes()) for name in ("class.xml", "one-machine.xml")]
    assert junits[0] == junits[1]


def test_slurm_takes_the_script_as_it_is_written(cluster, tmp_path):
    """``sbatch --test-only``: the cluster reads the script's directives and says when it would run it,
    submitting nothing."""
    environment = on_a_node(cluster, tmp_path)
    write_script(tmp_path, environment, "--", *EVERY_RUN)
    before, jobs = snapshot(tmp_path), cluster.states()
    checked = subprocess.run(
        ["sbatch", "--test-only", SCRIPT], cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=60
    )
    assert checked.returncode == 0, checked.stderr
    assert re.search(r"sbatch: Job \d+ to start at .* using 1 processors on nodes", checked.stderr), checked.stderr
    assert cluster.states() == jobs, "nothing submitted"
    assert snapshot(tmp_path) == before


def test_the_cluster_leaves_no_daemon_and_no_folder_behind():
    """What the tests start they end: munged, slurmctld and slurmd, found by the pid files they write."""
    with slurm_cluster.one_node_cluster() as running:
        pid_files = [running.folder / "slurmctld.pid", running.folder / "slurmd.pid"]
        pid_files.append(running.folder / "munge" / "munged.pid")
        pids = [int(path.read_text()) for path in pid_files]
        assert all(Path(f"/proc/{pid}").exists() for pid in pids)
    assert not any(Path(f"/proc/{pid}").exists() for pid in pids), "a daemon outlived its cluster"
    assert not running.folder.exists()
