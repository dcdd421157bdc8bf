"""A real container for the kit's tests: Debian's podman with runc, Docker's seccomp rules and capabilities.

Gradescope, Docker and most CI container jobs run the grader as root in a container where no process can
make namespaces. An imitation (bubblewrap with Docker's capabilities) still lets ``unshare -U`` through, so
a cage tested there may pass by making a user namespace that no real container allows. This starts the
real thing, as ``../shared/containers.md`` describes::

    process = run(["sh", "-c", "id -u"], binds=[], env={}, workdir="/", hide=[], timeout=60)
    assert process.stdout == "0\\n"

The container's root is this machine's own root (``--rootfs /:O``: read-only below, a throwaway layer
above), so Python and the kit's dependencies are there without an image; ``hide`` puts an empty tmpfs
over the folders it must not see (the kit's own clone, above all). ``assert_real`` checks, before a test
trusts a result, that the container is Docker's: no user namespace, Docker's 14 capabilities.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import uuid
from pathlib import Path
from typing import Any

from engines import require

from autograder.hand_in.policy_parts import WITHOUT_POLICY_VARIABLE

PODMAN_PROFILE = Path("/usr/share/containers/seccomp.json")
INSTALL = "apt-get install podman runc"
# Docker's default set (podman's default plus MKNOD, NET_RAW, AUDIT_WRITE), as /proc/self/status shows it.
DOCKER_CAPABILITIES = "00000000a80425fb"
# podman's own defaults (nofile 1048576, a high nproc) are above these machines' hard limits, and root
# here lacks CAP_SYS_RESOURCE: runc then fails with "setrlimit ... Operation not permitted".
LIMITS = ("--ulimit", "nofile=4096:4096", "--ulimit", "nproc=4096:4096")

# Docker's default profile (moby's profiles/seccomp/default.json) lets these through only with
# CAP_SYS_ADMIN, where podman's allows them to every process: inside podman's, `unshare -U` succeeds.
# umount is 32-bit x86's name for umount2; moby gates it with the others.
NAMESPACE_CALLS = ("clone", "clone3", "mount", "pivot_root", "setns", "umount", "umount2", "unshare")
CLONE_NEW_FLAGS = 0x7E020000  # every CLONE_NEW* flag: CLONE_NEWNS and 0x02000000..0x40000000
EPERM, ENOSYS = 1, 38


def engines() -> tuple[str, str]:
    """podman and runc, found on PATH; the test skips (fails under BPE_KIT_REQUIRE_ENGINES=1) without them."""
    podman = require("podman", install=INSTALL)
    runc = require("runc", install=INSTALL)
    return podman, runc


def docker_like_profile(podman_profile: dict[str, Any]) -> dict[str, Any]:
    """podman's seccomp profile with Docker's rules for namespaces: none without CAP_SYS_ADMIN.

    The namespace calls leave every rule that allows them whatever the capabilities; then, as Docker has
    it, all of them are allowed with CAP_SYS_ADMIN, and without it ``clone`` only when its flags
    (argument 0 on x86-64 and arm64) hold no ``CLONE_NEW*`` bit, ``clone3`` answers ENOSYS (so libc falls
    back to ``clone``) and the rest fall to the default, which becomes EPERM.
    """
    rules = []
    for rule in podman_profile["syscalls"]:
        if rule["action"] == "SCMP_ACT_ALLOW" and not (rule.get("includes") or {}).get("caps"):
            kept = [name for name in rule["names"] if name not in NAMESPACE_CALLS]
            if not kept:
                continue
            rule = {**rule, "names": kept}
        rules.append(rule)
    rules += [
        {
            "names": list(NAMESPACE_CALLS),
            "action": "SCMP_ACT_ALLOW",
            "args": [],
            "comment": "Docker: namespaces and mounts only with CAP_SYS_ADMIN",
            "includes": {"caps": ["CAP_SYS_ADMIN"]},
            "excludes": {},
        },
        {
            "names": ["clone"],
            "action": "SCMP_ACT_ALLOW",
            "args": [{"index": 0, "value": CLONE_NEW_FLAGS, "valueTwo": 0, "op": "SCMP_CMP_MASKED_EQ"}],
            "comment": "Docker: a new process or thread, never a new namespace",
            "includes": {},
            "excludes": {"caps": ["CAP_SYS_ADMIN"]},
        },
        {
            "names": ["clone3"],
            "action": "SCMP_ACT_ERRNO",
            "args": [],
            "comment": "Docker: its flags sit in memory seccomp cannot read, so libc is sent back to clone",
            "includes": {},
            "excludes": {"caps": ["CAP_SYS_ADMIN"]},
            "errnoRet": ENOSYS,
            "errno": "ENOSYS",
        },
    ]
    return {**podman_profile, "defaultErrnoRet": EPERM, "defaultErrno": "EPERM", "syscalls": rules}


def command_line(
    command: list[str],
    *,
    profile: Path,
    binds: list[tuple[Path, str, str]],
    env: dict[str, str],
    workdir: str,
    hide: list[Path],
    name: str,
) -> list[str]:
    """The podman command line that runs ``command`` in a Docker-like container of this machine's root."""
    podman, runc = engines()
    line = [podman, "--runtime", runc, "--cgroup-manager=cgroupfs", "run", "--rm", "--name", name]
    # The host's network, as Gradescope's: setup.sh reaches the package registry; the worker's own
    # no-network rule is part of what the tests check.
    line += ["--network=host", "--cap-add", "MKNOD,NET_RAW,AUDIT_WRITE", "--security-opt", f"seccomp={profile}"]
    line += [*LIMITS, "-w", workdir]
    # A test module marked without_policy (conftest) grades with the policy off in the container too.
    if os.environ.get(WITHOUT_POLICY_VARIABLE) == "1":
        env = {**env, WITHOUT_POLICY_VARIABLE: "1"}
    for key, value in env.items():
        line += ["-e", f"{key}={value}"]
    for folder in hide:
        # notmpcopyup: podman's default fills a new tmpfs with what lay under it, which would hide nothing.
        line += ["--mount", f"type=tmpfs,destination={folder},notmpcopyup"]
    for host, inside, mode in binds:
        if mode not in ("ro", "rw"):
            raise ValueError(f"bind {host} -> {inside}: mode {mode!r}; say 'ro' or 'rw'")
        line += ["-v", f"{host}:{inside}:{mode}"]
    # Every option before --rootfs: whatever follows its path is the command.
    return [*line, "--rootfs", "/:O", *command]


def run(
    command: list[str],
    *,
    binds: list[tuple[Path, str, str]],
    env: dict[str, str],
    workdir: str,
    hide: list[Path],
    timeout: float,
) -> subprocess.CompletedProcess[str]:
    """Run ``command`` in a fresh container and wait for it; its output is text, its exit code the command's.

    ``binds``: (host folder, folder inside, "ro" or "rw"); ``hide``: folders that are empty inside.
    """
    name = f"bpe-kit-test-{uuid.uuid4().hex[:12]}"
    with tempfile.TemporaryDirectory(prefix="bpe-kit-container-") as scratch:
        profile = Path(scratch) / "docker-like-seccomp.json"
        podman_profile = json.loads(PODMAN_PROFILE.read_text(encoding="utf-8"))
        profile.write_text(json.dumps(docker_like_profile(podman_profile), indent=1), encoding="utf-8")
        line = command_line(command, profile=profile, binds=binds, env=env, workdir=workdir, hide=hide, name=name)
        try:
            return subprocess.run(line, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            # The podman client is gone but the container may live on: stop it by its name.
            subprocess.run([line[0], "rm", "--force", "--time", "0", name], capture_output=True, timeout=60)
            raise


def assert_real() -> None:
    """Fail unless a container here is Docker's: ``unshare -U`` refused, and Docker's 14 capabilities."""
    probe = "grep '^CapEff:' /proc/self/status; unshare -U true"
    process = run(["sh", "-c", probe], binds=[], env={}, workdir="/", hide=[], timeout=120)
    capabilities = process.stdout.split()
    assert capabilities[:1] == ["CapEff:"], f"the container did not start: {process.stderr[-2000:]}"
    assert process.returncode != 0 and "Operation not permitted" in process.stderr, (
        f"unshare -U was not refused (exit {process.returncode}): the seccomp profile is not Docker's; "
        f"{process.stderr[-1000:]}"
    )
    assert capabilities[1] == DOCKER_CAPABILITIES, f"CapEff {capabilities[1]}, Docker's is {DOCKER_CAPABILITIES}"
