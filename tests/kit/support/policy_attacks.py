"""Hand-ins that reach past plain Python, one per way in: each earns Part 1 or Part 2 points on a grader
without the policy (a classmate's copy run, or a mutation hidden from the worker's own check).

Each attack is a dict of files. Part 1 attacks run a classmate's honest ``simple_tokenizers`` that sits in
the hand-in under a name no static import names (``classmate.py``); Part 2 attacks hand in a ``merge_pair``
that edits its list in place and then hides that from the worker. The rest of the hand-in is the
reference, so every other part earns its points as usual.
"""

from __future__ import annotations

import base64
import importlib.util
import marshal
import zlib
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


# Code built at run time (test_built_code): a copy of the honest Part 1 hidden behind exec, marshal, a codec or a
# generator of the standard library's, each in ``simple_tokenizers.py`` beside PACKED_PART. Each is refused by
# the policy first (test_policy); the tripwire behind it catches most of them still (test_built_code says which
# only a special case of the old hook caught).
HONEST = (SOLUTIONS / "simple_tokenizers.py").read_text(encoding="utf-8")
PACKED = base64.b64encode(zlib.compress(HONEST.encode("utf-8"))).decode("ascii")
# A .pyc of the honest module with no source beside it (a header of magic number, flags, time and size).
COMPILED_PART = importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(compile(HONEST, "compiled_part.py", "exec"))
# A codec of the hand-in's own, which a source may declare (PACKED_PART does).
REGISTERS_CODEC = (
    "import base64, codecs, encodings.utf_8, zlib\n"
    "def decode(data, errors='strict'):\n"
    "    body = bytes(data).split(b'\\n', 1)[1]\n"
    "    return zlib.decompress(base64.b64decode(body)).decode(), len(data)\n"
    "codecs.register(lambda name: codecs.CodecInfo(encodings.utf_8.encode, decode, name='bpe-x')"
    " if name in ('bpe_x', 'bpe-x') else None)\n"
)
# The honest Part 1 as one expression: what typing.ForwardRef compiles from any string it is given.
AS_EXPRESSION = (
    "{'char_tokenize': lambda text: list(text),"
    " 'build_char_vocab': lambda texts: {c: i for i, c in enumerate(sorted({c for t in texts for c in t}))},"
    " 'word_tokenize': lambda text: text.split(),"
    " 'build_word_vocab': lambda texts: (lambda words: {**{w: i for i, w in enumerate(words)}, '[UNK]': len(words)})"
    "(sorted({w for t in texts for w in t.split()})),"
    " 'encode_words': lambda text, vocab: [vocab.get(w, vocab['[UNK]']) for w in text.split()]}"
)
PACKED_EXPRESSION = base64.b64encode(zlib.compress(AS_EXPRESSION.encode("utf-8"))).decode("ascii")
BUILT_CODE = {
    "exec": f"import base64, zlib\nexec(zlib.decompress(base64.b64decode({PACKED!r})))\n",
    "marshal": f"import marshal\nexec(marshal.loads({marshal.dumps(compile(HONEST, 'x', 'exec'))!r}))\n",
    "ctypes": HONEST + "\nimport ctypes\n",
    "exec of a file written at run time": (
        f"import base64, zlib\nopen('built.py', 'wb').write(zlib.decompress(base64.b64decode({PACKED!r})))\n"
        "from built import *\n"
    ),
    # What a second look found: each way around a hook that trusted what student code can change.
    "exec in a thread of its own": (
        f"import base64, threading, zlib\nSOURCE = zlib.decompress(base64.b64decode({PACKED!r}))\n"
        "runner = threading.Thread(target=exec, args=(SOURCE, globals()))\nrunner.start()\nrunner.join()\n"
    ),
    "exec with sys._getframe replaced": (
        f"import base64, sys, zlib\nreal = sys._getframe\nsys._getframe = lambda *skipped: None\n"
        f"exec(zlib.decompress(base64.b64decode({PACKED!r})), globals())\nsys._getframe = real\n"
    ),
    "a module written under a path that starts like the standard library's": (
        f"import base64, os, sys, zlib\nos.makedirs('/tmp/bpe-kit-test-copy', exist_ok=True)\n"
        f"open('/tmp/bpe-kit-test-copy/copied_part.py', 'wb').write(zlib.decompress(base64.b64decode({PACKED!r})))\n"
        "sys.path.insert(0, os.path.dirname(os.__file__) + '/../../../../../../../../tmp/bpe-kit-test-copy')\n"
        "from copied_part import *\n"
    ),
    "exec with builtins and hashlib replaced": (
        f"import base64, builtins, hashlib, os, sys, types, zlib\nSOURCE = zlib.decompress(base64.b64decode({PACKED!r}))\n"
        "OWN = hashlib.sha256(open(__file__, 'rb').read())\n"
        "sys.modules['hashlib'] = types.SimpleNamespace(sha256=lambda data: OWN)\n"
        "builtins.any = lambda *skipped: True\n"
        "exec(compile(SOURCE, os.path.dirname(os.__file__) + '/copied.py', 'exec'), globals())\n"
    ),
    # The worker's own request reader, which may load marshal: a compiled copy framed as a request of the grader's.
    "marshal loaded through the worker's own request reader": (
        "import io, sys\nframe = sys._getframe()\nwhile 'codec' not in frame.f_globals:\n    frame = frame.f_back\n"
        "reader = frame.f_globals['codec']\n"
        f"BODY = {marshal.dumps({'code': compile(HONEST, 'x', 'exec')}, 2)!r}\n"
        "exec(reader.read_request(io.BytesIO(reader.frame(BODY)))['code'], globals())\n"
    ),
    # The hook found again from a refusal's traceback and the collector, then its defaults changed in place.
    "exec after the hook's own defaults are changed in place": (
        f"import base64, gc, zlib\nSOURCE = zlib.decompress(base64.b64decode({PACKED!r}))\n"
        "try:\n    exec('0')\nexcept Exception as refused:\n    trace = refused.__traceback__\n"
        "while trace.tb_next is not None:\n    trace = trace.tb_next\n"
        "watched = trace.tb_frame.f_locals['_audited']\ngc.unfreeze()\n"
        "for holder in gc.get_referrers(watched):\n"
        "    if isinstance(holder, dict) and holder.get('_audited') is watched:\n"
        "        holder['_audited'] = frozenset()\n"
        "exec(SOURCE, globals())\n"
    ),
    # os.path.realpath as the hook called it: a Python function whose helpers student code can replace.
    "a module written elsewhere whose path the hook resolves with helpers replaced": (
        f"import base64, os, posixpath, sys, zlib\nos.makedirs('/tmp/bpe-kit-test-moved', exist_ok=True)\n"
        f"open('/tmp/bpe-kit-test-moved/moved_part.py', 'wb').write(zlib.decompress(base64.b64decode({PACKED!r})))\n"
        "resolve, inside = posixpath._joinrealpath, os.path.dirname(os.__file__) + '/moved_part.py'\n"
        "posixpath._joinrealpath = lambda path, rest, *more: (inside, True) if 'moved_part' in rest "
        "else resolve(path, rest, *more)\n"
        "sys.path.insert(0, '/tmp/bpe-kit-test-moved')\nfrom moved_part import *\n"
    ),
    # A compiled copy written at run time, imported once the worker's source-only path hook is taken away.
    "a compiled module imported after the source-only hook is removed": (
        f"import os, sys\nos.makedirs('/tmp/bpe-kit-test-compiled', exist_ok=True)\n"
        f"open('/tmp/bpe-kit-test-compiled/compiled_part.pyc', 'wb').write({COMPILED_PART!r})\n"
        "del sys.path_hooks[0]\nsys.path_importer_cache.clear()\n"
        "sys.path.insert(0, '/tmp/bpe-kit-test-compiled')\nfrom compiled_part import *\n"
    ),
    # The hook's reading of a declared coding, through builtins student code can replace.
    "a source decoded by a codec the hand-in registers, with max replaced": (
        "import builtins\nbuiltins.max = lambda *found, real=max: -1 if -1 in found else real(*found)\n"
        + REGISTERS_CODEC
        + "from packed_part import *\n"
    ),
    # An extension module (machine code) copied outside the interpreter's folders, imported from there.
    "an extension module imported from outside the interpreter's folders": (
        HONEST + "\nimport _json, os, shutil, sys\nos.makedirs('/tmp/bpe-kit-test-extension', exist_ok=True)\n"
        "shutil.copy(_json.__file__, '/tmp/bpe-kit-test-extension')\ndel sys.modules['_json'], sys.path_hooks[0]\n"
        "sys.path_importer_cache.clear()\nsys.path.insert(0, '/tmp/bpe-kit-test-extension')\nimport _json\n"
    ),
    # The standard library's generators called for text of the hand-in's own, past the way they are meant to be.
    "a function written by dataclasses' own maker from a body of text": (
        "import dataclasses\n"
        "char_tokenize = dataclasses._create_fn('char_tokenize', ['text'], ['return list(text)'], globals=globals())\n"
    ),
    "a function made from a forward reference's text": (
        "import typing\n"
        "char_tokenize = typing.ForwardRef('lambda text: list(text)')._evaluate(globals(), None, frozenset())\n"
    ),
    "a source decoded by a codec the hand-in registers": REGISTERS_CODEC + "from packed_part import *\n",
    # A third look: the standard library's generators run code from student-controlled module globals.
    "compiled by ast.parse with its AST flag set to nothing": (
        f"import ast, base64, zlib\nast.PyCF_ONLY_AST = 0\n"
        f"exec(ast.parse(zlib.decompress(base64.b64decode({PACKED!r}))), globals())\n"
    ),
    "compiled by ast.parse's own code run with globals of the hand-in's": (
        f"import ast, base64, types, zlib\nparse = types.FunctionType(ast.parse.__code__, {{**vars(ast), 'PyCF_ONLY_AST': 0}})\n"
        f"exec(parse(zlib.decompress(base64.b64decode({PACKED!r})), 'x', 'exec', type_comments=False, "
        "feature_version=None), globals())\n"
    ),
    "exec by namedtuple through a module global of collections": (
        f"import base64, collections, functools, types, zlib\nSOURCE = zlib.decompress(base64.b64decode({PACKED!r}))\n"
        "kept = collections._sys\n"
        "collections._sys = types.SimpleNamespace(intern=functools.partial(exec, SOURCE, globals()))\n"
        "collections.str = collections.isinstance = lambda given, *kind: False if kind else given\n"
        "try:\n    collections.namedtuple(globals(), ['x'])\nexcept TypeError:\n    pass\n"
        "collections._sys = kept\ndel collections.str, collections.isinstance\n"
    ),
    # enum.py is allowed whole: any of its functions that calls a global the hand-in set to exec.
    "exec by enum's class dictionary through a module global of enum": (
        f"import base64, enum, functools, zlib\nSOURCE = zlib.decompress(base64.b64decode({PACKED!r}))\n"
        "HERE, kept = globals(), enum._is_descriptor\n"
        "enum._is_descriptor = functools.partial(exec, SOURCE, HERE)\n"
        "class Kind(enum.Enum):\n    copy = HERE\nenum._is_descriptor = kept\n"
    ),
    # A frame's file name is what compile was told: the hand-in's own text, held, compiled as enum.py.
    "exec from the hand-in's own text compiled under the name of enum.py": (
        f"import base64, os, zlib\nSOURCE = zlib.decompress(base64.b64decode({PACKED!r}))\n"
        "def run(source, where):\n    exec(source, where)\n"
        "if __name__ != 'trampoline':\n    inside = {'__name__': 'trampoline'}\n"
        "    exec(compile(open(__file__, 'rb').read(), os.path.dirname(os.__file__) + '/enum.py', 'exec'), inside)\n"
        "    inside['run'](SOURCE, globals())\n"
    ),
    # The hook resolves an extension's path, then Python opens it again: a link flipped between the two.
    "an extension module behind a link another process flips": (
        HONEST + "\nimport _json, importlib.util, os, shutil\nfolder = '/tmp/bpe-kit-test-flipped'\n"
        "os.makedirs(folder, exist_ok=True)\nshutil.copy(_json.__file__, folder + '/copy.so')\n"
        "link = folder + '/_json.so'\nchild = os.fork()\nif child == 0:\n"
        "    while True:\n        for target in (_json.__file__, folder + '/copy.so'):\n"
        "            os.symlink(target, link + '.new')\n            os.replace(link + '.new', link)\n"
        "last = ImportError('the copy was never loaded')\nfor attempt in range(1, 3000):\n    try:\n"
        "        spec = importlib.util.spec_from_file_location(f'try{attempt}._json', folder + '/' * attempt + '/_json.so')\n"
        "        importlib.util.module_from_spec(spec)\n    except Exception as error:\n        last = error\n"
        "        continue\n"
        "    if folder + '/copy.so' in open('/proc/self/maps').read():\n        break\n"
        "os.kill(child, 9)\nif folder + '/copy.so' not in open('/proc/self/maps').read():\n"
        "    raise last  # what stopped every try\n"
    ),
    # typing.ForwardRef.__init__ may compile: a string of the hand-in's, so any expression, lambdas and all.
    "a copy written as one expression, compiled by typing.ForwardRef": (
        f"import base64, typing, zlib\nEXPRESSION = zlib.decompress(base64.b64decode({PACKED_EXPRESSION!r})).decode()\n"
        "globals().update(eval(typing.ForwardRef(EXPRESSION).__forward_code__))\n"
    ),
    # Nothing of the hand-in's on the stack: a finalizer the collector runs once the import has returned.
    "exec by a finalizer the collector runs under the worker's own frames": (
        f"import base64, gc, weakref, zlib\nSOURCE = zlib.decompress(base64.b64decode({PACKED!r}))\n"
        "class Holder:\n    pass\nholder = Holder()\nholder.cycle = holder\n"
        "weakref.finalize(holder, exec, SOURCE, globals())\ngc.set_threshold(1)\ndel holder\n"
    ),
    # An import whose module path is in the standard library's folder, from source the loader makes up.
    "a module imported under a standard library path from a loader's own source": (
        f"import base64, importlib.machinery, importlib.util, os, sys, zlib\n"
        f"SOURCE = zlib.decompress(base64.b64decode({PACKED!r}))\n"
        "class Finder:\n    @staticmethod\n    def find_spec(name, path=None, target=None):\n"
        "        if name != 'copied_part':\n            return None\n"
        "        loader = importlib.machinery.SourceFileLoader(name, os.path.dirname(os.__file__) + '/copied_part.py')\n"
        "        loader.get_data = lambda path: SOURCE\n"
        "        return importlib.util.spec_from_loader(name, loader)\n"
        "sys.meta_path.insert(0, Finder)\nfrom copied_part import *\n"
    ),
}
PACKED_PART = f"# -*- coding: bpe_x -*-\n{PACKED}\n"

# A declared coding a reader may take otherwise than Python's tokenizer does (which takes the first "coding:" or
# "coding=", and looks at the second line when the first names no encoding): each file holds PACKED last.
MISREAD_CODINGS = {
    "a coding declared twice, the hook reading the later": f"# coding=bpe_x coding:utf-8\n{PACKED}\n",
    "a coding on the second line after a first that names none": f"# coding: ,\n# coding: bpe_x\n{PACKED}\n",
}
