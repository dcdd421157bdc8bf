"""What a batch's folder looks like, by its names: an LMS's bulk download (``canvas``, ``moodle``; ``names``
reads and groups them, ``downloads`` as a folder or a .zip), nbgrader's ``submitted/`` (``nbgrader``), one entry
per student (``folders``); each student's uploads merged into one hand-in (``uploads``), and when its files came
(``times``). ``layouts.read_layout`` is the one way in; ``found`` holds what it gives back.

Nothing is imported here: ``loading`` imports ``uploads``, and this package imports ``loading``."""
