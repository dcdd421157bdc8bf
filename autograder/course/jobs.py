"""Job files that grade a class on more than one machine: ``grade jobs slurm|kubernetes|github``.

Each file runs ``grade batch SUBMISSIONS -o OUT --shard K/N`` once for each shard, with K from the
engine (Slurm's ``SLURM_ARRAY_TASK_ID``, Kubernetes' ``JOB_COMPLETION_INDEX``, a GitHub Actions
matrix), then ``grade batch SUBMISSIONS -o OUT --merge`` once every shard has ended well, and says in
its opening comment how to start it and what the machines need. The files come from templates beside
the package (``templates/jobs-*``), every value put in quoted for where it goes (a shell word, a YAML
string).

>>> text = job_file("slurm", ClassJob(shards=3, submissions="submissions", out="graded"))
>>> "#SBATCH --array=0-2" in text and '--shard "${SLURM_ARRAY_TASK_ID}/3"' in text
True
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from autograder.run_errors import RunError

ENGINES = ("slurm", "kubernetes", "github")
TEMPLATES = Path(__file__).parents[1] / "templates"  # package data, beside cli.py
TEMPLATE = {"slurm": "jobs-slurm.sh", "kubernetes": "jobs-kubernetes.yaml", "github": "jobs-github.yml"}
# Where each file goes when -o does not say: beside the class, or where GitHub looks for workflows.
DEFAULT_FILE = {
    "slurm": "grade-class.sbatch",
    "kubernetes": "grade-class.yaml",
    "github": ".github/workflows/grade-class.yml",
}
# How each engine tells a task which shard it is, in the shell that runs the task's command.
SHARD_INDEX = {
    "slurm": "${SLURM_ARRAY_TASK_ID}",
    "kubernetes": "${JOB_COMPLETION_INDEX}",
    "github": "${{ matrix.shard }}",  # GitHub puts the value in before the shell runs
}
# A Kubernetes object's name (a DNS label, with room for "-shards"), and so a Slurm job's and a workflow's.
NAME = re.compile(r"^[a-z0-9](?:[-a-z0-9]{0,45}[a-z0-9])?$")
CLAIM = re.compile(r"^[a-z0-9](?:[-.a-z0-9]{0,251}[a-z0-9])?$")
PLACEHOLDER = re.compile(r"@[A-Z_]+@")


class JobsError(RunError, ValueError):
    """The job file cannot be written as asked: one line naming the value and the fix."""


@dataclass(frozen=True)
class ClassJob:
    """A class to grade as ``shards`` shards and a merge: ``grade batch SUBMISSIONS -o OUT`` for each."""

    shards: int
    submissions: str
    out: str
    shard_options: tuple[str, ...] = ()  # more of grade batch's options, for every shard
    merge_options: tuple[str, ...] = ()  # and for the merge (which alone takes --junit, --nbgrader-db)
    jobs: int = 2  # hand-ins each shard grades at once; the cores it asks the engine for
    name: str = "grade-class"
    image: str = "bpe-kit-course:latest"  # Kubernetes: an image of the course's kit
    claim: str = "grade-class"  # Kubernetes: the volume claim holding SUBMISSIONS and OUT
    file: str = ""  # the job file's own name, for its opening comment

    def check(self) -> None:
        if self.shards < 1:
            raise JobsError(f"--shards {self.shards}: a class is split into at least 1 shard")
        if self.jobs < 1:
            raise JobsError(f"--jobs {self.jobs}: each shard grades at least 1 hand-in at once")
        if not NAME.match(self.name):
            raise JobsError(
                f"--name {self.name!r}: lower-case letters, digits and '-', at most 47, starting and ending "
                "with a letter or digit (Kubernetes names its Jobs after it)"
            )
        if not CLAIM.match(self.claim):
            raise JobsError(f"--claim {self.claim!r}: a Kubernetes name (lower-case letters, digits, '-' and '.')")
        if not self.image or any(character.isspace() for character in self.image):
            raise JobsError(f"--image {self.image!r}: an image reference, such as registry.example.edu/course:1")


def commands(engine: str, job: ClassJob) -> tuple[str, str]:
    """The shell commands of a shard (with the engine's index in it) and of the merge."""
    batch = ["grade", "batch", job.submissions, "-o", job.out]
    shard = shlex.join([*batch, *job.shard_options, "--jobs", str(job.jobs), "--quiet"])
    shard += f' --shard "{SHARD_INDEX[engine]}/{job.shards}"'
    merge = shlex.join([*batch, *job.merge_options, "--merge", "--quiet"])
    return shard, merge


def job_file(engine: str, job: ClassJob) -> str:
    """The text of ``engine``'s job file for ``job``."""
    if engine not in ENGINES:
        raise JobsError(f"{engine!r}: choose one of {', '.join(ENGINES)}")
    job.check()
    shard, merge = commands(engine, job)
    values = {
        "FILE": job.file or DEFAULT_FILE[engine],
        "NAME": job.name,
        "SHARDS": str(job.shards),
        "LAST": str(job.shards - 1),
        "JOBS": str(job.jobs),
        "SUBMISSIONS": job.submissions,
        "OUT": job.out,
        "SHARD_COMMAND": shard,
        "MERGE_SHOWN": merge,
    }
    if engine == "slurm":
        values["MERGE_WRAPPED"] = shlex.quote(merge)  # sbatch --wrap=WORDS: one shell word
    elif engine == "kubernetes":
        values |= {
            "IMAGE": job.image,
            "IMAGE_YAML": json.dumps(job.image),  # a JSON string is a YAML string, whatever it holds
            "CLAIM": job.claim,
            "CLAIM_YAML": json.dumps(job.claim),
            "SHARD_COMMAND_YAML": json.dumps(f"exec {shard}"),
            "MERGE_COMMAND_YAML": json.dumps(f"exec {merge}"),
            "BACKOFF": str(2 * job.shards),  # pods that fail, over all the shards, before the Job gives up
        }
    else:
        values |= {
            "SHARD_LIST": ", ".join(str(index) for index in range(job.shards)),
            "OUT_YAML": json.dumps(job.out),
            "MERGE_COMMAND": merge,
        }
    text = (TEMPLATES / TEMPLATE[engine]).read_text(encoding="utf-8")
    filled = PLACEHOLDER.sub(lambda match: values.get(match[0].strip("@"), match[0]), text)
    left = sorted(set(PLACEHOLDER.findall(filled)) - set(PLACEHOLDER.findall("".join(values.values()))))
    if left:
        raise RuntimeError(f"{TEMPLATE[engine]}: no value for {', '.join(left)}")  # a bug of the kit's
    return filled
