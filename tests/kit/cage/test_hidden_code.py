"""Only source the instructor can read is imported from a hand-in.

A hand-in whose ``bpe.py`` is one line, ``from helper import *``, and whose
real code is compiled (``helper.pyc``), or packed in a zip it puts on the path,
would show the instructor, the similarity measure and the feedback page
nothing of what earned its points: a copy hidden that way is never flagged.
So the worker imports only ``.py`` files from the hand-in, and the report says
which compiled files it left alone and what to hand in instead.
"""

from __future__ import annotations

import importlib.util
import io
import py_compile
import zipfile
from pathlib import Path

import pytest
from classroom import SOLUTIONS
from commands import grade
from results import function_scores

# Its hand-ins step outside the plain-Python policy on purpose, to test the worker and the cage.
pytestmark = pytest.mark.without_policy

FAST = ("--part", "bpe", "--limit", "call_seconds=2", "--limit", "test_seconds=10")
IMPORTS_HELPER = "from helper import *  # noqa: F403\n"


def compiled(source: Path, *, invalidation: py_compile.PycInvalidationMode) -> bytes:
    """``source`` compiled as Python would cache it."""
    target = source.with_suffix(".compiled")
    py_compile.compile(str(source), cfile=str(target), doraise=True, invalidation_mode=invalidation)
    data = target.read_bytes()
    target.unlink()
    return data


def zipped(name: str, text: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(name, text)
    return buffer.getvalue()


def hand_in(folder: Path, how: str) -> None:
    """Part 2's reference, hidden from the hand-in's own bpe.py as ``how`` says."""
    folder.mkdir()
    reference = (SOLUTIONS / "bpe.py").read_text(encoding="utf-8")
    helper = folder / "helper.py"
    helper.write_text(reference, encoding="utf-8")
    tag = importlib.util.cache_from_source("helper.py").rsplit("/", 1)[-1]  # helper.cpython-311.pyc
    if how == "source helper":  # the honest way to split a hand-in: it must still work
        (folder / "bpe.py").write_text(IMPORTS_HELPER, encoding="utf-8")
        return
    if how == "compiled helper beside it":
        (folder / "helper.pyc").write_bytes(compiled(helper, invalidation=py_compile.PycInvalidationMode.TIMESTAMP))
        (folder / "bpe.py").write_text(IMPORTS_HELPER, encoding="utf-8")
    elif how == "compiled module in a package":
        (folder / "tools").mkdir()
        (folder / "tools" / "__init__.py").write_text("", encoding="utf-8")
        data = compiled(helper, invalidation=py_compile.PycInvalidationMode.TIMESTAMP)
        (folder / "tools" / "helper.pyc").write_bytes(data)
        (folder / "bpe.py").write_text("from tools.helper import *  # noqa: F403\n", encoding="utf-8")
    elif how == "zip put on the path":
        (folder / "lib.zip").write_bytes(zipped("helper.py", reference))
        (folder / "bpe.py").write_text(
            "import os, sys\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), 'lib.zip'))\n" + IMPORTS_HELPER,
            encoding="utf-8",
        )
    elif how == "unchecked cache beside a stub":
        # A cache that Python trusts without looking at the source: the stub's text, the reference's code.
        data = compiled(helper, invalidation=py_compile.PycInvalidationMode.UNCHECKED_HASH)
        (folder / "__pycache__").mkdir()
        (folder / "__pycache__" / tag).write_bytes(data)
        (folder / "bpe.py").write_text(IMPORTS_HELPER, encoding="utf-8")
        helper.write_text("# nothing here yet\n", encoding="utf-8")
        return
    elif how == "cache written at import beside a stub":
        # The same cache, written by the hand-in itself at import, into the worker's copy of its folder.
        data = compiled(helper, invalidation=py_compile.PycInvalidationMode.UNCHECKED_HASH)
        (folder / "bpe.py").write_text(
            "import os\n"
            "_here = os.path.dirname(os.path.abspath(__file__))\n"
            "os.makedirs(os.path.join(_here, '__pycache__'), exist_ok=True)\n"
            f"with open(os.path.join(_here, '__pycache__', {tag!r}), 'wb') as _cache:\n"
            f"    _cache.write({data!r})\n" + IMPORTS_HELPER,
            encoding="utf-8",
        )
        helper.write_text("# nothing here yet\n", encoding="utf-8")
        return
    helper.unlink()


HIDDEN = (
    "compiled helper beside it",
    "compiled module in a package",
    "zip put on the path",
    "unchecked cache beside a stub",
    "cache written at import beside a stub",
)


@pytest.mark.attack
@pytest.mark.parametrize("how", HIDDEN)
def test_code_handed_in_where_no_one_can_read_it_earns_nothing(tmp_path: Path, how: str) -> None:
    folder = tmp_path / "student"
    hand_in(folder, how)
    process, document = grade(folder, *FAST)
    assert document, process.stderr[-2000:]
    earned = {
        function: score for (module, function), (score, _) in function_scores(document).items() if module == "bpe"
    }
    assert not any(earned.values()), f"{how}: hidden code earned {earned}"


@pytest.mark.parametrize(
    ("how", "named"),
    [("compiled helper beside it", "helper.pyc"), ("compiled module in a package", "tools/helper.pyc")],
)
@pytest.mark.attack
def test_the_report_names_compiled_files_and_what_to_hand_in(tmp_path: Path, how: str, named: str) -> None:
    folder = tmp_path / "student"
    hand_in(folder, how)
    process, document = grade(folder, *FAST)
    notes = [note for note in document.get("extra_data", {}).get("notes", []) if named in str(note)]
    assert notes, process.stdout[-2000:]
    assert named.removesuffix(".pyc") + ".py" in str(notes[0])


def test_a_hand_in_split_into_source_modules_still_earns_everything(tmp_path: Path) -> None:
    folder = tmp_path / "student"
    hand_in(folder, "source helper")
    process, document = grade(folder, *FAST)
    scores = {key: value for key, value in function_scores(document).items() if key[0] == "bpe"}
    assert scores and all(score == most for score, most in scores.values()), (scores, process.stderr[-2000:])
