"""Hand-ins that reach past plain Python, one per way in: each earns Part 1 or Part 2 points on a grader
without the policy (a classmate's copy run, or a mutation hidden from the worker's own check).

Each attack is a dict of files. Part 1 attacks run a classmate's honest ``simple_tokenizers`` that sits in
the hand-in under a name no static import names (``classmate.py``); Part 2 attacks hand in a ``merge_pair``
that edits its list in place and then hides that from the worker. The rest of the hand-in is the
reference, so every other part earns its points as usual.
"""

from __future__ import annotations

import marshal
from pathlib import Path

from classroom import SOLUTIONS

HONEST_PART_1 = (SOLUTIONS / "simple_tokenizers.py").read_text(encoding="utf-8")
PART_1_FUNCTIONS = ("char_tokenize", "build_char_vocab", "word_tokenize", "build_word_vocab", "encode_words")
# Binds Part 1's functions from the module object ``copied``.
_BIND = "".join(f"{name} = copied.{name}\n" for name in PART_1_FUNCTIONS)
# A merge_pair that edits its list in place: it loses "does not change the tokens" unless it hides that.
_MUTATING_MERGE_PAIR = """
def merge_pair(tokens, pair):
    hide_the_change()
    i = 0
    while i < len(tokens) - 1:
        if tokens[i] == pair[0] and tokens[i + 1] == pair[1]:
            tokens[i:i + 2] = [pair[0] + pair[1]]
        i += 1
    return list(tokens)
"""
# What each Part 2 attack does to hide the change: make the worker's check of the arguments say "unchanged".
_ALWAYS_UNCHANGED = "lambda *skipped: True"


def _part_1(code: str) -> dict[str, str]:
    return {"simple_tokenizers.py": code, "classmate.py": HONEST_PART_1}


def _part_2(hide: str) -> dict[str, str]:
    bpe = (SOLUTIONS / "bpe.py").read_text(encoding="utf-8")
    return {"bpe.py": bpe + "\n\n" + hide + "\n" + _MUTATING_MERGE_PAIR}


# pickle calls what its data names (protocol 0: GLOBAL, MARK, UNICODE, TUPLE, REDUCE): here
# importlib.import_module("classmate").
_PICKLED_IMPORT = b"cimportlib\nimport_module\n(Vclassmate\ntR."
_MARSHALLED = marshal.dumps(compile(HONEST_PART_1, "x", "exec"))

ATTACKS: dict[str, dict[str, str]] = {
    "importlib with a name built from pieces": _part_1(
        f"import importlib\ncopied = importlib.import_module('class' + 'mate')\n{_BIND}"
    ),
    "spec_from_file_location": _part_1(
        "import importlib.util\n"
        "spec = importlib.util.spec_from_file_location('copied', 'classmate.py')\n"
        "copied = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(copied)\n" + _BIND
    ),
    "__import__ through __subclasses__": _part_1(
        "for kind in object.__subclasses__():\n"
        "    found = getattr(getattr(kind, '__init__', None), '__globals__', {})\n"
        "    if '__builtins__' in found:\n"
        "        load = found['__builtins__']\n"
        "        load = load['__import__'] if isinstance(load, dict) else load.__import__\n"
        "        break\n"
        f"copied = load('class' + 'mate')\n{_BIND}"
    ),
    "computed getattr on a module": _part_1(
        "import re\nbuiltins = getattr(re, '__built' + 'ins__')\n"
        f"copied = builtins['__import__']('class' + 'mate')\n{_BIND}"
    ),
    "pickle": _part_1(f"import pickle\ncopied = pickle.loads({_PICKLED_IMPORT!r})\n{_BIND}"),
    "marshal": _part_1(f"import marshal\nexec(marshal.loads({_MARSHALLED!r}))\n"),
    "exec of text": _part_1("exec(open('classmate.py').read())\n"),
    "ctypes": _part_1("import ctypes\nfrom classmate import *\n"),
    # The coding hides a line from a reader that takes the file as UTF-8: "+AAo-" is a newline in UTF-7.
    "a UTF-7 coding": {
        "simple_tokenizers.py": "# coding: utf-7\n# a comment +AAo-from classmate import +ACo-\n",
        "classmate.py": HONEST_PART_1,
    },
    "frames through a traceback to the worker's globals": _part_2(
        "def hide_the_change():\n"
        "    try:\n        raise ValueError\n"
        "    except ValueError as error:\n        frame = error.__traceback__.tb_frame\n"
        "    while frame is not None and '_unchanged' not in frame.f_globals:\n        frame = frame.f_back\n"
        f"    if frame is not None:\n        frame.f_globals['_unchanged'] = {_ALWAYS_UNCHANGED}\n"
    ),
    "frames through a generator to the worker's globals": _part_2(
        "def _walk():\n    yield running.gi_frame.f_back\n"
        "def hide_the_change():\n"
        "    global running\n    running = _walk()\n    frame = next(running)\n"
        "    while frame is not None and '_unchanged' not in frame.f_globals:\n        frame = frame.f_back\n"
        f"    if frame is not None:\n        frame.f_globals['_unchanged'] = {_ALWAYS_UNCHANGED}\n"
    ),
    "gc.get_referrers to the worker's globals": _part_2(
        "import gc\n"
        "def hide_the_change():\n"
        "    for found in gc.get_objects():\n"
        "        if isinstance(found, dict) and '_unchanged' in found:\n"
        f"            found['_unchanged'] = {_ALWAYS_UNCHANGED}\n"
    ),
    "assigning another module's attribute": _part_2(
        "import marshal\n"
        "class _Equal:\n    def __eq__(self, other):\n        return True\n"
        "def hide_the_change():\n    marshal.dumps = lambda *skipped: _Equal()\n"
    ),
}
# The Part each attack aims at, by its module.
TARGET = {name: "bpe" if "bpe.py" in files else "simple_tokenizers" for name, files in ATTACKS.items()}


def write_attack(folder: Path, name: str) -> Path:
    """The hand-in of attack ``name``: the reference for every part, and the attack's files over it."""
    folder.mkdir(parents=True)
    for reference in SOLUTIONS.glob("*.py"):
        (folder / reference.name).write_text(reference.read_text(encoding="utf-8"), encoding="utf-8")
    for file, text in ATTACKS[name].items():
        (folder / file).write_text(text, encoding="utf-8")
    return folder
