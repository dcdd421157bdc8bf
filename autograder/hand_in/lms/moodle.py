"""The names of Moodle's bulk download of an assignment's submissions, as Moodle writes them (moodle/moodle,
mod/assign/classes/downloader.php): ``<full name>_<participant id>_assignsubmission_<plugin>``, then
``/<path>`` (a folder per student, the default) or ``_<file name>`` (one flat name); an older Moodle ends the
folder with ``_``. The full name has its ``_`` turned into spaces; what follows the plugin is the student's text.
"""

from __future__ import annotations

import re

from autograder.hand_in.lms.found import Reading, original

NAME = "Moodle"  # as the batch, its gradebook and its messages name the platform
ID = re.compile(r"_(?P<id>\d+)_assignsubmission_[a-z]+")
# The reading that stands where nothing settles a name that reads more than one way: decisions.md takes the last.
UNSETTLED = -1


def readings(name: str) -> list[Reading]:
    """Every way ``name`` fits Moodle's shape: each ``_<id>_assignsubmission_<plugin>`` followed by nothing, "_"
    (a folder) or "_<file name>"; the last comes last."""
    found: list[Reading] = []
    for match in ID.finditer(name):
        rest = name[match.end() :]
        if match.start() == 0 or (rest and not rest.startswith("_")):
            continue
        found.append(Reading(match["id"], name[: match.start()], original(rest[1:])))
    return found
