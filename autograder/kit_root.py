"""Where the kit's own files are: the folder that holds autograder/, and beside it solutions/ and tests/
in the instructor's copy, modules/ and notebooks/ in a student release.

Every step may need it (the cage closes it to student code, testing finds its suites there), so it sits
at the top of the package, below them all.
"""

from __future__ import annotations

from pathlib import Path

KIT_ROOT = Path(__file__).resolve().parents[1]
