"""The names of Canvas's bulk download of an assignment's submissions, as Canvas writes them
(instructure/canvas-lms, lib/content_zipper.rb): ``<slug>[_LATE]_<user id>_<attachment id>_<display name>``.

The slug is the sortable name lower-cased with every character that is not a word character removed (Ruby's
[[:word:]]: letters, marks, decimal digits, connector punctuation, in any script), and the user id is
``anon_<anonymous id>`` on an anonymous assignment, which has no slug. LATE marks a file received after the due
date (older Canvas lower-cased it with the name).
"""

from __future__ import annotations

import re
import unicodedata

from autograder.hand_in.lms.found import Reading, original

NAME = "Canvas"  # as the batch, its gradebook and its messages name the platform
TAIL = re.compile(r"^(?:(?P<late>LATE|late)_)?(?P<id>\d+|anon_[A-Za-z0-9]+)_\d+_(?P<file>.+)$", re.DOTALL)
WORD = ("L", "M", "Nd", "Pc")  # the Unicode categories Ruby's [[:word:]] keeps
# The reading that stands where nothing settles a name that reads more than one way: Canvas removes "_<digits>_"
# from a name before it writes the id, so its own id comes first.
UNSETTLED = 0


def readings(name: str) -> list[Reading]:
    """Every way ``name`` fits Canvas's shape, the shortest slug first: a slug may hold ``_<digits>_<digits>_``
    (Canvas removes the characters between) and a display name may too, so one name can read more than one way."""
    found: list[Reading] = []
    for cut in [-1, *(index for index, character in enumerate(name) if character == "_")]:
        slug, tail = name[: max(cut, 0)], name[cut + 1 :]
        match = TAIL.match(tail)
        if match is None or not all(_is_word(character) for character in slug):
            continue
        if (cut < 0) != match["id"].startswith("anon_"):  # an anonymous assignment's names, and only they, start so
            continue
        reading = Reading(match["id"], slug, original(match["file"]), late=match["late"] is not None)
        if not any((seen.student, seen.file) == (reading.student, reading.file) for seen in found):
            found.append(reading)  # "x_LATE_1_2_f" also reads as slug "x_LATE": the same file, kept once
    return found


def _is_word(character: str) -> bool:
    category = unicodedata.category(character)
    return category[0] in "LM" or category in WORD
