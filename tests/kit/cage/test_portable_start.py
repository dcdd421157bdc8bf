"""Which path started a part's process: the portable path's test that it is taken at all (test_portable_path
compares what it gives with the fork path's)."""

from __future__ import annotations

import pytest
from classroom import SOLUTIONS
from test_portable_path import graded, report

# Its hand-in reads the interpreter's own command line, which the plain-Python policy refuses.
pytestmark = pytest.mark.without_policy


def test_the_portable_path_starts_each_parts_process_and_the_fork_path_forks_it(tmp_path):
    """What the part's process was started as: a fresh interpreter on the bootstrap ("part") on the portable
    path, the worker's own command line on the fork path. The equality tests (test_portable_path) would pass on a kit that
    ignored BPE_KIT_CAGE=portable; this one would not."""
    folder = tmp_path / "hand-in"
    folder.mkdir()
    text = (SOLUTIONS / "simple_tokenizers.py").read_text(encoding="utf-8")
    probe = "\nimport sys as _sys\n\nprint('started as a part:', 'part' in _sys.orig_argv)\n"
    (folder / "simple_tokenizers.py").write_text(text + probe, encoding="utf-8")
    for portable in (False, True):
        document = graded(folder / "simple_tokenizers.py", "--suite", "public", portable=portable)
        assert f"started as a part: {portable}" in report(document)
