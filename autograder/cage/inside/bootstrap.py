"""The worker: a fresh interpreter that runs student code and nothing else.

Started as ``python -S -P -B bootstrap.pyc`` by the grader (in its sandbox
where there is one), compiled into the cage's runtime folder (``cage.runtime_code``). As root in
the sandbox, it first becomes the worker's own unprivileged user. The protocol travels over the stdin and stdout the
grader gave it; the first thing this file does is move them to private
descriptors and point fds 1 and 2 at the output pipe, so nothing the student
prints can ever be read as a message.

Standard library only, and only files copied beside it: the kit's own
package, solutions and tests are never on this interpreter's path.
"""

from __future__ import annotations

import marshal
import os
import sys

# Unbuffered, read a message's bytes exactly: a forked process reads the calls it is sent, and the
# worker that forked it must not hold them in a buffer of its own (forks).
_PROTOCOL_IN = os.fdopen(os.dup(0), "rb", buffering=0)
# Answers to calls sent together are held here until the last one (see run_calls): a megabyte's room.
_PROTOCOL_OUT = os.fdopen(os.dup(1), "wb", buffering=1 << 20)
_null = os.open(os.devnull, os.O_RDONLY)
os.dup2(_null, 0)
os.close(_null)
os.dup2(2, 1)

_RUNTIME = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _RUNTIME)
import call_folders  # noqa: E402
import codec  # noqa: E402
import forks  # noqa: E402
import protocol  # noqa: E402
import spawns  # noqa: E402
import streams  # noqa: E402
import tripwire  # noqa: E402

sys.path.remove(_RUNTIME)
# Keep our helpers out of the student's way; this file holds its own references.
for _helper in ("call_folders", "codec", "forks", "protocol", "spawns", "streams", "tripwire"):
    del sys.modules[_helper]

import time  # noqa: E402
import types  # noqa: E402

# typing is a few milliseconds of every worker's start, for names only the type checker reads.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, NoReturn


_holding = False  # answers are held, not sent one by one: calls sent together are being run


def send(message: dict[str, Any]) -> None:
    if READ:  # the hand-in's files read since the last message: the grader keeps them for its cache
        message = {**message, "read": {module: sorted(names) for module, names in READ.items()}}
        READ.clear()
    _PROTOCOL_OUT.write(codec.dump_message(message))
    if not _holding:
        _PROTOCOL_OUT.flush()


class BoundedOutput:
    """A text stream that keeps the first ``limit`` characters it is given."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.parts: list[str] = []
        self.kept = 0
        self.dropped = 0

    def write(self, text: str) -> int:
        written = str(text)
        # What UTF-8 cannot hold (a lone surrogate, as os.fsdecode makes of a stray byte) is kept as its
        # escape: the output travels with every answer, which it would otherwise make unsendable.
        text = written.encode("utf-8", "backslashreplace").decode("utf-8")
        room = self.limit - self.kept
        if room > 0:
            self.parts.append(text[:room])
            self.kept += min(room, len(text))
        self.dropped += max(0, len(text) - max(room, 0))
        return len(written)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def take(self) -> str:
        text = "".join(self.parts)
        if self.dropped:
            text += f"\n[... {self.dropped} more characters of output cut]"
        self.parts, self.kept, self.dropped = [], 0, 0
        return text


def apply_limits(limits: dict[str, Any]) -> list[str]:
    """Set the resource limits; return what this platform could not set."""
    try:
        import resource
    except ImportError:
        return ["resource limits (CPU, memory, file size, open files)"]
    wanted = [
        ("RLIMIT_CPU", int(limits["cpu_seconds"])),
        ("RLIMIT_AS", int(limits["memory_mb"]) * 1024 * 1024),
        ("RLIMIT_FSIZE", int(limits["file_size_mb"]) * 1024 * 1024),
        ("RLIMIT_NOFILE", int(limits["open_files"])),
        ("RLIMIT_NPROC", int(limits["processes"])),
        ("RLIMIT_CORE", 0),
    ]
    missing = []
    for name, value in wanted:
        which = getattr(resource, name, None)
        try:
            if which is None:
                raise ValueError(name)
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            missing.append(name)
    return missing


def become(uid: int | None) -> None:
    """Drop from root (in the sandbox, with only CAP_SETUID and CAP_SETGID) to the worker's own user, for good.

    The sandbox's mounts are made by then; with every uid set, the kernel
    clears what capabilities were left, and bubblewrap's no_new_privs keeps
    exec from bringing any back.
    """
    if uid is None:
        return
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    if os.getuid() != uid or os.geteuid() != uid:
        raise SystemExit("the worker could not leave root")


def undumpable() -> None:
    """Keep the processes this one forks, which run student code as the same user, from its memory: no
    /proc/<pid>/mem to read or write, no ptrace (PR_SET_DUMPABLE 0, which they inherit). A change of user
    (become) does it already; a worker started as its user (the container cage) or as the grader's own
    (a sandbox of its own user namespace) asks. ctypes is loaded for the call and then forgotten: student
    code may not import it (the policy, and tripwire behind it)."""
    if not sys.platform.startswith("linux"):  # prctl is Linux's (and CDLL(None) is refused on Windows)
        return
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE
    except (ImportError, OSError, AttributeError):
        pass
    for name in [name for name in sys.modules if name.split(".")[0] in ("ctypes", "_ctypes")]:
        del sys.modules[name]


def refuse_if_readable(paths: list[str]) -> None:
    """End the worker, before any student code runs, if it can list one of the grader's folders or open one
    of its canaries: in the container cage its own user is all that keeps it out of them."""
    for path in paths:
        try:
            if os.path.isdir(path):
                os.listdir(path)
            else:
                open(path, "rb").close()
        except OSError:
            continue
        raise SystemExit(f"the cage is open: the worker's user can read {path}, so no student code was run")


def enter_site(folders: list[str]) -> None:
    """What the ``site`` module would give a student (started with -S, the worker has none of it): the
    installed packages on the path, and ``exit()`` and ``quit()``; but no .pth file is run."""
    import site

    sys.path.extend(folder for folder in folders if folder not in sys.path)
    site.setquit()


def import_only_source(trusted: list[str]) -> None:
    """From now on, compiled code (a .pyc, an extension module, a zip's contents) is imported only from
    ``trusted``, the interpreter's own folders; from any other folder, the hand-in's above all, an import
    finds only source, compiled from its text. A ``bpe.py`` of one line that imports a compiled
    ``helper.pyc`` would otherwise earn points for code that no one, and no similarity measure, can read."""
    import importlib.machinery as machinery

    sha256 = _sha256_function()

    class SourceLoader(machinery.SourceFileLoader):
        def get_code(self, fullname: str) -> Any:
            # Never a .pyc: one with an unchecked hash is taken without a look at the source. The worker's own
            # compile of this very text (prepare), or a compile now.
            source = self.get_data(self.path)
            digest, code = COMPILED.get(self.path, (b"", None))
            if code is not None and digest == sha256(source).digest():
                return code
            return self.source_to_code(source, self.path)

    roots = tuple(os.path.realpath(folder) for folder in trusted)
    below = tuple(root.rstrip(os.sep) + os.sep for root in roots)

    def within_trusted(path: str, _roots: tuple[str, ...] = roots, _below: tuple[str, ...] = below) -> bool:
        real = os.path.realpath(path)
        return real in _roots or real.startswith(_below)

    def hook(path: str) -> Any:
        if within_trusted(path):
            raise ImportError("the interpreter's own folder: Python's own hooks import from it")
        # A finder even for what is not a folder (a zip put on the path): it lists nothing, so finds nothing.
        return machinery.FileFinder(path, (SourceLoader, machinery.SOURCE_SUFFIXES))

    sys.path_hooks.insert(0, hook)
    for path in [path for path in sys.path_importer_cache if not within_trusted(path)]:
        del sys.path_importer_cache[path]


def watch_built_code(submission_dir: str, cells: list[str], trusted: list[str]) -> None:
    """Put the tripwire behind the policy (tripwire.install): from now on code built at run time, from text
    that is not the hand-in's, is refused where it is built. The worker's own reads of the grader's requests
    with marshal are its own, and every file opened is noted for the part cache (READ)."""
    roots = tuple({os.path.join(folder, "") for folder in (submission_dir, os.path.realpath(submission_dir))})
    readers = (codec.read_request.__code__, run_calls.__code__, handle_call.__code__)

    def opened(path: Any) -> None:
        _note_read(path, roots, submission_dir)

    tripwire.install(submission_dir, cells, trusted, readers, opened, _sha256_function())


def _sha256_function() -> Any:
    """SHA-256 from the interpreter's own module: hashlib (and OpenSSL behind it) is milliseconds of a
    worker's start, for a few files' digests."""
    try:
        from _sha256 import sha256  # Python 3.11
    except ImportError:
        try:
            from _sha2 import sha256  # Python 3.12 and later
        except ImportError:
            from hashlib import sha256
    return sha256


_SHA256 = _sha256_function()


def _digest(data: bytes, sha256: Any = _SHA256) -> str:
    """The SHA-256 of ``data`` in hex, by the worker's own reference to it (bound as this file is run)."""
    return str(sha256(data).hexdigest())


# (send), for the grader to keep a part's results only while these are unchanged (part_cache).
READ: dict[str, set[str]] = {}
# The hand-in's modules and notebook cells, compiled by the worker before any part's process (prepare): path or
# cell name -> (the SHA-256 of the text compiled, the code). A forked process imports from these.
COMPILED: dict[str, tuple[bytes, Any]] = {}
CALLING = [""]  # the part module of the call running now


def _note_read(path: Any, roots: tuple[str, ...], submission_dir: str) -> None:
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if not isinstance(path, str):
        return  # a descriptor: what it names was opened before
    full = os.path.normpath(os.path.join(submission_dir, path))
    if full.startswith(roots) and "__pycache__" not in full:
        READ.setdefault(CALLING[0], set()).add(os.path.relpath(full, submission_dir).replace(os.sep, "/"))


def where_in_student_code(error: BaseException, roots: list[str]) -> str:
    """The student's file and line closest to where ``error`` was raised."""
    if isinstance(error, SyntaxError) and error.filename:
        return f"{os.path.basename(error.filename)}, line {error.lineno}"
    place = ""
    # The frames' own file names and lines: the traceback module, with its source lines, would be a
    # worker's import and a read of each file for a place told by name and number alone.
    frame = error.__traceback__
    while frame is not None:
        filename = frame.tb_frame.f_code.co_filename
        if (filename.startswith("<") and " cell " in filename) or any(filename.startswith(r) for r in roots):
            place = f"{os.path.basename(filename).strip('<>')}, line {frame.tb_lineno}"
        frame = frame.tb_next
    return place


def describe_error(error: BaseException, roots: list[str]) -> dict[str, Any]:
    """What the grader shows of an error: its type, its message and the student's line it came from."""
    return {"type": type(error).__name__, "message": str(error)[:2000], "where": where_in_student_code(error, roots)}


class Submission:
    """The student's modules, loaded one by one on first use."""

    def __init__(self, config: dict[str, Any], trusted: list[str]) -> None:
        self.directory = config["submission_dir"]
        self.trusted = trusted  # the interpreter's own folders
        self.kind = config["kind"]
        self.script_name = config.get("script_name", "")
        self.cells = config.get("cells", [])
        self.module_cells: dict[str, list[dict[str, Any]]] = config.get("module_cells", {})
        self.script_modules: list[str] = config.get("script_modules", [])
        self.loaded: dict[str, Any] = {}
        self.failures: dict[str, dict[str, Any]] = {}
        self.cell_reports: list[dict[str, Any]] = []

    def module(self, name: str) -> Any:
        if self.kind == "script" and name != "__script__" and name not in self.script_modules:
            raise LoadFailed(
                {
                    "kind": protocol.MISSING_MODULE,
                    "message": (
                        f"{name} was not handed in: its functions share names with another part's, so it cannot "
                        f"live in {self.script_name}; hand it in as {name}.py or {name}.ipynb"
                    ),
                }
            )
        key = "__script__" if self.kind == "script" else name
        if key in self.failures:
            raise LoadFailed(self.failures[key])
        if key not in self.loaded:
            try:
                self.loaded[key] = self._run_script() if key == "__script__" else self._import(name)
            except LoadFailed as failure:
                self.failures[key] = failure.report
                raise
        return self.loaded[key]

    def load(self, name: str) -> bool:
        """Load now; whether it loaded (a failure is remembered and reported to each call into it)."""
        try:
            self.module(name)
        except LoadFailed:
            return False
        return True

    def _import(self, name: str) -> Any:
        if name in self.module_cells:
            module = types.ModuleType(name)
            sys.modules[name] = module
            return self._run_cells(module, self.module_cells[name], name + ".ipynb")
        path = os.path.join(self.directory, name + ".py")
        if not os.path.exists(path):
            raise LoadFailed({"kind": protocol.MISSING_MODULE, "message": f"{name}.py was not handed in"})
        import importlib

        try:
            return importlib.import_module(name)
        except BaseException as error:  # SystemExit at import is the student's too
            report = describe_error(error, [self.directory])
            report["kind"] = protocol.IMPORT_FAILED
            raise LoadFailed(report) from None

    def _run_script(self) -> Any:
        namespace = types.ModuleType("__main__")
        sys.modules["__student__"] = namespace
        return self._run_cells(namespace, self.cells, self.script_name)

    def _run_cells(self, module: types.ModuleType, cells: list[dict[str, Any]], file_name: str) -> Any:
        """Run a notebook's code cells in ``module``, as Jupyter would top to bottom."""
        module.__dict__["__file__"] = os.path.join(self.directory, file_name)
        for cell in cells:
            try:
                name = cell_label(file_name, cell)
                _, code = COMPILED.get(name, (b"", None))
                if code is None:
                    code = compile(cell["source"], name, "exec")
                exec(code, module.__dict__)
            except BaseException as error:  # a cell that fails is reported; later cells still run
                report = describe_error(error, [self.directory])
                name = cell.get("name", cell["index"])
                report["cell"] = f"{name} of {file_name}" if file_name else name
                report["file"] = file_name
                self.cell_reports.append(report)
        return module


def cell_label(file_name: str, cell: dict[str, Any]) -> str:
    """The name a notebook cell's code is compiled under: what its tracebacks say, and its key in COMPILED."""
    return f"<{file_name} cell {cell['index']}>"


class LoadFailed(Exception):
    def __init__(self, report: dict[str, Any]) -> None:
        super().__init__(report.get("message", ""))
        self.report = report


def find_function(submission: Submission, module_name: str, function_name: str) -> Any:
    module = submission.module(module_name)
    function = getattr(module, function_name, None)
    if callable(function):
        return function
    names = [name for name in vars(module) if not name.startswith("_")]
    import difflib

    close = difflib.get_close_matches(function_name, names, n=1, cutoff=0.6)
    notebook = submission.script_name if submission.kind == "script" else f"{module_name}.ipynb"
    broken = [report for report in submission.cell_reports if report.get("file") == notebook]
    if broken:  # the function was most likely in the cell that did not run: that is the mistake to show
        report = broken[0]
        message = f"notebook cell {report['cell']} raised {report['type']}: {report['message']}"
        raise LoadFailed({"kind": protocol.CELL_FAILED, "message": message, "where": report.get("where", "")})
    where = submission.script_name if submission.kind == "script" else f"{module_name}.py"
    message = f"{where} defines no function {function_name}"
    if close:
        message += f"; did you mean {close[0]}?"
    suggested = close[0] if close else ""
    raise LoadFailed({"kind": protocol.MISSING_FUNCTION, "message": message, "suggested": suggested})


def send_unreadable(message: str, printed: str, tag: Any) -> None:
    """Tell the grader the function ran but its answer cannot cross as plain data."""
    send({"ok": False, "kind": protocol.UNREADABLE, "message": message, "output": printed, "tag": tag})


def handle_call(submission: Submission, request: dict[str, Any], output: BoundedOutput) -> bool:
    """Run one call and send its answer, with the call's tag (the grader reads no answer without its call's
    own); True when the answer is a value (not a failure)."""
    CALLING[0] = request["module"]
    tag = request.get("tag")
    try:
        function = find_function(submission, request["module"], request["function"])
    except LoadFailed as failure:
        send({"ok": False, **failure.report, "output": output.take(), "tag": tag})
        return False
    payload = request["payload"]
    args, kwargs = request["arguments"]  # the payload, decoded with the request (codec.request_body)
    folder = request.get("folder")  # a folder of files for the call (call_folders), or None
    try:
        if folder is not None:
            call_folders.prepare(folder["name"], folder["files"])
    except call_folders.FolderError as error:
        send(
            {
                "ok": False,
                "kind": protocol.RAISED,
                "type": "OSError",
                "message": str(error),
                "output": output.take(),
                "tag": tag,
            }
        )
        return False
    stream = request.get("stream")  # an iterable argument fed piece by piece, an iterator answer (streams)
    try:
        if stream is None:
            value = function(*args, **kwargs)
        else:  # the answer's items are read here, where the student's code runs as they are
            given, feed = streams.prepared(args, stream)
            value, told = streams.taken(function(*given, **kwargs), feed, stream)
    except NotImplementedError as error:
        send(
            {
                "ok": False,
                "kind": protocol.NOT_STARTED,
                **describe_error(error, []),
                "output": output.take(),
                "tag": tag,
            }
        )
        return False
    except BaseException as error:  # anything the student raises, SystemExit included, is theirs
        report = describe_error(error, [submission.directory])
        send({"ok": False, "kind": protocol.RAISED, **report, "output": output.take(), "tag": tag})
        return False
    try:
        reply = {"ok": True, "value": codec.to_plain(value), "tag": tag}
        # The arguments as they stand after the call, reported, never judged here: student code runs in this
        # process and can reach whatever judges (proxy.CallRecord.mutated decides, in the grader). Their
        # marshal bytes' digest, which the grader compares with the payload's it sent; where those differ, the
        # plain form too, for the grader to compare (a set may come back in another order, unchanged).
        after = _arguments_digest(args, kwargs)
        if after is not None:
            reply["after_digest"] = after
        if after != _digest(payload):
            reply.update(_arguments_after(args, kwargs))
        if stream is not None:
            reply["stream"] = told
        if folder is not None and folder["collect"]:
            reply["files"] = codec.to_plain(call_folders.collect(folder["name"]))
    except call_folders.FolderError as error:
        send_unreadable(f"{request['function']} left a folder the grader cannot read: {error}", output.take(), tag)
        return False
    except (codec.CodecError, RecursionError) as error:
        send_unreadable(f"{request['function']} returned a value the grader cannot read: {error}", output.take(), tag)
        return False
    reply["output"] = output.take()
    try:
        send(reply)
    except codec.CodecError as error:
        # Changed arguments too big to send back: their digest alone tells the grader they changed.
        rest = {key: value for key, value in reply.items() if key not in ("args_after", "kwargs_after")}
        if "args_after" not in reply or not _sent(rest):
            send_unreadable(f"{request['function']}'s answer could not be sent back: {error}", reply["output"], tag)
            return False
    return True


def _sent(reply: dict[str, Any]) -> bool:
    try:
        send(reply)
    except codec.CodecError:
        return False
    return True


def _arguments_digest(
    args: list[Any], kwargs: dict[str, Any], dumps: Any = marshal.dumps, version: int = codec.MARSHAL_VERSION
) -> str | None:
    """The SHA-256 (in hex) of the arguments written again as the request wrote them (marshal writes exact built-in
    values only, and the same value the same way); None where that fails (what they hold now is not plain data).
    marshal's writer is the worker's own reference, bound before any student code ran: a hand-in that replaces
    ``marshal.dumps`` changes what its own code calls, not this."""
    try:
        return _digest(dumps((args, kwargs), version))
    except Exception:  # whatever the arguments now hold: no digest, which the grader takes for a change
        return None


def _arguments_after(args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    """The arguments' plain form, for the grader to compare with what it sent; nothing where they no longer are
    plain data (an object of the hand-in's own put in a list), which the grader takes for a change."""
    try:
        return {"args_after": codec.to_plain(args), "kwargs_after": codec.to_plain(kwargs)}
    except (codec.CodecError, RecursionError):
        return {}


def run_calls(submission: Submission, calls: list[bytes], tags: list[str], output: BoundedOutput) -> None:
    """Run calls sent together until one fails, and write their answers together: at the end, or when
    ``protocol.HOLD_SECONDS`` have passed since the last write.

    Each write wakes the grader, and on a CPU they share each wake-up hands the CPU back and forth: one
    write a run instead of one a call. Answers held when the process dies are lost; the grader then makes
    the call it waits for again, live, where a crash is found again and blamed on the call that made it.
    """
    global _holding
    _holding = True
    written = time.monotonic()
    try:
        for call, tag in zip(calls, tags, strict=True):
            request = marshal.loads(call)
            request["tag"] = tag  # each call's own: the plan's bodies are the same bytes at every replay
            if not handle_call(submission, request, output):
                break
            if time.monotonic() - written > protocol.HOLD_SECONDS:
                _PROTOCOL_OUT.flush()
                written = time.monotonic()
    finally:
        _holding = False
        _PROTOCOL_OUT.flush()


def copy_folder(source: str, target: str) -> None:
    """Copy the hand-in's folder (regular files only: the grader wrote it) to ``target``.

    Not shutil.copytree: importing shutil (and the archive modules it loads) was a tenth of a worker's start.
    """
    for folder, _, names in os.walk(source):
        into = os.path.join(target, os.path.relpath(folder, source))
        os.makedirs(into, exist_ok=True)
        for name in names:
            with open(os.path.join(folder, name), "rb") as original, open(os.path.join(into, name), "xb") as copy:
                copy.write(original.read())


# The kit's notebook helpers (autograder/notebook/), which a notebook exported as a module still imports.
NOTEBOOK_HELPERS = ("jupyter", "openai_tokenizers", "stdlib_text", "token_view", "training_cost")


def quiet_checks() -> None:
    """Make the notebooks' imports of the kit (``check``, ``show_rows``, ``your_part``) do nothing here.

    A handed-in notebook still holds its check cells and its displays; run in
    the worker they would grade from inside the cage, or fail to import the
    kit, which is hidden. Stand-in modules answer them instead: any name they
    are asked for is one value that does nothing, so ``check = checker("bpe")``
    and then ``check(f)`` work too. It is false, empty and its own every
    attribute and item, so a demo that tests what a helper gave (``if grown:``)
    or unpacks it runs past it.
    """

    class Nothing:
        def __call__(self, *args: object, **kwargs: object) -> Nothing:
            return self

        def __getattr__(self, name: str) -> Nothing:
            if name.startswith("__"):
                raise AttributeError(name)
            return self

        def __getitem__(self, key: object) -> Nothing:
            return self

        def __iter__(self) -> Iterator[object]:
            return iter(())

        def __len__(self) -> int:
            return 0

        def __bool__(self) -> bool:
            return False

        def __str__(self) -> str:
            return ""

        def __format__(self, spec: str) -> str:
            return ""

    nothing = Nothing()

    class StandIn(types.ModuleType):
        def __getattr__(self, name: str) -> object:
            if name.startswith("__"):
                raise AttributeError(name)
            return nothing

    # The notebooks import autograder.notebook; a hand-in made from an older release, autograder.course.
    package = types.ModuleType("autograder")
    package.__path__ = []  # a package: its submodules below are found in sys.modules
    sys.modules["autograder"] = package
    for folder in ("notebook", "course"):
        inner = types.ModuleType(f"autograder.{folder}")
        inner.__path__ = []
        setattr(package, folder, inner)
        sys.modules[inner.__name__] = inner
        for name in NOTEBOOK_HELPERS:
            sys.modules[f"{inner.__name__}.{name}"] = StandIn(f"{inner.__name__}.{name}")
            setattr(inner, name, sys.modules[f"{inner.__name__}.{name}"])


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == PART:
        serve_started_part(sys.argv[2], [int(token) for token in sys.argv[3:]])
    config = codec.read_request(_PROTOCOL_IN)
    if config is None:
        return
    become(config.get("uid"))
    if config.get("undumpable"):
        undumpable()
    refuse_if_readable(config.get("unreadable", []))
    if config.get("copy_from"):
        # The worker's own copy, in its tmpfs (capped at disk_mb), before the limits: file_size_mb caps what
        # the student's code writes, not a hand-in's notebook with its outputs.
        copy_folder(config["copy_from"], config["submission_dir"])
    if spawns.wanted(config):
        # The portable path: each part's process sets itself up as below (serve_started_part), so the worker
        # stays the grader's helper alone, free to read a process's memory with ctypes (spawns) on Windows.
        notices: list[str] = []
        output = BoundedOutput(int(config["limits"]["output_kb"]) * 1024)
        submission = None
    else:
        submission, output, notices = enter(config)
    # Everything above is the grader's; a worker that ends before this message failed to start, and
    # the grader says so rather than blame the student.
    send({"ok": True, protocol.STARTED: True})
    send({"ok": True, protocol.READY: True, "notices": notices, "output": output.take()})
    serve_parts(submission, config, output)


def enter(config: dict[str, Any]) -> tuple[Submission, BoundedOutput, list[str]]:
    """What a process that runs the student's code sets up before it: the limits, the path, the import of
    source alone, the tripwire, the stand-ins for the kit's notebook helpers, the bounded output. The fork
    path does it once, in the worker, whose processes inherit it; the portable path in each process."""
    notices = []
    missing = apply_limits(config["limits"])
    if missing and not spawns.wanted(config):  # the portable path's bounds are the grader's one line
        notices.append("this platform could not set: " + ", ".join(missing))
    os.chdir(config["submission_dir"])
    enter_site(config.get("site_folders", []))
    trusted = list(sys.path)  # the standard library's folders and the installed packages
    import_only_source(trusted)
    cells = [cell["source"] for cell in config.get("cells", [])]
    cells += [cell["source"] for each in config.get("module_cells", {}).values() for cell in each]
    watch_built_code(config["submission_dir"], cells, trusted)
    sys.path.insert(0, config["submission_dir"])
    sys.argv = [config.get("script_name") or "submission"]
    quiet_checks()
    output = BoundedOutput(int(config["limits"]["output_kb"]) * 1024)
    sys.stdout = sys.stderr = output
    return Submission(config, trusted), output, notices


# The command-line word that starts this file as a part's process on the portable path (start_part).
PART = "part"


def start_part(config: dict[str, Any], request: dict[str, Any], scratch_root: str, written: int) -> Any:
    """The portable path: start a fresh interpreter on this file for the part ``request`` asks for. It reads
    the worker's config and the request from a file only this user may read, which it removes at once."""
    handed = os.path.join(scratch_root, f".part-{os.getpid()}-{os.urandom(8).hex()}")
    descriptor = os.open(handed, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(marshal.dumps({"config": config, "request": request}))
    command = [sys.executable, "-S", "-P", "-B", os.path.abspath(__file__), PART, handed]
    return spawns.spawn(
        command,
        stdin=_PROTOCOL_IN.fileno(),
        stdout=_PROTOCOL_OUT.fileno(),
        written=written,
        environment=dict(os.environ),
        measured=bool(request.get("measure")),
    )


def serve_started_part(handed: str, tokens: list[int]) -> NoReturn:
    """A part's process on the portable path: set up as the worker does on the fork path (``enter``), compile
    what the part imports (``prepare``), stand still to be measured when asked, then serve the part as a
    forked process does (``serve_process``). Its word that it ended as asked goes on its own pipe."""
    try:
        with open(handed, "rb") as file:
            given = marshal.loads(file.read())
        os.unlink(handed)
        config, request = given["config"], given["request"]
        forks.ENDING_PIPE[0] = spawns.open_token(tokens[0])
        submission, output, _ = enter(config)
        prepare(submission, str(request["module"]))
        if request.get("measure"):
            spawns.stand_still(spawns.open_token(tokens[1]), spawns.open_token(tokens[2]))
            forks.alone()
        scratch_root = os.environ.get("TMPDIR", config["submission_dir"])
        serve_process(submission, request, scratch_root, output)
    finally:
        os._exit(1)


# A source compiled ahead at most this big: a module is a few kilobytes, and the memory compiling takes stays
# in the worker, shared with every process it forks (megabytes of code are compiled where they are imported).
PREPARED_BYTES = 256 * 1024


def prepare(submission: Submission, module: str) -> None:
    """Compile a part's module (or its notebook's cells) and the hand-in's modules it imports, and import the
    installed modules they name, once, in the worker: each process it forks imports the student's modules anew
    (forks), from these.

    No student code runs here: compiling runs nothing, and the modules imported are found in the
    interpreter's own folders alone."""
    sha256 = _sha256_function()
    directory = submission.directory
    handed_in = {name.split(".")[0] for name in os.listdir(directory)}
    installed: set[str] = set()
    waiting, seen = [module], set()
    while waiting:
        name = waiting.pop()
        if name in seen:
            continue
        seen.add(name)
        codes = []
        cells = submission.cells if submission.kind == "script" else submission.module_cells.get(name)
        file_name = submission.script_name if submission.kind == "script" else name + ".ipynb"
        for cell in cells or ():
            label = cell_label(file_name, cell)
            if len(cell["source"]) > PREPARED_BYTES:
                continue
            if label not in COMPILED:
                try:
                    COMPILED[label] = (b"", compile(cell["source"], label, "exec", dont_inherit=True))
                except Exception:  # a syntax error: found again, and said, where the cell runs
                    continue
            codes.append(COMPILED[label][1])
        base = os.path.join(directory, *name.split("."))
        for path in (base + ".py", os.path.join(base, "__init__.py")):
            if path in COMPILED or not os.path.isfile(path) or os.path.getsize(path) > PREPARED_BYTES:
                continue
            try:
                with open(path, "rb") as file:
                    source = file.read()
                COMPILED[path] = (sha256(source).digest(), compile(source, path, "exec", dont_inherit=True))
            except Exception:  # a syntax error, a codec of its own: found again, and said, where it is imported
                continue
            codes.append(COMPILED[path][1])
        for code in codes:
            for imported in imported_names(code):
                (waiting.append if imported.split(".")[0] in handed_in else installed.add)(imported)
    READ.clear()  # the worker's reads, not a part's
    preimport(sorted(installed), submission.trusted)


def imported_names(code: Any) -> set[str]:
    """The absolute module names a code object and the code within it import (its IMPORT_NAME instructions),
    read from its bytecode: no parse, no dis."""
    import opcode

    import_name, extended = opcode.opmap["IMPORT_NAME"], opcode.EXTENDED_ARG
    names: set[str] = set()
    waiting = [code]
    while waiting:
        current = waiting.pop()
        waiting.extend(const for const in current.co_consts if isinstance(const, types.CodeType))
        raw, argument = current.co_code, 0
        for at in range(0, len(raw), 2):
            op, value = raw[at], raw[at + 1]
            if op == extended:
                argument = (argument | value) << 8
                continue
            if op == import_name:
                names.add(current.co_names[argument | value])
            argument = 0
    return {name for name in names if name and not name.startswith(".")}


def preimport(names: list[str], trusted: list[str]) -> None:
    """Import ``names`` from the interpreter's own folders, so that no forked process pays for them; a name
    found nowhere, or failing, is left to the student's import to report."""
    import importlib

    path, sys.path[:] = list(sys.path), trusted
    try:
        for name in names:
            try:
                importlib.import_module(name)
            except BaseException:  # whatever an installed module raises here, the student's import sees it too
                continue
    finally:
        sys.path[:] = path


def serve_parts(submission: Submission | None, config: dict[str, Any], output: BoundedOutput) -> None:
    """The worker's loop: a process forked for each part, or for a test run apart (``forks``), and nothing
    of the student's run here. What a process leaves is removed before the next starts: the processes it
    started, what it wrote. What they wrote to descriptors 1 and 2 went to a file of the process's own,
    which this one copies, unread, to the output the grader reads apart, with a mark after it (a word of
    its own, made once the process ended). A process forked to measure a call's memory ("measure") is
    measured here, from outside it: what it held at birth and its peak, from the kernel."""
    import functools
    import gc

    writable = forks.Folders(config.get("writable", []))
    spared = forks.ancestors() if config.get("sweep_processes") else None
    portable = spawns.wanted(config)  # a part's process started (spawns), not forked (forks)
    can_kill_groups = hasattr(os, "killpg")
    scratch_root = os.environ.get("TMPDIR", config["submission_dir"])
    room = int(config["limits"]["output_kb"]) * 1024
    prepared: set[str] = set()
    gc.freeze()  # the worker's objects, never collected again: a forked process's collector copies no page of them
    while True:
        request = codec.read_request(_PROTOCOL_IN)
        if request is None or request.get("op") == protocol.STOP:
            return
        if request.get("op") != protocol.FORK:
            send({"ok": False, "kind": protocol.PROTOCOL, "message": f"unknown op {request.get('op')!r}"})
            continue
        if submission is not None and request["module"] not in prepared:  # the portable path's process prepares
            prepare(submission, str(request["module"]))
            prepared.add(request["module"])
        written = forks.output_file()
        # A process for one call whose memory the grader measures: this process, which runs no student code,
        # reads what the child holds at birth and its peak from the kernel (forks.growth).
        measured = bool(request.get("measure"))
        if portable:
            started = start_part(config, request, scratch_root, written)
            ending = functools.partial(forks.end_strays, started.pid, spared) if can_kill_groups else None
            code = spawns.wait(started, ending or (lambda: None))
            grown = spawns.growth(started)
            end_like = spawns.end_like
        else:
            child = forks.fork(_PROTOCOL_OUT.flush, measured=measured)
            if child is None:
                forks.write_to(written)
                assert submission is not None  # the fork path set it up in this process (main)
                serve_process(submission, request, scratch_root, output)
            code = forks.wait(child, functools.partial(forks.end_strays, child.pid, spared))
            grown = forks.growth(child)
            end_like = forks.end_like
        # What the process wrote past its calls, passed on, unread, with a mark after it: the grader keeps it,
        # or drops it where it may show a student other tests' calls (client.Worker.guarding). A measured
        # process's, never: the mark after it, always written, then tells the grader that the end it reads,
        # and the figure with it, are this process's and not a frame the child wrote in its name.
        stray = 0 if measured else forks.pass_on(written, room)
        if measured:
            os.close(written)
        if code is not None:  # after its output is passed on: what it wrote as it went down is the student's to see
            end_like(code)
        whole = writable.restore()
        word = os.urandom(16).hex()
        if stray or measured:
            os.write(2, protocol.stray_mark(word))
        ended: dict[str, Any] = {"ok": True, protocol.ENDED: word, "stray": stray, "restart": not whole}
        if measured:
            ended[protocol.GROWN_BYTES] = grown
        send(ended)


def serve_process(submission: Submission, fork: dict[str, Any], scratch_root: str, output: BoundedOutput) -> None:
    """A process for a part's tests, or one test's: in a process group and a scratch folder of its own, it
    imports the part's module, says so (the grader times the import apart from the calls, and sends none
    before: what runs at import sees no call), then makes the calls it is sent; never returns."""
    try:
        spawns.own_group()  # what it starts ends with it: a process group, or on Windows a Job Object
        forks.scratch(scratch_root, int(fork.get("number", 0)), os.environ)
        if "tempfile" in sys.modules:
            sys.modules["tempfile"].tempdir = None  # type: ignore[attr-defined]  # found again from TMPDIR
        module = CALLING[0] = str(fork["module"])
        loaded = submission.load(module)
        reply = {"ok": True, protocol.IMPORTED: module, "loaded": loaded, "cells": submission.cell_reports}
        send({**reply, "output": output.take()})
        while True:
            request = codec.read_request(_PROTOCOL_IN)
            if request is None:
                break
            op = request.get("op")
            if op == protocol.CALL:
                handle_call(submission, request, output)
            elif op == protocol.CALLS:
                run_calls(submission, request["calls"], request["tags"], output)
            elif op == protocol.END:
                forks.end_as_asked()
            else:
                send({"ok": False, "kind": protocol.PROTOCOL, "message": f"unknown op {op!r}"})
    finally:
        os._exit(1)


if __name__ == "__main__":
    main()
