"""Reading a hand-in, the pipeline's first step: bounded files and zips, the hand-in's shape (part modules, one
script or notebook, a release's own folder), notebooks and their slicing; and, in ``lms/``, a batch's folder
by its names (an LMS's download, nbgrader's, one entry per student), each student's uploads merged."""
