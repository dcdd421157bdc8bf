"""What decides a score, as digests: a hand-in's files (``hand_in_hash``), and everything else (tests,
reference, limits, grader).

Two gradings with equal digests give equal results (grading is deterministic), so a result
may be reused: by ``grade batch`` for a student, by ``grade`` for one part of a hand-in.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from autograder import __version__
from autograder.cage.isolation import isolation
from autograder.grading.grading_limits import Limits
from autograder.hand_in.loaded import LoadedHandIn, hand_in_hash
from autograder.hand_in.policy_parts import WITHOUT_POLICY_VARIABLE
from autograder.testing.example_sets import course_secret

GRADER = Path(__file__).resolve().parents[1]  # the autograder package: its own code decides scores too


def grading_hash(
    suite: Path, references: Path, limits: Limits, parts: tuple[str, ...] = (), *, course_points: str = ""
) -> str:
    """What else decides a score: the tests (and which parts of them), the reference they compare with, the
    limits, the course's secret (the hidden examples), the course file's points (``course_points``, their
    digest), the cage the worker runs in (a result and its notes from one cage are never shown under
    another), and the grader's own code."""
    # The hidden suite's examples come from the course's secret (example_sets): its digest, never the secret.
    secret = hashlib.sha256(course_secret()).hexdigest() if suite.name == "hidden" else ""
    settings = json.dumps(
        {
            "limits": limits.as_dict(),
            "parts": sorted(parts),
            "cage": isolation().value,
            "secret": secret,
            **({"points": course_points} if course_points else {}),  # a course without points grades as before
            # The kit's own tests of the cage grade with the policy off (policy_parts): never one result for both.
            **({"policy": "off"} if os.environ.get(WITHOUT_POLICY_VARIABLE) == "1" else {}),
        },
        sort_keys=True,
    )
    digest = hashlib.sha256(f"{__version__}\0{suite.name}\0{settings}".encode())
    for folder in (suite, references, GRADER):
        # Code, and the data a suite keeps beside its tests (tiktoken's ids for Part 6's held-out texts).
        for path in sorted(folder.rglob("*")):
            if path.suffix not in (".py", ".json") or "__pycache__" in path.parts:
                continue
            digest.update(path.relative_to(folder).as_posix().encode("utf-8") + b"\0" + path.read_bytes())
    return digest.hexdigest()


def fingerprint(loaded: LoadedHandIn, grading: str) -> str:
    return hashlib.sha256(f"{hand_in_hash(loaded)}:{grading}".encode()).hexdigest()
