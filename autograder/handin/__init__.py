"""Reading a hand-in, the pipeline's first step: bounded files and zips, LMS uploads merged, the hand-in's
shape (part modules, one script or notebook, a release's own folder), notebooks and their slicing."""
