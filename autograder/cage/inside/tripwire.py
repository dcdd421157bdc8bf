"""The tripwire: an audit hook that refuses, where it runs, code built at run time that slipped past the policy.

The plain-Python policy (autograder/hand_in/policy.py) refuses exec, compile, marshal, importlib, ctypes,
frames and dunders in the grader, before any student code runs; this is what stands behind it, small on
purpose. Python's audit hooks are not a sandbox: code in this process can reach the hook, so it promises
nothing against code the policy let through by mistake and that knows it is here. The cage is the boundary
(docs/security/threat-model.md). What it refuses, by the code's origin and never by what the code says:

- a compile whose text is neither a file or notebook cell the hand-in held when grading began (under a
  name of its own) nor a file of Python's own folders, byte for byte, unless a standard-library generator
  of this Python (GENERATORS) asked for it;
- ``marshal.loads`` other than importlib reading a .pyc of Python's folders or a module frozen into this
  interpreter (3.13 unmarshals those where 3.11 and 3.12 had them built in), or the worker reading the
  grader's requests with none but its own frames on the stack;
- a code object built by hand, ctypes, and extension modules from outside Python's folders;
- changing the worker's own functions, this hook among them.
"""

from __future__ import annotations

import _imp
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any

# The standard library's code generators, by Python minor version: (file, qualified name) of the function that
# compiles the text it wrote. Data: a Python that moves one (3.13's dataclasses) is a new entry, not a new rule.
_COMMON = (("collections/__init__.py", "namedtuple"), ("typing.py", "ForwardRef.__init__"), ("ast.py", "parse"))
GENERATORS: dict[tuple[int, int], tuple[tuple[str, str], ...]] = {
    (3, 11): (("dataclasses.py", "_create_fn"), *_COMMON),
    (3, 12): (("dataclasses.py", "_create_fn"), *_COMMON),
    (3, 13): (("dataclasses.py", "_FuncBuilder.add_fns_to_class"), *_COMMON),
}
RUNTIME = "/cage/runtime/"  # where the worker's own code says it lives (cage.runtime_code names it so)
REFUSED_MODULES = frozenset({"ctypes", "_ctypes"})  # with it any bytes run as machine code
WATCHED = frozenset({"compile", "marshal.loads", "marshal.load", "code.__new__", "import", "ctypes.dlopen"})
_FUNCTION = type(lambda: None)
SAID = {
    "compile": "running code built at run time (exec, eval or compile of text that is not in your files)",
    "import": "loading compiled code (an extension module from outside Python's own folders)",
}


class BuiltCodeRefused(RuntimeError):
    """Code that is not in the hand-in's source was about to run: refused where it was built."""


def install(
    submission_dir: str,
    cells: Iterable[str],
    trusted: Iterable[str],
    own_readers: Iterable[Any],
    on_open: Callable[[Any], None],
    sha256: Any,
) -> None:
    """From now on the hook below watches this process. ``trusted``: Python's folders; ``own_readers``: the
    code objects with which the worker reads the grader's requests with marshal; ``on_open``: told of every
    file opened (the part cache's record of reads)."""
    held = {sha256(cell.encode("utf-8", "surrogatepass")).digest() for cell in cells}
    for folder, _, names in os.walk(submission_dir):
        for name in (name for name in names if name.endswith(".py")):
            with open(os.path.join(folder, name), "rb") as source:
                held.add(sha256(source.read()).digest())
    roots = tuple(os.path.realpath(folder).rstrip(os.sep) + os.sep for folder in trusted)
    version = sys.version_info[:2]
    generators = GENERATORS.get(version, GENERATORS[max(GENERATORS)])
    generators = tuple((os.sep + file.replace("/", os.sep), name) for file, name in generators)

    # All the hook relies on is bound now, as positional defaults (a tuple, which no code changes in place, and
    # which replacing is refused): not a closure's cells, which can be set, nor names looked up when it runs.
    def hook(
        event: str,
        arguments: tuple[Any, ...],
        _check: Any = _check,
        _bound: tuple[Any, ...] = (frozenset(held), roots, generators, tuple(own_readers), on_open, sha256),
    ) -> None:
        _check(event, arguments, *_bound)

    sys.addaudithook(hook)


def _check(
    event: str,
    arguments: tuple[Any, ...],
    held: frozenset[bytes],
    roots: tuple[str, ...],
    generators: tuple[tuple[str, str], ...],
    own_readers: tuple[Any, ...],
    on_open: Callable[[Any], None],
    sha256: Any,
    _getframe: Any = sys._getframe,
    _find_frozen: Any = _imp.find_frozen,
    _realpath: Any = os.path.realpath,
    _isinstance: Any = isinstance,
    _type: Any = type,
    _any: Any = any,
    _bytes: Any = bytes,
    _str: Any = str,
) -> None:
    # Builtins and os.path are bound as defaults: student code may replace them (builtins.any = ...).
    if event == "open":
        on_open(arguments[0])
        return
    if event == "object.__setattr__":
        changed = arguments[0]
        if _type(changed) is _FUNCTION and changed.__code__.co_filename.startswith(RUNTIME):
            raise BuiltCodeRefused("the grader's own functions cannot be changed")
        return
    if event not in WATCHED:
        return
    caller = _getframe(2)  # the frame that raised the event (past this function and the hook)
    if event == "compile":
        source, name = arguments[0], arguments[1]
        if _isinstance(source, _str):
            source = source.encode("utf-8", "surrogatepass")
        if _isinstance(source, _bytes) and _isinstance(name, _str):
            real = _realpath(name) if name.startswith(os.sep) else name
            if real.startswith(roots):
                if _read(real) == source:
                    return  # a file of Python's folders, as it is on disk
            elif sha256(source).digest() in held:
                return  # the hand-in's own text, under a name that does not pass for Python's
        code = caller.f_code
        generated = _any(code.co_filename.endswith(file) and code.co_qualname == name for file, name in generators)
        if generated and _realpath(code.co_filename).startswith(roots):
            return  # a generator of the standard library's, writing text of its own
    elif event.startswith("marshal."):
        code = caller.f_code
        if code.co_name == "_compile_bytecode" and code.co_filename == "<frozen importlib._bootstrap_external>":
            path = caller.f_locals.get("bytecode_path")
            real = _realpath(path) if _isinstance(path, _str) else ""
            if real.startswith(roots) and arguments and (_read(real) or b"")[16:] == _bytes(arguments[0]):
                return  # importlib reading a .pyc of Python's folders, as it is on disk
        importer = caller.f_back
        if (
            code.co_name == "_call_with_frames_removed"
            and code.co_filename == "<frozen importlib._bootstrap>"
            and importer is not None
            and importer.f_code.co_qualname == "FrozenImporter.exec_module"
            and importer.f_code.co_filename == "<frozen importlib._bootstrap>"
            and arguments
        ):
            name = importer.f_locals.get("name")
            frozen = _find_frozen(name, withdata=True) if _isinstance(name, _str) else None
            if frozen is not None and frozen[0] is not None and _bytes(frozen[0]) == _bytes(arguments[0]):
                return  # importlib unmarshalling a module frozen into this interpreter, byte for byte
        if code in own_readers and _only_runtime(caller):
            return  # the worker reading the grader's requests, and no one else's code on the stack
    elif event == "import":
        if arguments[0] in REFUSED_MODULES:
            raise ImportError("ctypes cannot be imported while your code is graded: write plain Python")
        if not _isinstance(arguments[1], _str) or _realpath(arguments[1]).startswith(roots):
            return  # a source module (it names no file here), or an extension module of Python's folders
    elif event == "ctypes.dlopen":
        raise ImportError("ctypes cannot be imported while your code is graded: write plain Python")
    what = SAID.get(event, "loading compiled code (marshal, or a code object built by hand)")
    raise BuiltCodeRefused(f"{what} is refused while your code is graded: hand in the code itself as source")


def _only_runtime(frame: Any) -> bool:
    """Whether every frame from ``frame`` down is the worker's own (its runtime files)."""
    while frame is not None:
        if not frame.f_code.co_filename.startswith(RUNTIME):
            return False
        frame = frame.f_back
    return True


def _read(path: str) -> bytes | None:
    """The bytes of the file at ``path``; None where it cannot be read."""
    try:
        descriptor = os.open(path, os.O_RDONLY)
    except (OSError, ValueError):
        return None
    try:
        chunks = []
        while chunk := os.read(descriptor, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(descriptor)
