"""The one way into this package: what an instructor hands to ``grade batch``, read by its names in the
layout it has. Accepted layouts, looked at in this order:

- an LMS bulk download (Canvas, Moodle), as the .zip the LMS gave or unpacked into a folder (``downloads``);
- nbgrader's ``submitted/<student>/<assignment>/``: the course folder, or its ``submitted`` folder
  (``nbgrader``);
- a folder holding one entry per student: a sub-folder, a notebook, a .py file or a .zip, named after the
  student (``folders``).

Nothing is read here but names: each hand-in is loaded when its turn comes, so a class of 500 never sits in
memory at once.
"""

from __future__ import annotations

from pathlib import Path

from autograder.hand_in.lms import downloads, folders, names, nbgrader
from autograder.hand_in.lms.found import DiscoveryError, Download, listing


def read_layout(path: Path, *, assignment: str | None = None, roster_ids: set[str] | None = None) -> Download:
    """What ``path`` holds; ``roster_ids``, the roster's ids where there is one, settle an LMS name that reads as
    more than one student's."""
    if not path.exists():
        raise DiscoveryError(f"{path}: no such folder or file; give the folder (or LMS .zip) of submissions")
    if path.is_file():
        if path.suffix.lower() != ".zip":
            raise DiscoveryError(f"{path}: is a single file; give the folder of submissions, or the LMS's bulk .zip")
        return downloads.read_zip(path, roster_ids)
    nbgrader_root = path / nbgrader.SUBMITTED if (path / nbgrader.SUBMITTED).is_dir() else path
    if nbgrader_root.name == nbgrader.SUBMITTED:
        return nbgrader.read_submitted(nbgrader_root, assignment)
    entries = listing(path)
    lms = names.lms_pattern([entry.name for entry in entries], path)
    if lms is not None:
        return downloads.read_folder(path, entries, lms, roster_ids)
    return folders.read_folder(path, entries)
