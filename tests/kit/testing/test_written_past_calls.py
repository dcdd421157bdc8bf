"""What a hand-in's processes write past print (straight to a descriptor) shows none of a property's hidden
examples either: the process that failed the property wrote it after it had been given them."""

from __future__ import annotations

from pathlib import Path

import pytest
from classroom import SOLUTIONS
from commands import run_batch

# Its hand-in writes to a descriptor, which the plain-Python policy refuses: this is the cage's and the
# grader's business.
pytestmark = [pytest.mark.without_policy, pytest.mark.attack]

MARK = "KEPT#"
# char_tokenize answers its first eleven calls right, keeping each text; from the twelfth on it writes the
# ones it kept to descriptor 2, past the call's printed output, and raises with a message of no interest.
WRITES = """

import os as _os

_KEPT = []
_right_char_tokenize = char_tokenize


def char_tokenize(text):
    earlier = "".join("KEPT" + "#" + str(number) + "=" + repr(seen) + ";" for number, seen in enumerate(_KEPT, 1))
    _KEPT.append(text)
    if len(_KEPT) < 12:
        return _right_char_tokenize(text)
    _os.write(2, earlier.encode("utf-8", "replace"))
    raise ValueError("no")
"""


def test_what_a_failing_property_wrote_past_print_shows_none_of_its_other_examples(tmp_path: Path):
    folder = tmp_path / "class" / "mallory"
    folder.mkdir(parents=True)
    source = (SOLUTIONS / "simple_tokenizers.py").read_text(encoding="utf-8") + WRITES
    (folder / "simple_tokenizers.py").write_text(source, encoding="utf-8")
    out = tmp_path / "out"
    process = run_batch(tmp_path / "class", out, "--feedback", "failures", "--part", "simple_tokenizers")
    assert process.returncode == 0, process.stderr[-2000:]
    results = (out / "mallory" / "results.json").read_text(encoding="utf-8")
    assert '"outcome": "error"' in results, "the attack must fail a test on purpose"
    for name in ("feedback.md", "feedback.html"):
        text = (out / "mallory" / name).read_text(encoding="utf-8")
        assert MARK not in text, f"{name}: {text[text.find(MARK) - 300 : text.find(MARK) + 200]}"
