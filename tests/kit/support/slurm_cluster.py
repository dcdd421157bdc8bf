"""A real Slurm for the kit's tests: a one-node cluster on this machine, in a folder of its own, stopped with
every daemon it started when the block ends::

    with one_node_cluster() as cluster:
        submitted = subprocess.run(["sbatch", "--parsable", "job.sh"], env=cluster.environment(), ...)
        states = cluster.wait([submitted.stdout.strip()], timeout=600)

Debian's ``slurm-wlm`` and ``munge`` (``.ci/system-packages``) run it as root, as one machine's cluster
runs it: ``munged`` as the ``munge`` user with a key and a socket of its own, ``slurmctld`` and ``slurmd``
as root (``SlurmUser=root``) with their state, spool, logs and ports apart from any other Slurm here,
tracking a job's processes by their parents and binding no task to a CPU (no control groups needed).
Where Slurm is missing, or the test is not root, it skips with one line (fails under
``BPE_KIT_REQUIRE_ENGINES=1``).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engines import require, unavailable

INSTALL = "apt-get install slurm-wlm munge"
CLIENTS = ("sbatch", "squeue", "scontrol", "scancel", "sinfo")
STARTED_WITHIN = 60.0  # seconds for the daemons to have the node idle, on a busy machine
# A job's states once it is over (squeue's long names); anything else is still to come.
ENDED = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED", "BOOT_FAIL"}


@dataclass(frozen=True)
class Cluster:
    folder: Path  # holds slurm.conf, the daemons' state, spool and logs, and munge's key and socket

    @property
    def conf(self) -> Path:
        return self.folder / "slurm.conf"

    def environment(self, base: dict[str, str] | None = None) -> dict[str, str]:
        """``base`` (this process's environment) with Slurm's commands pointed at this cluster; a job
        submitted with it gets it too (sbatch passes the submitter's environment on)."""
        kept = {key: value for key, value in (base or dict(os.environ)).items() if not key.startswith("SLURM_")}
        return kept | {"SLURM_CONF": str(self.conf)}

    def run(self, *command: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        """One of Slurm's commands against this cluster."""
        return subprocess.run(command, env=self.environment(), capture_output=True, text=True, timeout=timeout)

    def states(self) -> dict[str, str]:
        """Each job's state, by id (an array's tasks as ``ARRAY_TASK``), while Slurm remembers it."""
        shown = self.run("squeue", "--noheader", "--states=all", "--format=%i %T")
        if shown.returncode != 0:
            raise AssertionError(f"squeue failed: {shown.stderr}\n{self.logs()}")
        return dict(line.split() for line in shown.stdout.splitlines() if line.strip())

    def wait(self, jobs: list[str], *, timeout: float) -> dict[str, str]:
        """The end state of every job in ``jobs`` and of each task of the arrays among them, once all
        have ended; AssertionError with the daemons' logs when they have not within ``timeout`` s, or when
        one waits on a dependency that can no longer be met."""
        deadline = time.monotonic() + timeout
        while True:
            states = {job: state for job, state in self.states().items() if job.split("_")[0] in jobs}
            if states and all(state in ENDED for state in states.values()):
                return states
            stuck = self.run("squeue", "--noheader", "--format=%i %r").stdout
            if "DependencyNeverSatisfied" in stuck or time.monotonic() > deadline:
                raise AssertionError(f"jobs {', '.join(jobs)} did not end: {states}\n{stuck}\n{self.logs()}")
            time.sleep(1)

    def shown(self, job: str) -> list[dict[str, str]]:
        """``scontrol show job``'s fields of ``job`` (of each of its tasks, for an array)."""
        shown = self.run("scontrol", "--oneliner", "show", "job", job)
        if shown.returncode != 0:
            raise AssertionError(f"scontrol show job {job} failed: {shown.stderr}")
        return [dict(re.findall(r"(\w+)=(\S*)", line)) for line in shown.stdout.splitlines() if line.strip()]

    def logs(self) -> str:
        """The daemons' logs, last lines first of each, for a failure's message."""
        return "\n".join(
            f"== {path.name}\n" + "\n".join(path.read_text(errors="replace").splitlines()[-30:])
            for path in sorted(self.folder.rglob("*.log"))
        )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def configuration(folder: Path, munge_socket: Path, host: str, cpus: int) -> str:
    """slurm.conf for one node, ``host`` (which must be this machine's short name: slurmd finds itself by it),
    with ``cpus`` CPUs whatever the machine has (config_overrides)."""
    return f"""\
ClusterName=bpekit
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={munge_socket}
StateSaveLocation={folder / "state"}
SlurmdSpoolDir={folder / "spool"}
SlurmctldPidFile={folder / "slurmctld.pid"}
SlurmdPidFile={folder / "slurmd.pid"}
SlurmctldLogFile={folder / "slurmctld.log"}
SlurmdLogFile={folder / "slurmd.log"}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
SlurmdParameters=config_overrides
NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
"""


def stop(process: subprocess.Popen[bytes]) -> None:
    """End a daemon this module started: asked first, then killed."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=15)


@contextlib.contextmanager
def one_node_cluster(*, cpus: int | None = None) -> Iterator[Cluster]:
    """A running one-node Slurm cluster whose node has ``cpus`` CPUs (the machine's, unless told: more lets
    more tasks run at once than it has cores); every daemon it started is stopped, and its folder removed,
    after."""
    for client in CLIENTS:
        require(client, install=INSTALL)
    munged, slurmctld, slurmd = (require(daemon, install=INSTALL) for daemon in ("munged", "slurmctld", "slurmd"))
    if os.geteuid() != 0:
        unavailable("needs root to start a one-node Slurm cluster (SlurmUser=root)")
    try:
        munge_user = pwd.getpwnam("munge")
    except KeyError:
        unavailable(f"needs the munge user, which Debian's munge package makes: {INSTALL}")
    # Under the system's temporary folder, not pytest's (0700 folders the munge user cannot pass through).
    folder = Path(tempfile.mkdtemp(prefix="bpe-kit-slurm-"))
    cluster = Cluster(folder)
    daemons: list[subprocess.Popen[bytes]] = []
    with contextlib.ExitStack() as outputs:

        def start(command: list[str], output: Path, **how: Any) -> None:
            """Start a daemon in the foreground, so that this process holds it and can end it."""
            written = outputs.enter_context(output.open("wb"))
            daemons.append(subprocess.Popen(command, stdout=written, stderr=subprocess.STDOUT, **how))

        try:
            folder.chmod(0o755)
            munge = folder / "munge"
            munge.mkdir(mode=0o755)  # munged wants its socket's folder open to all, and writable by it alone
            key = munge / "munge.key"
            key.write_bytes(secrets.token_bytes(1024))
            key.chmod(0o400)
            for path in (munge, key):
                os.chown(path, munge_user.pw_uid, munge_user.pw_gid)
            munge_socket = munge / "munge.socket"
            start(
                [munged, "--foreground", f"--socket={munge_socket}", f"--key-file={key}"]
                + [f"--{name}-file={munge / f'munged.{name}'}" for name in ("log", "pid", "seed")],
                folder / "munged.out.log",
                user=munge_user.pw_uid,
                group=munge_user.pw_gid,
                extra_groups=[],
            )
            for name in ("state", "spool"):
                (folder / name).mkdir()
            host = socket.gethostname().split(".")[0]
            cluster.conf.write_text(
                configuration(folder, munge_socket, host, cpus or os.cpu_count() or 1), encoding="utf-8"
            )
            # -i: slurmctld has no earlier state to read
            start([slurmctld, "-D", "-i", "-f", str(cluster.conf)], folder / "slurmctld.out.log", cwd=folder)
            start([slurmd, "-D", "-f", str(cluster.conf)], folder / "slurmd.out.log", cwd=folder)
            deadline = time.monotonic() + STARTED_WITHIN
            while cluster.run("sinfo", "--noheader", "--format=%T").stdout.strip() != "idle":
                ended = [str(process.args) for process in daemons if process.poll() is not None]
                if ended or time.monotonic() > deadline:
                    raise AssertionError(
                        f"no idle node within {STARTED_WITHIN:.0f} s ({ended} ended)\n{cluster.logs()}"
                    )
                time.sleep(0.5)
            yield cluster
        finally:
            if len(daemons) == 3 and all(process.poll() is None for process in daemons):
                cancel_every_job(cluster)
            for process in reversed(daemons):  # slurmd, slurmctld, then munged, which both ask
                stop(process)
            shutil.rmtree(folder, ignore_errors=True)


def cancel_every_job(cluster: Cluster) -> None:
    """Cancel what is left on ``cluster`` (its own jobs only: its SLURM_CONF is its own) and give the jobs'
    processes a moment to end, so that none outlives the daemons."""
    cluster.run("scancel", "--user=root")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if all(state in ENDED for state in cluster.states().values()):
                return
        except (AssertionError, subprocess.SubprocessError):
            return
        time.sleep(0.5)
