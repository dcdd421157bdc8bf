"""Only source text a hand-in holds runs: a copy hidden behind exec or marshal earns nothing and is listed in
the class summary; code the standard library generates (dataclasses, namedtuple, enum, typing) still runs."""

from __future__ import annotations

import base64
import importlib.util
import marshal
import zlib
from pathlib import Path

import pytest
from classroom import SOLUTIONS
from commands import grade, run_batch
from results import function_scores, gradebook_rows

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
COPIES = {
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
# Generated by the standard library: all source the hand-in holds. (exec of the hand-in's own file is
# refused by the policy now, as exec of any text is.)
GENERATED = """
import enum
import typing
from collections import namedtuple
from dataclasses import dataclass
from typing import NamedTuple


@dataclass(frozen=True)
class Span:
    start: int = 0


Pair = namedtuple("Pair", "left right")


class Named(NamedTuple):
    text: str
    later: "list[Span] | None" = None  # a forward reference: typing compiles it, then evaluates it


HINTS = typing.get_type_hints(Named)


class Kind(enum.Enum):
    CHAR = 1


from helper import *
"""


@pytest.mark.parametrize("way", sorted(COPIES))
def test_code_built_at_run_time_does_not_run(tmp_path: Path, way: str):
    (tmp_path / "simple_tokenizers.py").write_text(COPIES[way], encoding="utf-8")
    (tmp_path / "packed_part.py").write_text(PACKED_PART, encoding="utf-8")
    process, document = grade(tmp_path, "--no-cache", "--part", "simple_tokenizers")
    assert process.returncode in (0, 1), process.stderr[-2000:]
    assert document["score"] == 0
    said = "\n".join(test["output"] for test in document["tests"])
    # The policy refuses each before it runs (test_policy); the hook behind it names what slipped past.
    refused = "outside the plain-Python policy" in said or "is refused while your code is graded" in said
    # Refused in a thread of its own, or after the grader's own helpers were replaced, the copy's functions
    # were simply never defined.
    assert refused or "ctypes cannot be imported" in said or "defines no function" in said, said[:2000]


# A declared coding the hook reads otherwise than Python's tokenizer does (which takes the first "coding:" or
# "coding=", and looks at the second line when the first names no encoding): each file holds PACKED last.
MISREAD_CODINGS = {
    "a coding declared twice, the hook reading the later": f"# coding=bpe_x coding:utf-8\n{PACKED}\n",
    "a coding on the second line after a first that names none": f"# coding: ,\n# coding: bpe_x\n{PACKED}\n",
}


@pytest.mark.parametrize("way", sorted(MISREAD_CODINGS))
def test_a_source_whose_coding_the_hook_misreads_does_not_run(tmp_path: Path, way: str):
    registers = REGISTERS_CODEC.replace("split(b'\\n', 1)[1]", "split()[-1]")
    assert registers != REGISTERS_CODEC
    (tmp_path / "simple_tokenizers.py").write_text(registers + "from packed_part import *\n", encoding="utf-8")
    (tmp_path / "packed_part.py").write_text(MISREAD_CODINGS[way], encoding="utf-8")
    process, document = grade(tmp_path, "--no-cache", "--part", "simple_tokenizers")
    assert process.returncode in (0, 1), process.stderr[-2000:]
    assert document["score"] == 0


def test_a_part_module_written_at_run_time_by_another_part_does_not_run(tmp_path: Path):
    """Part 1's module writes Part 2's from a packed copy; the worker imports Part 2 itself: still refused."""
    packed = base64.b64encode(zlib.compress((SOLUTIONS / "bpe.py").read_bytes())).decode("ascii")
    writes = HONEST + (
        f"\nimport base64, zlib\nopen('bpe.py', 'wb').write(zlib.decompress(base64.b64decode({packed!r})))\n"
    )
    (tmp_path / "simple_tokenizers.py").write_text(writes, encoding="utf-8")
    (tmp_path / "bpe.py").write_text("# mine is coming\n", encoding="utf-8")
    process, document = grade(tmp_path, "--no-cache", "--part", "simple_tokenizers", "--part", "bpe")
    assert process.returncode in (0, 1), process.stderr[-2000:]
    scores = function_scores(document)
    assert all(score == 0 for (module, _), (score, _) in scores.items() if module == "bpe"), scores


def test_a_part_module_in_a_codec_another_part_registers_does_not_run(tmp_path: Path):
    """Part 1 registers a codec; Part 2's module declares it, and the worker imports Part 2 itself."""
    packed = base64.b64encode(zlib.compress((SOLUTIONS / "bpe.py").read_bytes())).decode("ascii")
    registers = HONEST + "\n" + REGISTERS_CODEC
    (tmp_path / "simple_tokenizers.py").write_text(registers, encoding="utf-8")
    (tmp_path / "bpe.py").write_text(f"# -*- coding: bpe_x -*-\n{packed}\n", encoding="utf-8")
    process, document = grade(tmp_path, "--no-cache", "--part", "simple_tokenizers", "--part", "bpe")
    assert process.returncode in (0, 1), process.stderr[-2000:]
    scores = function_scores(document)
    assert all(score == 0 for (module, _), (score, _) in scores.items() if module == "bpe"), scores


def test_code_the_standard_library_generates_still_runs(tmp_path: Path):
    (tmp_path / "helper.py").write_text(HONEST, encoding="utf-8")
    (tmp_path / "simple_tokenizers.py").write_text(GENERATED, encoding="utf-8")
    process, document = grade(tmp_path, "--no-cache", "--part", "simple_tokenizers")
    assert process.returncode == 0, process.stderr[-2000:]
    assert all(score == most for score, most in function_scores(document).values())


def test_a_class_summary_lists_the_copies_hidden_behind_exec_and_marshal(tmp_path: Path):
    submissions = tmp_path / "class"
    for student, text in (("ada", HONEST), ("bo", COPIES["exec"]), ("cy", COPIES["marshal"])):
        (submissions / student).mkdir(parents=True)
        (submissions / student / "simple_tokenizers.py").write_text(text, encoding="utf-8")
    process = run_batch(submissions, tmp_path / "out", "--part", "simple_tokenizers", "--jobs", "1")
    assert process.returncode == 0, process.stderr[-2000:]
    rows = gradebook_rows(tmp_path / "out")
    assert float(rows["ada"]["total"]) > 0 and rows["bo"]["total"] == rows["cy"]["total"] == "0"
    built = (tmp_path / "out" / "summary.md").read_text(encoding="utf-8").split("## Code built at run time")[1]
    section = built.split("\n## ")[0]
    assert "| bo | `exec` |" in section and "| cy | `exec, marshal` |" in section and "| ada |" not in section
