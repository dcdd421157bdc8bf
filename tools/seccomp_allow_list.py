"""Write the worker's seccomp allow-list (autograder/cage/syscall_allow_list.json) from Docker's default profile.

Docker's profile (moby/moby, ``profiles/seccomp/default.json``) is the
starting point: what it allows a process without capabilities on x86-64 or
arm64, less the groups a worker never needs. ``tools/syscall_groups.toml``
puts every one of those calls in a group with its reason, allowed or
refused; this script checks that it names each exactly once and allows
nothing Docker refuses, takes Docker's rule for ``clone`` (no namespace
flags) and its answer for ``clone3`` (ENOSYS, so the C library falls back to
``clone``, whose flags seccomp can read), and writes the groups as data.
Calls the kit's number table (``tools/syscall_numbers.py``) has for neither
architecture are left out: the filter answers ENOSYS for any number it does
not know.

Docker's file is read from a clone or a download of moby/moby::

    git -C moby show 148a19b6d674f20b6d6159391ce156cb8bd1ed27:profiles/seccomp/default.json > default.json
    python tools/seccomp_allow_list.py default.json --commit 148a19b6d674f20b6d6159391ce156cb8bd1ed27
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GROUPS = ROOT / "tools" / "syscall_groups.toml"
NUMBERS = ROOT / "autograder" / "cage" / "syscall_numbers.json"
ALLOW_LIST = ROOT / "autograder" / "cage" / "syscall_allow_list.json"
# Docker's names for the two architectures the kit filters, as its profile's "arches" spell them.
DOCKER_ARCHES = {"amd64", "arm64"}
S390 = {"s390", "s390x"}  # clone's flags are its second argument there: Docker has a rule of its own for it


def docker_allows(profile: dict[str, Any]) -> set[str]:
    """The calls Docker's profile allows a process with no capabilities on x86-64 or arm64 (by any rule)."""
    allowed: set[str] = set()
    for rule in profile["syscalls"]:
        includes = rule.get("includes") or {}
        if rule["action"] != "SCMP_ACT_ALLOW" or includes.get("caps"):
            continue
        if includes.get("arches") and not DOCKER_ARCHES & set(includes["arches"]):
            continue
        allowed.update(rule["names"])
    return allowed


def clone_rule(profile: dict[str, Any]) -> dict[str, Any]:
    """Docker's rule for clone without CAP_SYS_ADMIN, off s390: allowed when no flag of its mask is set."""
    for rule in profile["syscalls"]:
        excludes = rule.get("excludes") or {}
        if (
            rule["names"] == ["clone"]
            and "CAP_SYS_ADMIN" in excludes.get("caps", [])
            and set(excludes.get("arches", [])) >= S390
        ):
            (argument,) = rule["args"]
            if argument["op"] != "SCMP_CMP_MASKED_EQ" or argument.get("valueTwo", 0) != 0:
                raise ValueError(f"Docker's clone rule is not 'no flag of the mask set': {argument}")
            return {"argument": argument["index"], "refused_flags": argument["value"]}
    raise ValueError("Docker's profile has no clone rule for a process without CAP_SYS_ADMIN")


def enosys_calls(profile: dict[str, Any]) -> list[str]:
    """The calls Docker answers with ENOSYS rather than refusing (clone3: the C library then uses clone)."""
    return sorted(
        name
        for rule in profile["syscalls"]
        if rule["action"] == "SCMP_ACT_ERRNO" and rule.get("errnoRet") == 38
        for name in rule["names"]
    )


def allow_list(profile_path: Path, commit: str) -> dict[str, Any]:
    profile = json.loads(profile_path.read_bytes())
    if profile["defaultAction"] != "SCMP_ACT_ERRNO":
        raise ValueError("Docker's profile no longer denies by default: read it again before regenerating")
    groups = tomllib.loads(GROUPS.read_text(encoding="utf-8"))
    architectures = json.loads(NUMBERS.read_text(encoding="utf-8"))["architectures"]
    known = {name for numbers in architectures.values() for name in numbers}
    docker = docker_allows(profile) & known
    enosys = enosys_calls(profile)

    named: dict[str, str] = {}
    for kind in ("allowed", "refused"):
        for group in groups[kind]:
            for call in group["calls"]:
                if call in named:
                    raise ValueError(f"{call} is in both {named[call]!r} and {group['name']!r}")
                if call not in known:
                    raise ValueError(f"{call} ({group['name']!r}) is a call of neither architecture's table")
                if kind == "allowed" and call not in docker:
                    raise ValueError(f"{call} ({group['name']!r}): Docker's profile refuses it, the kit allows no more")
                named[call] = group["name"]
    missing = sorted(docker - set(named))
    if missing:
        raise ValueError(f"Docker allows calls no group names (add each to a group of {GROUPS.name}): {missing}")

    def sorted_groups(kind: str) -> list[dict[str, Any]]:
        return [{**group, "calls": sorted(group["calls"])} for group in groups[kind]]

    return {
        "comment": "Written by tools/seccomp_allow_list.py from Docker's profile and tools/syscall_groups.toml.",
        "source": {
            "repository": "moby/moby",
            "path": "profiles/seccomp/default.json",
            "commit": commit,
            "sha256": hashlib.sha256(profile_path.read_bytes()).hexdigest(),
        },
        "docker_allows": sorted(docker),
        "allowed": sorted_groups("allowed"),
        "refused": sorted_groups("refused"),
        "refused_unnamed": {
            "reason": "Docker's profile refuses them to a process without capabilities, and so does the kit",
            "calls": sorted(known - set(named) - set(enosys)),
        },
        "enosys": {
            "reason": "its flags sit in memory seccomp cannot read; on ENOSYS the C library falls back to clone",
            "calls": enosys,
        },
        "clone": {**clone_rule(profile), "reason": "a new namespace is a way out of the cage's"},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile", type=Path, help="moby's profiles/seccomp/default.json")
    parser.add_argument("--commit", required=True, help="the moby/moby commit the file was read at")
    options = parser.parse_args()
    ALLOW_LIST.write_text(json.dumps(allow_list(options.profile, options.commit), indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
