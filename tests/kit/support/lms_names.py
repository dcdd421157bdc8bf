"""Names of an LMS's bulk download, built the way the platforms build them (restated from their source).

Canvas, instructure/canvas-lms, lib/content_zipper.rb at 05e9653c12ef7afc65815ca84e5da7aa2e4c3bd3
(``get_filename``, ``sanitize_user_name``, ``sanitize_file_name``, ``sanitize_attachment_filename``,
``add_upload_submission``):

- the student's sortable name ("Müller, Jürgen") loses each ``_<digits>_`` run's underscores, is lower-cased,
  then joined with ``LATE`` (a late submission) and the user id by ``_``; every character that is not a word
  character (Ruby's ``[[:word:]]``: letters, marks, decimal digits, connector punctuation) is removed;
- each uploaded file is then ``<that>_<attachment id>_<display name>``, the display name with ``/\\:*?"<>|``
  and NUL runs turned into ``_``; an anonymous assignment has ``anon_<anonymous id>`` and no name.

Moodle, moodle/moodle, mod/assign/classes/downloader.php (``get_student_prefix``,
``load_submissionplugin_filelist``):

- the prefix is the full name with every ``_`` turned into a space, then ``_<participant id>``, cleaned as a
  file name (``clean_filename``: control characters and ``&<>"`|':\\/`` removed);
- "download as folders" (the default since Moodle 3.1): ``<prefix>_assignsubmission_file/<path in the
  submission>``; otherwise one flat name, ``<prefix>_assignsubmission_file_<file name>``.
"""

from __future__ import annotations

import re
import unicodedata

# Ruby's [[:word:]] (Onigmo): Letter, Mark, Decimal_Number, Connector_Punctuation
WORD_CATEGORIES = ("L", "M", "Nd", "Pc")
MOODLE_UNSAFE = re.compile(r"[\x00-\x1f\x7f&<>\"`|':\\/]")
ATTACHMENT_UNSAFE = re.compile(r'[\x00/\\:*?"<>|]+')


def _is_word(character: str) -> bool:
    category = unicodedata.category(character)
    return category[0] in "LM" or category in WORD_CATEGORIES


def canvas_name(sortable_name: str, user_id: int, attachment_id: int, file: str, *, late: bool = False) -> str:
    """One file of Canvas's "Download Submissions" zip."""
    user = re.sub(r"_(\d+)_", r"\1", sortable_name)
    user = re.sub(r"^(\d+)$", r"\1", user).lower()
    joined = "_".join(part for part in (user, "LATE" if late else "", str(user_id)) if part)
    prefix = "".join(character for character in joined if _is_word(character))
    return f"{prefix}_{attachment_id}_{ATTACHMENT_UNSAFE.sub('_', file)}"


def moodle_prefix(full_name: str, participant: int) -> str:
    """A student's prefix in Moodle's "Download all submissions"."""
    return MOODLE_UNSAFE.sub("", f"{full_name.replace('_', ' ')}_{participant}")


def moodle_folder(full_name: str, participant: int) -> str:
    """The folder of a student's files, in the download's "as folders" shape."""
    return f"{moodle_prefix(full_name, participant)}_assignsubmission_file"


def moodle_flat(full_name: str, participant: int, file: str) -> str:
    """One file of a student's, in the download's flat shape."""
    return f"{moodle_prefix(full_name, participant)}_assignsubmission_file_{file}"
